import type { Client } from '@temporalio/client';

import { connectClient } from '../../infrastructure/temporal/temporal-connection';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { startTestWorker, TestWorker } from '../support/workers';

const SECRET = 'whsec_failed_starts_0001';

/**
 * The API process cannot reach Temporal (its client is closed) while a worker, with a connection of
 * its own, runs: deliveries the API records but cannot start must still be sent.
 */
describe('webhook deliveries whose workflow the API could not start', () => {
  let testApp: TestApp;
  let workerClient: Client;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;
  let endpointId: string;

  beforeAll(async () => {
    testApp = await startTestApp({
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_HANDOFF_MS: '2000',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    });
    workerClient = await connectClient(testApp.config.temporal, testApp.config.encryption!);
    worker = await startTestWorker({ config: testApp.config, db: testApp.db, temporalClient: workerClient });
    account = await testApp.createAccount();
    receiver = await new TestReceiver(SECRET).start();
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({ name: 'receiver', url: receiver.url, secret: SECRET, events: ['prior_authorization.updated'] });
    endpointId = created.body.data.id;
    receiver.endpointIds.add(endpointId);
    await testApp.temporalClient.connection.close();
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await workerClient.connection.close();
    await testApp.close();
  });

  const deliveryStatus = async (deliveryId: string) => {
    const log = await testApp
      .http()
      .get(`/webhooks/${endpointId}/deliveries`)
      .set(bearer(account.keys.provider));
    return (log.body.data.data as Array<{ id: string; status: string }>).find(
      (delivery) => delivery.id === deliveryId,
    )?.status;
  };

  // Each follows its own event and delivery, waiting on the workers' sweeps: side by side.

  it.concurrent('sends a test event anyway, started by a worker, and logs it succeeded', async () => {
    const response = await testApp
      .http()
      .post(`/webhooks/${endpointId}/test`)
      .set(bearer(account.keys.provider));
    expect(response.status).toBeLessThan(300);
    const { event_id: eventId, delivery_id: deliveryId } = response.body.data;

    await eventually(
      async () => receiver.notifications.some((notification) => notification.id === eventId),
      30_000,
    );
    await eventually(async () => (await deliveryStatus(deliveryId)) === 'succeeded');
  });

  it.concurrent('sends a manual retry anyway, started by a worker, and logs it succeeded', async () => {
    const sent = await testApp.http().post(`/webhooks/${endpointId}/test`).set(bearer(account.keys.provider));
    const { event_id: eventId, delivery_id: deliveryId } = sent.body.data;
    await eventually(async () => (await deliveryStatus(deliveryId)) === 'succeeded', 30_000);

    const retried = await testApp
      .http()
      .post(`/webhooks/${endpointId}/deliveries/${deliveryId}/retry`)
      .set(bearer(account.keys.provider));
    expect(retried.status).toBe(202);
    await eventually(
      async () =>
        receiver.requests.filter((request) => request.headers['x-webhook-id'] === eventId).length === 2,
      30_000,
    );
    await eventually(async () => (await deliveryStatus(retried.body.data.id)) === 'succeeded');
  });
});
