import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { AppConfig } from '../../infrastructure/config/config';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { openDatabase } from '../../infrastructure/storage/database';
import { testEnvironment } from '../harness/environment';
import { JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  insuranceCard,
  priorAuthorizationRequest,
  syntheticPatient,
} from '../support/case-requests';
import { placeMigratedDatabase } from '../support/migrated-database';
import { runCommandBeside, serveDataFolder, ServedDataFolder } from '../support/served-data-folder';
import { bearer, eventually, startTestApp, testConfig, TestAccount, TestApp } from '../support/test-app';
import type { TestWorker } from '../support/workers';
import type { TestReceiver } from '../support/webhook-receiver';

const KEY_A = `rotation-a:${randomBytes(32).toString('base64')}`;
const KEY_B = `rotation-b:${randomBytes(32).toString('base64')}`;
const CONNECTOR_PASSWORD = 'clearinghouse-password-4412';
const PA = '/prior-authorization';
const BV = '/benefit-verification';

/**
 * Rotates the payload key of a service whose database lives on disk, as an operator would: the
 * service runs under key A, then under B with A kept, the admin CLI re-encrypts, Temporal drops the
 * executions recorded under A, and the service starts again with B alone. Between the service's runs
 * the folder's database is served as local mode serves it, so each command connects to it rather
 * than opening PGlite itself, which took each of them one to three seconds.
 */
describe('payload key rotation', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-rotation-'));
  const fixed = {
    PATIENT_REF_KEY: randomBytes(32).toString('base64'),
    TEMPORAL_TASK_QUEUE: `rotation-${randomBytes(6).toString('hex')}`,
  };
  const keys = (current: string, ...others: string[]) => ({
    PAYLOAD_ENCRYPTION_KEYS: [current, ...others].join(','),
    PAYLOAD_ENCRYPTION_KEY_ID: current.split(':')[0]!,
  });
  const underA = keys(KEY_A);
  const underBKeepingA = keys(KEY_B, KEY_A);
  const underBOnly = keys(KEY_B);

  let service: { app: TestApp; worker: TestWorker } | undefined;
  let served: ServedDataFolder | undefined;
  let account: TestAccount;
  let receiver: TestReceiver;
  let endpointId: string;
  let completedUnderA: JsonObject;
  let runningUnderA: JsonObject;
  let runningUnderB: JsonObject;
  let bIsCurrentSince: Date;
  /** keys:status's entry for key A once B is current, before any re-encryption. */
  let keyABeforeReencryption: JsonObject;
  let keyCreatedUnderA: JsonObject;

  /** The API and a worker on the data folder's database, as a restart with these keys starts them. */
  async function startService(encryption: Record<string, string>): Promise<TestApp> {
    await served?.close();
    served = undefined;
    const env = { ...fixed, ...encryption };
    const config: AppConfig = testConfig(env);
    const db = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    const app = await startTestApp(env, { config, db });
    service = { app, worker: await app.startWorker() };
    return app;
  }

  async function stopService(): Promise<void> {
    await service?.worker.stop();
    await service?.app.close();
    service = undefined;
  }

  /**
   * The admin CLI on the data folder, with these payload keys and this run's Temporal server, while
   * the service is stopped.
   */
  async function admin(encryption: Record<string, string>, ...args: string[]) {
    const { temporalAddress, namespace } = testEnvironment();
    served ??= await serveDataFolder(dataDir);
    return runCommandBeside('admin/cli.js', args, {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: fixed.TEMPORAL_TASK_QUEUE,
      LOG_LEVEL: 'silent',
      ...encryption,
    });
  }

  async function keyStatus(encryption: Record<string, string>) {
    const result = await admin(encryption, 'keys:status');
    // Compared with its stderr beside it, so a failure shows why the command stopped.
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 0,
      stderr: expect.any(String),
    });
    const report = JSON.parse(result.stdout) as { keys: JsonObject[] };
    return (keyId: string) => report.keys.find((key) => key.key_id === keyId);
  }

  async function submit(app: TestApp, casePath: string, body: object): Promise<JsonObject> {
    const response = await app.http().post(casePath).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  }

  const API_KEY_CREATION = { label: 'Rotation retry', roles: ['provider'] };
  const API_KEY_IDEMPOTENCY_KEY = 'rotation-api-key-1';
  const createApiKey = (app: TestApp) =>
    app
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .set('Idempotency-Key', API_KEY_IDEMPOTENCY_KEY)
      .send(API_KEY_CREATION);

  const documentIds = (created: JsonObject): string[] =>
    [...(created.request.insurance ?? []), ...(created.request.patient?.insurance ?? [])].map(
      (document: JsonObject) => document.document_id,
    );

  beforeAll(async () => {
    await placeMigratedDatabase(dataDir);
    const app = await startService(underA);
    account = await app.createAccountWithLiveAdmin('Rotation clinic');
    receiver = await subscribeReceiver(app, account.keys.provider);
    [endpointId] = receiver.endpointIds;
    const connector = await app
      .http()
      .put('/connectors/eligibility')
      .set(bearer(account.keys.admin))
      .send({
        url: 'http://127.0.0.1:9/x12/270',
        format: 'x12',
        auth: { type: 'basic', username: 'clinic-0001', password: CONNECTOR_PASSWORD },
        submitter_id: 'CLINIC0001',
        receiver_id: 'CLEARINGHOUSE',
        usage: 'test',
      });
    expect(connector.status).toBe(200);
    const keyCreation = await createApiKey(app);
    expect(keyCreation.status).toBe(201);
    keyCreatedUnderA = keyCreation.body.data as JsonObject;

    const completed = await submit(
      app,
      BV,
      benefitVerificationRequest({ patient: syntheticPatient({ insurance: [insuranceCard()] }) }),
    );
    completedUnderA = await waitForStatus(app, account.keys.provider, BV, completed.id, 'completed');
    completedUnderA.documentIds = documentIds(completed);
    const running = await submit(app, PA, priorAuthorizationRequest({ insurance: [insuranceCard()] }));
    runningUnderA = await waitForStatus(app, account.keys.provider, PA, running.id, 'awaiting_review');
    runningUnderA.documentIds = documentIds(running);
    await eventually(async () => receiver.notifications.length >= 3);
    await stopService();

    bIsCurrentSince = new Date();
    const rotated = await startService(underBKeepingA);
    const started = await submit(rotated, PA, priorAuthorizationRequest({ insurance: [insuranceCard()] }));
    runningUnderB = await waitForStatus(rotated, account.keys.provider, PA, started.id, 'awaiting_review');
    runningUnderB.documentIds = documentIds(started);
    await stopService();
    keyABeforeReencryption = (await keyStatus(underBKeepingA))('rotation-a')!;
  }, 240_000);

  afterAll(async () => {
    await stopService();
    await served?.close();
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports every store still sealed under the old key, and that it cannot be removed yet', () => {
    const keyA = keyABeforeReencryption;
    expect(keyA).toMatchObject({ configured: true, current: false, removable: false });
    expect(keyA.sql_values).toMatchObject({
      'case_documents.content_sealed': 2,
      'webhook_endpoints.secret_sealed': 1,
      'connector_settings.auth_secret_sealed': 1,
      'idempotency_keys.answer_sealed': 1,
      'webhook_events.body_sealed': expect.any(Number),
    });
    expect(keyA.temporal.open_executions).toBeGreaterThanOrEqual(1);
    expect(keyA.temporal.closed_executions).toBeGreaterThanOrEqual(1);
    expect(keyA.verdict).toContain('run keys:reencrypt');
    expect(keyA.verdict).toContain('running executions');
  });

  it('refuses to re-encrypt without the old key, naming the key and never a secret', async () => {
    const refused = await admin(underBOnly, 'keys:reencrypt');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('key "rotation-a", which is not configured');
    for (const secret of [KEY_A.split(':')[1]!, KEY_B.split(':')[1]!, CONNECTOR_PASSWORD]) {
      expect(refused.stdout + refused.stderr).not.toContain(secret);
    }
  });

  it('re-encrypts in batches that a later run resumes, until a run finds nothing left to do', async () => {
    const stopped = await admin(underBKeepingA, 'keys:reencrypt', '--batch-size', '2', '--max-values', '3');
    expect(stopped.status).toBe(0);
    const partial = JSON.parse(stopped.stdout);
    expect(partial).toMatchObject({ current_key_id: 'rotation-b', complete: false });
    expect(partial.remaining).toBeGreaterThan(0);
    expect(stopped.stderr).toContain('run keys:reencrypt again');

    const finished = JSON.parse((await admin(underBKeepingA, 'keys:reencrypt', '--batch-size', '2')).stdout);
    expect(finished).toMatchObject({ remaining: 0, complete: true });
    const total = (summary: JsonObject) =>
      Object.values(summary.reencrypted as Record<string, number>).reduce((sum, count) => sum + count, 0);
    expect(total(partial) + total(finished)).toBe(
      Object.values(keyABeforeReencryption.sql_values as Record<string, number>).reduce((a, b) => a + b, 0),
    );

    const again = JSON.parse((await admin(underBKeepingA, 'keys:reencrypt')).stdout);
    expect(total(again)).toBe(0);
    expect(again).toMatchObject({ remaining: 0, complete: true });
  });

  it('keeps the old key while a case started under it runs, and lets it go once Temporal deletes those executions', async () => {
    const whileRunning = (await keyStatus(underBKeepingA))('rotation-a')!;
    expect(whileRunning.sql_values).toEqual({});
    expect(whileRunning.removable).toBe(false);
    const { open_executions: running, example_workflow_ids: examples } = whileRunning.temporal;
    expect(examples.slice(0, running)).toContain(runningUnderA.id);
    expect(whileRunning.verdict).toContain('they need it until they close and Temporal deletes them');

    const app = await startService(underBKeepingA);
    const cancelled = await app
      .http()
      .post(`${PA}/${runningUnderA.id}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Key rotation test' });
    expect(cancelled.status).toBe(200);
    await waitForStatus(app, account.keys.provider, PA, runningUnderA.id, 'cancelled');
    // What the retention purge does to closed cases: Temporal's DeleteWorkflowExecution on every
    // closed execution recorded before B became current (cases, deliveries, endpoint activation),
    // once visibility records the cancelled case's close, a moment after GET shows it.
    const { namespace } = testEnvironment();
    const closedUnderA = async () =>
      (
        await app.temporalClient.workflowService.listWorkflowExecutions({
          namespace,
          query: `TaskQueue = '${fixed.TEMPORAL_TASK_QUEUE}' AND ExecutionStatus != 'Running' AND StartTime < '${bIsCurrentSince.toISOString()}'`,
          pageSize: 1000,
        })
      ).executions.map(({ execution }) => execution!);
    await eventually(async () =>
      (await closedUnderA()).some((execution) => execution.workflowId === runningUnderA.id),
    );
    for (const execution of await closedUnderA()) {
      await app.temporalClient.workflowService.deleteWorkflowExecution({
        namespace,
        workflowExecution: execution,
      });
    }
    await stopService();

    const afterPurge = await eventually(async () => {
      const keyA = (await keyStatus(underBKeepingA))('rotation-a')!;
      return keyA.removable ? keyA : undefined;
    }, 60_000);
    expect(afterPurge.verdict).toContain('remove it from PAYLOAD_ENCRYPTION_KEYS');
  }, 120_000);

  describe('with the old key removed', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startService(underBOnly);
    }, 60_000);

    it('reads the case that remains', async () => {
      const read = await app.http().get(`${PA}/${runningUnderB.id}`).set(bearer(account.keys.provider));
      expect(read.status).toBe(200);
      expect(read.body.data.status).toBe('awaiting_review');
    });

    it('reads every document, from before and after the rotation, as a worker reads them', async () => {
      const documents = new CaseDocumentsRepository(app.db, new SecretBox(app.config.encryption!));
      for (const caseRead of [completedUnderA, runningUnderA, runningUnderB]) {
        const contents = await documents.read(caseRead.documentIds as string[]);
        expect(contents.map((content) => content.toString('utf8'))).toEqual([
          Buffer.from(insuranceCard().file_content, 'base64').toString('utf8'),
        ]);
      }
    });

    it('lists the deliveries and signs a new one to the old endpoint with its original secret', async () => {
      const log = await app
        .http()
        .get(`/webhooks/${endpointId}/deliveries`)
        .set(bearer(account.keys.provider));
      expect(log.status).toBe(200);
      const delivered = log.body.data.data as JsonObject[];
      expect(delivered.length).toBeGreaterThanOrEqual(3);

      const before = receiver.requests.length;
      const oldest = delivered.at(-1)!;
      const retried = await app
        .http()
        .post(`/webhooks/${endpointId}/deliveries/${oldest.id}/retry`)
        .set(bearer(account.keys.provider));
      expect(retried.status).toBe(202);
      const request = await eventually(async () => receiver.requests[before]);
      expect(request.verified).toBe(true);
      expect(request.headers['x-webhook-id']).toBe(oldest.event_id);
    });

    it("hands the worker the connector's original secret", async () => {
      const connectors = new ConnectorSettingsRepository(app.db, new SecretBox(app.config.encryption!));
      const settings = await connectors.readForUse(account.accountId, 'eligibility');
      expect(settings).toMatchObject({ auth: { type: 'basic', password: CONNECTOR_PASSWORD } });
    });

    it("replays an API key's creation answered under the old key, secret included", async () => {
      const replayed = await createApiKey(app);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body.data).toEqual(keyCreatedUnderA);
    });

    it('no longer reports the old key anywhere once the service stops', async () => {
      await stopService();
      expect((await keyStatus(underBOnly))('rotation-a')).toBeUndefined();
    });
  });
});
