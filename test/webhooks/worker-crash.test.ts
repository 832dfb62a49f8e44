import { randomUUID } from 'node:crypto';

import { Client } from '@temporalio/client';

import { newId } from '../../domain/ids';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { connectClient } from '../../infrastructure/temporal/temporal-connection';
import { WebhookDeliveriesRepository } from '../../infrastructure/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../../infrastructure/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
import { waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest } from '../support/case-requests';
import { RunningProcess, startProcess, workerEnvFor } from '../support/processes';
import {
  bearer,
  eventually,
  randomEncryptionKeys,
  startTestApp,
  TestAccount,
  TestApp,
  testConfig,
} from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

const databaseUrl = process.env.TEST_DATABASE_URL;
const describeWithPostgres = databaseUrl ? describe : describe.skip;
if (!databaseUrl)
  test.todo(
    'worker crash during delivery (needs TEST_DATABASE_URL: two processes share the database; CI sets it)',
  );

describeWithPostgres('a worker killed in the middle of a delivery', () => {
  const secret = 'whsec_crash_test_000001';
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl!,
    PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
    TEMPORAL_TASK_QUEUE: `crash-${randomUUID()}`,
    WEBHOOK_ALLOWED_TARGETS: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_HANDOFF_MS: '2000',
    WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '2',
    WEBHOOK_RETRY_MAX_INTERVAL_MS: '500',
    LOG_LEVEL: 'warn',
  };
  // Built when the suite runs, not when it is collected: without PostgreSQL the loader refuses it.
  let config: ReturnType<typeof testConfig>;
  let db: Database;
  let client: Client;
  let receiver: TestReceiver;
  const workers: RunningProcess[] = [];

  beforeAll(async () => {
    config = testConfig(env);
    db = await openDatabase({ databaseUrl });
    await migrate(db);
    client = await connectClient(config.temporal, config.encryption!);
    receiver = await new TestReceiver(secret).start();
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await receiver.stop();
    await client.connection.close();
    await db.close();
  });

  const startWorker = () => {
    const worker = startProcess('main.worker.js', { ...env, TEMPORAL_ADDRESS: config.temporal.address });
    workers.push(worker);
    return worker;
  };

  it('delivers the notification after the worker restarts, with the same event id', async () => {
    const secrets = new SecretBox(config.encryption!);
    const account = await new AccountsRepository(db).createAccount('Crash test clinic');
    const endpoints = new WebhookEndpointsRepository(db, secrets);
    const endpoint = await endpoints.create({
      accountId: account.id,
      name: 'receiver',
      url: receiver.url,
      events: ['prior_authorization.updated'],
      secret,
      livemode: false,
    });
    receiver.endpointIds.add(endpoint.id);
    await endpoints.setStatus(endpoint.id, 'active', null);
    const deliveries = new WebhookDeliveriesRepository(db, secrets);
    const publisher = new WebhookPublisher(deliveries, client, {
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      webhooks: config.webhooks,
    });

    const first = startWorker();
    receiver.script.push('hang');
    const eventId = newId('event');
    const [deliveryId] = await publisher.publish({
      eventId,
      accountId: account.id,
      type: 'prior_authorization.updated',
      data: { id: 'pa_crash', object: 'prior_authorization', status: 'awaiting_outcome' },
      createdAt: new Date().toISOString(),
    });
    await eventually(async () => receiver.requests.length === 1, 60_000);
    await first.stop('SIGKILL');

    startWorker();
    await eventually(async () => receiver.notifications.length === 1, 60_000);
    expect(receiver.requests.map((request) => request.headers['x-webhook-id'])).toEqual([eventId, eventId]);
    expect(receiver.requests.every((request) => request.verified)).toBe(true);
    const [row] = await eventually(async () => {
      const rows = await db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE id = $1', [
        deliveryId,
      ]);
      return rows[0]?.status === 'succeeded' ? rows : undefined;
    });
    expect(row).toEqual({ status: 'succeeded' });
  });
});

describeWithPostgres('a worker killed during the first attempt of a case event', () => {
  const secret = 'whsec_first_attempt_crash_01';
  let testApp: TestApp;
  let account: TestAccount;
  let receiver: TestReceiver;
  let workerEnv: Record<string, string>;
  const workers: RunningProcess[] = [];

  beforeAll(async () => {
    testApp = await startTestApp({
      DATABASE_URL: databaseUrl!,
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_HANDOFF_MS: '2000',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    });
    workerEnv = workerEnvFor(testApp.config, databaseUrl!, {
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_HANDOFF_MS: '2000',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    });
    account = await testApp.createAccount();
    receiver = await new TestReceiver(secret).start();
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await receiver.stop();
    await testApp.close();
  });

  const startWorker = () => {
    const worker = startProcess('main.worker.js', workerEnv);
    workers.push(worker);
    return worker;
  };

  it('delivers the event after the worker making its first attempt is killed, with the same event id', async () => {
    const first = startWorker();
    const provider = bearer(account.keys.provider);
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(provider)
      .send({ name: 'receiver', url: receiver.url, secret, events: ['benefit_verification.updated'] });
    const endpointId = created.body.data.id as string;
    receiver.endpointIds.add(endpointId);
    await testApp.http().patch(`/webhooks/${endpointId}`).set(provider).send({ active: true });
    await waitForStatus(testApp, account.keys.provider, '/webhooks', endpointId, 'active', 60_000);

    receiver.script.push('hang');
    const submitted = await testApp
      .http()
      .post('/benefit-verification')
      .set(provider)
      .send(benefitVerificationRequest());
    expect(submitted.status).toBe(201);
    // The case's worker publishes the event and makes the first attempt itself: kill it mid-attempt.
    await eventually(async () => receiver.requests.length === 1, 60_000);
    await first.stop('SIGKILL');

    startWorker();
    await eventually(async () => receiver.notifications.length === 1, 60_000);
    const [eventId] = receiver.requests.map((request) => request.headers['x-webhook-id']);
    expect(receiver.requests.map((request) => request.headers['x-webhook-id'])).toEqual([eventId, eventId]);
    expect(receiver.notifications[0]).toMatchObject({
      id: eventId,
      data: { id: submitted.body.data.id, status: 'completed' },
    });
    const [delivery] = await eventually(async () => {
      const { body } = await testApp.http().get(`/webhooks/${endpointId}/deliveries`).set(provider);
      return body.data.data[0]?.status === 'succeeded' ? body.data.data : undefined;
    });
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, http_status: 200 })]);
  });
});
