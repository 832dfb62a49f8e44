import { newId } from '../../domain/ids';
import { describeEvent } from '../../domain/webhooks/event-types';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { EventsRepository } from '../../infrastructure/webhooks/events.repository';
import { WebhookDeliveriesRepository } from '../../infrastructure/webhooks/webhook-deliveries.repository';
import { ExpiredEventsSweeper } from '../../src/worker/sweepers/expired-events';
import { bearer, startTestApp, TestAccount, TestApp, TEST_DATABASE } from '../support/test-app';

const count = async (testApp: TestApp, sql: string, eventId: string) =>
  (await testApp.db.query<{ count: number }>(sql, [eventId]))[0]!.count;

describe('events past 30 days', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let endpointId: string;
  let deliveries: WebhookDeliveriesRepository;

  beforeAll(async () => {
    testApp = await startTestApp(TEST_DATABASE);
    account = await testApp.createAccount();
    deliveries = testApp.app.get(WebhookDeliveriesRepository);
    endpointId = (
      await testApp
        .http()
        .post('/webhooks')
        .set(bearer(account.keys.provider))
        .send({
          name: 'expiry',
          url: 'http://127.0.0.1:9/hooks',
          secret: 'whsec_event_expiry_0001',
          events: ['prior_authorization.updated'],
        })
    ).body.data.id;
  });
  afterAll(() => testApp.close());

  const sweeper = (batchSize?: number) =>
    new ExpiredEventsSweeper(
      new EventsRepository(testApp.db, new SecretBox(testApp.config.encryption!)),
      batchSize,
    );

  /** An event delivered to the endpoint, with an attempt and a manual retry of its delivery. */
  async function deliveredEvent(): Promise<string> {
    const eventId = newId('event');
    const { pendingDeliveryIds } = await deliveries.recordEvent(
      {
        id: eventId,
        type: 'prior_authorization.updated',
        ...describeEvent('prior_authorization.updated'),
        created_at: new Date().toISOString(),
        data: { id: 'pa_expiring', object: 'prior_authorization', status: 'processing', livemode: false },
      },
      { accountId: account.accountId, livemode: false },
      { onlyEndpointId: endpointId, firstAttemptMs: 60_000 },
    );
    const [deliveryId] = pendingDeliveryIds;
    await deliveries.recordAttempt(deliveryId!, {
      attempt: 1,
      started_at: new Date().toISOString(),
      duration_ms: 3,
      http_status: 500,
      error: 'answered HTTP 500',
      next_attempt_at: null,
    });
    await deliveries.createRetry(deliveryId!, account.accountId, 60_000);
    return eventId;
  }

  /** As if the event had happened `days` ago. */
  const backdate = (eventId: string, days: number) =>
    testApp.db.query(
      `UPDATE webhook_events SET created_at = now() - $2::int * interval '1 day' WHERE id = $1`,
      [eventId, days],
    );

  const rowsOf = async (eventId: string) => ({
    events: await count(testApp, 'SELECT count(*)::int AS count FROM webhook_events WHERE id = $1', eventId),
    deliveries: await count(
      testApp,
      'SELECT count(*)::int AS count FROM webhook_deliveries WHERE event_id = $1',
      eventId,
    ),
    attempts: await count(
      testApp,
      `SELECT count(*)::int AS count FROM webhook_delivery_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1`,
      eventId,
    ),
  });

  it('are deleted by the sweep with their deliveries, retries and attempts', async () => {
    const expired = await deliveredEvent();
    await backdate(expired, 31);
    expect(await rowsOf(expired)).toEqual({ events: 1, deliveries: 2, attempts: 1 });

    await sweeper().sweep();
    expect(await rowsOf(expired)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
  });

  it('are kept until they are 30 days old', async () => {
    const kept = await deliveredEvent();
    await backdate(kept, 29);

    await sweeper().sweep();
    expect(await rowsOf(kept)).toEqual({ events: 1, deliveries: 2, attempts: 1 });
  });

  it('are all deleted in one pass, batch after batch, however many there are', async () => {
    // A shared database may hold expired events of other suites: they go first.
    await sweeper().sweep();
    const expired = [];
    for (let i = 0; i < 5; i++) expired.push(await deliveredEvent());
    for (const eventId of expired) await backdate(eventId, 40);

    expect(await sweeper(2).sweep()).toBe(5);
    for (const eventId of expired) expect((await rowsOf(eventId)).events).toBe(0);
  });
});
