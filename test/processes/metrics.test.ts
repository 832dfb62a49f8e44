import { randomBytes, randomUUID } from 'node:crypto';

import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { freePort } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from '../harness/environment';
import { benefitVerificationRequest } from '../support/case-requests';
import { JsonBody, readJson, RunningProcess, startProcess } from '../support/processes';
import { bearer, eventually, randomEncryptionKeys } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

const databaseUrl = process.env.TEST_DATABASE_URL;
const describeWithPostgres = databaseUrl ? describe : describe.skip;
if (!databaseUrl)
  test.todo('Prometheus metrics of the API and the worker (set TEST_DATABASE_URL to run it; CI does)');

/** The sum of a metric's samples whose labels include `labels`, from Prometheus's text format. */
function sampleSum(exposition: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => present.includes(`${key}="${value}"`))) {
      sum += Number(match[3]);
    }
  }
  return sum;
}

describeWithPostgres('Prometheus metrics of the API and the worker processes', () => {
  let db: Database;
  let apiKey: string;
  let api: RunningProcess;
  let worker: RunningProcess;
  let receiver: TestReceiver;
  const ports = { api: 0, apiMetrics: 0, workerMetrics: 0 };

  const apiUrl = (path: string) => `http://127.0.0.1:${ports.api}${path}`;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(apiUrl(path), {
      ...init,
      headers: { ...bearer(apiKey), 'Content-Type': 'application/json', ...init.headers },
    });
  const scrape = async (port: number) => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  let endpoint: Promise<string> | undefined;
  /** The receiver's endpoint, subscribed to benefit verification events and active. */
  const activeEndpoint = () =>
    (endpoint ??= (async () => {
      const created = await readJson(
        await call('/webhooks', {
          method: 'POST',
          body: JSON.stringify({
            name: 'metrics receiver',
            url: receiver.url,
            secret: 'whsec_metrics_0000000001',
            events: ['benefit_verification.updated'],
          }),
        }),
      );
      const endpointId = created.data.id as string;
      receiver.endpointIds.add(endpointId);
      await call(`/webhooks/${endpointId}`, { method: 'PATCH', body: JSON.stringify({ active: true }) });
      await eventually(async () => {
        const read: JsonBody = await readJson(await call(`/webhooks/${endpointId}`));
        return read.data?.status === 'active';
      }, 30_000);
      return endpointId;
    })());

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl });
    await migrate(db);
    const accounts = new AccountsRepository(db);
    const account = await accounts.createAccount('Metrics clinic');
    apiKey = (await accounts.createApiKey({ accountId: account.id, roles: ['admin'], label: 'metrics' }))
      .secret;
    receiver = await new TestReceiver('whsec_metrics_0000000001').start();

    for (const key of Object.keys(ports) as Array<keyof typeof ports>) ports[key] = await freePort();
    const env = {
      NODE_ENV: 'production',
      TEMPORAL_ADDRESS: testEnvironment().temporalAddress,
      TEMPORAL_NAMESPACE: testEnvironment().namespace,
      TEMPORAL_TASK_QUEUE: `metrics-${randomUUID()}`,
      DATABASE_URL: databaseUrl!,
      PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
      PATIENT_REF_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.0/8',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
      WEBHOOK_RETRY_EXPIRE_AFTER_MS: '1000',
      HOST: '127.0.0.1',
      METRICS_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    worker = startProcess('main.worker.js', { ...env, METRICS_PORT: String(ports.workerMetrics) });
    api = startProcess('main.api.js', {
      ...env,
      PORT: String(ports.api),
      METRICS_PORT: String(ports.apiMetrics),
    });
    await api.waitForOutput(/API listening/);
    await worker.waitForOutput(/metrics listening/);
  });

  afterAll(async () => {
    await api?.stop('SIGTERM');
    await worker?.stop('SIGTERM');
    await receiver?.stop();
    await db?.close();
  });

  it('counts API requests by route template, never by the raw path, on the metrics port only', async () => {
    const unknownCase = `pa_${randomBytes(8).toString('hex')}`;
    expect((await call(`/prior-authorization/${unknownCase}`)).status).toBe(404);
    expect((await call(`/prior-authorization/${unknownCase}`)).status).toBe(404);
    const statusCode = String((await call('/status')).status);
    expect((await call(`/no-such-place/${unknownCase}`)).status).toBe(404);

    const exposition = await scrape(ports.apiMetrics);
    const byRoute = (route: string, status: string) =>
      sampleSum(exposition, 'http_requests_total', { method: 'GET', route, status });
    expect(byRoute('/prior-authorization/:id', '404')).toBe(2);
    expect(byRoute('/status', statusCode)).toBe(1);
    expect(byRoute('unmatched', '404')).toBe(1);
    expect(
      sampleSum(exposition, 'http_request_duration_seconds_count', { route: '/prior-authorization/:id' }),
    ).toBe(2);
    expect(exposition).not.toContain(unknownCase);
    expect((await call('/metrics')).status).toBe(404);
  });

  // Runs before any case is submitted: a case's own updates, delivered to the same receiver while this
  // test counts, would add to the delivered outcome it expects to stay still.
  it('counts each failed attempt as retrying, and a delivery whose schedule ran out as gave_up once', async () => {
    const endpointId = await activeEndpoint();
    const outcomes = async () => {
      const exposition = await scrape(ports.workerMetrics);
      return (outcome: string) => sampleSum(exposition, 'webhook_deliveries', { outcome });
    };
    const before = await outcomes();
    // Every attempt fails until the schedule (100 ms, ×6, for 1 s) has run out.
    receiver.script.push(500, 500, 500, 500);
    expect((await call(`/webhooks/${endpointId}/test`, { method: 'POST' })).status).toBe(202);

    const after = await eventually(async () => {
      const now = await outcomes();
      return now('gave_up') > before('gave_up') ? now : undefined;
    }, 30_000);
    receiver.script.splice(0);
    expect(after('gave_up') - before('gave_up')).toBe(1);
    expect(after('retrying') - before('retrying')).toBeGreaterThan(0);
    expect(after('delivered') - before('delivered')).toBe(0);
  });

  it('shows the cases by type and status, and those overdue, counted from the case summaries', async () => {
    const bvCases = async () =>
      sampleSum(await scrape(ports.apiMetrics), 'cases', { type: 'benefit_verification' });
    const before = await bvCases();
    for (let created = 0; created < 2; created++) {
      const response = await call('/benefit-verification', {
        method: 'POST',
        body: JSON.stringify(benefitVerificationRequest()),
      });
      expect(response.status).toBe(201);
    }
    await eventually(async () => (await bvCases()) === before + 2, 30_000);
    expect(await scrape(ports.apiMetrics)).toMatch(
      /^cases_overdue\{type="benefit_verification",status="\w+"\} 0$/m,
    );
  });

  it('serves the worker’s SDK metrics and counts a webhook delivered to a real receiver, with its lag', async () => {
    const endpointId = await activeEndpoint();
    const submitted = await call('/benefit-verification', {
      method: 'POST',
      body: JSON.stringify(benefitVerificationRequest()),
    });
    expect(submitted.status).toBe(201);
    await eventually(async () => receiver.notifications.length > 0, 60_000);

    const exposition = await eventually(async () => {
      const text = await scrape(ports.workerMetrics);
      return sampleSum(text, 'webhook_delivery_lag_seconds_count') > 0 ? text : undefined;
    });
    expect(sampleSum(exposition, 'webhook_deliveries', { outcome: 'delivered' })).toBeGreaterThan(0);
    expect(sampleSum(exposition, 'temporal_worker_task_slots_available')).toBeGreaterThan(0);
    expect(exposition).not.toContain(endpointId);
  });
});
