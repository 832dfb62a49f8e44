import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort, startDevServer } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from '../harness/environment';
import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest, priorAuthorizationRequest } from '../support/case-requests';
import { RunningProcess, startProcess, workerEnvFor } from '../support/processes';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

const databaseUrl = process.env.TEST_DATABASE_URL;
/**
 * A workflow's next task waits this long on the queue of the worker that held it in memory, gone in
 * every test here, before any worker may take it (Temporal's 10 s unless set).
 */
const QUICK_HANDOVER = { WORKER_STICKY_QUEUE_TIMEOUT_MS: '1000' };
const describeWithPostgres = databaseUrl ? describe : describe.skip;
if (!databaseUrl)
  test.todo(
    'cases survive worker crashes (needs TEST_DATABASE_URL: worker processes share the database; CI sets it)',
  );

describeWithPostgres('cases survive a worker killed in every waiting status', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let receiver: TestReceiver;
  let worker: RunningProcess | undefined;
  let workerEnv: Record<string, string>;

  beforeAll(async () => {
    testApp = await startTestApp({
      DATABASE_URL: databaseUrl!,
      PAYER_POLL_INTERVAL_MS: '1500',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '2000',
      ...QUICK_HANDOVER,
    });
    workerEnv = workerEnvFor(testApp.config, databaseUrl!, QUICK_HANDOVER);
    worker = startProcess('main.worker.js', workerEnv);
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await receiver.stop();
    await testApp.close();
  });

  async function crashAndRestartWorker(): Promise<void> {
    await worker!.stop('SIGKILL');
    worker = startProcess('main.worker.js', workerEnv);
  }

  /** Every status once, in order; every event delivered at least once, duplicates under one event id. */
  async function expectCleanHistory(path: string, id: string, statuses: string[], announced: string[]) {
    const { body } = await testApp.http().get(`${path}/${id}`).set(bearer(account.keys.provider));
    expect(body.data.status_history.map((change: JsonObject) => change.status)).toEqual(statuses);
    const events = await eventually(async () => {
      const received = eventsFor(receiver, id);
      return new Set(received.map((event) => event.data.sequence)).size === announced.length
        ? received
        : undefined;
    }, 30_000);
    expect([...new Set(events.map((event) => event.data.status))]).toEqual(announced);
    for (const sequence of new Set(events.map((event) => event.data.sequence))) {
      const deliveries = receiver.requests.filter(
        (request) =>
          JSON.parse(request.rawBody.toString()).data?.sequence === sequence &&
          JSON.parse(request.rawBody.toString()).data?.id === id,
      );
      expect(new Set(deliveries.map((request) => request.headers['x-webhook-id'])).size).toBe(1);
    }
  }

  it('finishes a prior authorization after crashes in awaiting_review and awaiting_outcome', async () => {
    const path = '/prior-authorization';
    const { body } = await testApp
      .http()
      .post(path)
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest());
    const id = body.data.id as string;
    await waitForStatus(testApp, account.keys.provider, path, id, 'awaiting_review', 60_000);
    await crashAndRestartWorker();

    const reviewed = await testApp
      .http()
      .post(`${path}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. R' });
    expect(reviewed.body.data.status).toBe('awaiting_outcome');
    await crashAndRestartWorker();

    await waitForStatus(testApp, account.keys.provider, path, id, 'completed', 60_000);
    const all = ['processing', 'awaiting_review', 'awaiting_outcome', 'completed'];
    await expectCleanHistory(path, id, all, all);
  });

  it('finishes a benefit verification after a crash in awaiting_review', async () => {
    const path = '/benefit-verification';
    const { body } = await testApp
      .http()
      .post(path)
      .set(bearer(account.keys.provider))
      .send(
        benefitVerificationRequest({
          mock_result: { status: 'completed', case: 'manual_verification_required' },
        }),
      );
    const id = body.data.id as string;
    await waitForStatus(testApp, account.keys.provider, path, id, 'awaiting_review', 60_000);
    await crashAndRestartWorker();

    const recorded = await testApp
      .http()
      .post(`${path}/${id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ status: 'completed', coverage_status: 'covered' });
    expect(recorded.body.data.status).toBe('completed');
    await expectCleanHistory(path, id, ['processing', 'awaiting_review', 'completed'], ['completed']);
  });
});

describe('cases survive a restart of the local Temporal server', () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-restart-'));
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('continues a prior authorization created before the restart', async () => {
    const port = await freePort();
    const serverOptions = {
      binary: testEnvironment().temporalBinary,
      port,
      dbFile: path.join(workDir, 'temporal.db'),
      namespace: testEnvironment().namespace,
      logFile: path.join(workDir, 'temporal.log'),
    };
    const env = { TEMPORAL_ADDRESS: `127.0.0.1:${port}`, ...QUICK_HANDOVER };

    let server = await startDevServer(serverOptions);
    let testApp = await startTestApp(env);
    const account = await testApp.createAccount();
    let worker = await testApp.startWorker();
    const { body } = await testApp
      .http()
      .post('/prior-authorization')
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest());
    const id = body.data.id as string;
    await waitForStatus(testApp, account.keys.provider, '/prior-authorization', id, 'awaiting_review');
    await worker.stop();
    const { config, db } = testApp;
    await testApp.app.close();
    await testApp.temporalClient.connection.close();
    await server.stop();

    server = await startDevServer(serverOptions);
    try {
      testApp = await startTestApp(
        { ...env, TEMPORAL_TASK_QUEUE: config.temporal.taskQueue },
        { config, db },
      );
      worker = await testApp.startWorker();
      const reviewed = await testApp
        .http()
        .post(`/prior-authorization/${id}/review`)
        .set(bearer(account.keys.reviewer))
        .send({ decision: 'approve', reviewer: 'Dr. R' });
      expect(reviewed.body.data.status).toBe('awaiting_outcome');
      await worker.stop();
      await testApp.close();
    } finally {
      await server.stop();
    }
  });
});
