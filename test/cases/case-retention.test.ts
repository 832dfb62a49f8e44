import { randomUUID } from 'node:crypto';

import { DAY_MS } from '../../domain/durations';
import { workflowExists } from '../../infrastructure/temporal/workflow-deletion';
import pino from 'pino';

import { ensureCaseRetention, CASE_RETENTION_SCHEDULE_ID } from '../../src/worker/case-retention-schedule';
import { JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  insuranceCard,
  priorAuthorizationRequest,
  syntheticPatient,
} from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp, TEST_DATABASE } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const RETENTION_DAYS = 7;

/**
 * The retention purge on the real worker, database and dev server: closed cases whose last change is
 * older than CASE_RETENTION_DAYS go with everything that held their data; the rest stay.
 */
describe('the case retention purge', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ CASE_RETENTION_DAYS: String(RETENTION_DAYS), ...TEST_DATABASE });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const runPurge = () =>
    testApp.temporalClient.workflow.execute('caseRetentionWorkflow', {
      workflowId: `case-retention-test-${randomUUID()}`,
      taskQueue: testApp.config.temporal.taskQueue,
    }) as Promise<{ purged: number }>;

  /** A benefit verification with an insurance card document, finished, its events delivered. */
  const finishedBenefitVerification = async (): Promise<JsonObject> => {
    const response = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .set('Idempotency-Key', `retention-${randomUUID()}`)
      .send(benefitVerificationRequest({ patient: syntheticPatient({ insurance: [insuranceCard()] }) }));
    expect(response.status).toBe(201);
    const id = response.body.data.id as string;
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'completed');
    await eventually(async () => (await rowsOf(id)).deliveries > 0 || undefined);
    return response.body.data;
  };

  const backdate = (caseId: string, days: number) =>
    testApp.db.query(
      `UPDATE case_summaries SET updated_at = now() - $2 * interval '1 day' WHERE case_id = $1`,
      [caseId, days],
    );

  const rowsOf = async (caseId: string) => {
    const count = async (sql: string) => Number((await testApp.db.query<{ n: string }>(sql, [caseId]))[0].n);
    return {
      summaries: await count('SELECT count(*) AS n FROM case_summaries WHERE case_id = $1'),
      documents: await count('SELECT count(*) AS n FROM case_documents WHERE case_id = $1'),
      events: await count('SELECT count(*) AS n FROM webhook_events WHERE case_id = $1'),
      deliveries: await count(
        'SELECT count(*) AS n FROM webhook_deliveries JOIN webhook_events e ON e.id = event_id WHERE e.case_id = $1',
      ),
      idempotencyKeys: await count('SELECT count(*) AS n FROM idempotency_keys WHERE resource_id = $1'),
    };
  };

  const temporalHas = (caseId: string) => workflowExists(testApp.temporalClient, caseId);

  it('removes a closed case older than the retention from the API, SQL and Temporal, and audits it', async () => {
    const expired = await finishedBenefitVerification();
    expect(await rowsOf(expired.id)).toMatchObject({ summaries: 1, documents: 1, idempotencyKeys: 1 });
    expect((await rowsOf(expired.id)).events).toBeGreaterThan(0);
    await backdate(expired.id, RETENTION_DAYS + 1);

    await runPurge();

    const read = await testApp
      .http()
      .get(`/benefit-verification/${expired.id}`)
      .set(bearer(account.keys.provider));
    expect(read.status).toBe(404);
    const list = await testApp.http().get('/benefit-verification').set(bearer(account.keys.provider));
    expect(list.body.data.data.map((item: JsonObject) => item.id)).not.toContain(expired.id);
    expect(await rowsOf(expired.id)).toEqual({
      summaries: 0,
      documents: 0,
      events: 0,
      deliveries: 0,
      idempotencyKeys: 0,
    });
    expect(await temporalHas(expired.id)).toBe(false);
    const audit = await testApp.db.query<JsonObject>(
      'SELECT account_id, actor_type, actor_id, target_object, details FROM audit_events WHERE action = $1 AND target_id = $2',
      ['case.purged', expired.id],
    );
    expect(audit).toEqual([
      {
        account_id: account.accountId,
        actor_type: 'system',
        actor_id: 'case-retention',
        target_object: 'benefit_verification',
        details: {},
      },
    ]);
  });

  it('keeps open cases and closed cases younger than the retention, however old', async () => {
    const recent = await finishedBenefitVerification();
    await backdate(recent.id, RETENTION_DAYS - 1);
    const open = await testApp
      .http()
      .post('/prior-authorization')
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest());
    expect(open.status).toBe(201);
    await waitForStatus(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      open.body.data.id,
      'awaiting_review',
    );
    await backdate(open.body.data.id, RETENTION_DAYS * 10);

    await runPurge();

    for (const [path, id] of [
      ['/benefit-verification', recent.id],
      ['/prior-authorization', open.body.data.id],
    ]) {
      const read = await testApp.http().get(`${path}/${id}`).set(bearer(account.keys.provider));
      expect(read.status).toBe(200);
      expect((await rowsOf(id)).summaries).toBe(1);
    }
    expect((await rowsOf(recent.id)).documents).toBe(1);
  });

  it('purges nothing and audits nothing on a second run', async () => {
    const expired = await finishedBenefitVerification();
    await backdate(expired.id, RETENTION_DAYS + 1);
    await runPurge();
    const purges = () =>
      testApp.db
        .query('SELECT id FROM audit_events WHERE action = $1', ['case.purged'])
        .then((rows) => rows.length);
    const before = await purges();

    expect(await runPurge()).toEqual({ purged: 0 });
    expect(await purges()).toBe(before);
  });

  it('creates the hourly schedule and the namespace retention when a worker starts, and updates them on the next', async () => {
    const settings = { ...testApp.config.temporal, retentionDays: RETENTION_DAYS };
    await ensureCaseRetention(testApp.temporalClient, settings, pino({ level: 'silent' }));
    await ensureCaseRetention(testApp.temporalClient, settings, pino({ level: 'silent' }));

    const schedule = await testApp.temporalClient.schedule.getHandle(CASE_RETENTION_SCHEDULE_ID).describe();
    expect(schedule.spec.intervals).toMatchObject([{ every: 3_600_000 }]);
    expect(schedule.policies.overlap).toBe('SKIP');
    expect(schedule.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'caseRetentionWorkflow',
      taskQueue: testApp.config.temporal.taskQueue,
    });
    const namespace = await testApp.temporalClient.workflowService.describeNamespace({
      namespace: testApp.config.temporal.namespace,
    });
    expect(Number(namespace.config?.workflowExecutionRetentionTtl?.seconds)).toBe(
      (RETENTION_DAYS * DAY_MS) / 1000,
    );
  });
});
