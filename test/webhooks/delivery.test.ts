import { createHash, randomUUID } from 'node:crypto';

import { WorkflowNotFoundError } from '@temporalio/client';
import jwt from 'jsonwebtoken';

import { newId } from '../../domain/ids';
import { CaseEventType, describeEvent } from '../../domain/webhooks/event-types';
import { verifyWebhook } from '../../clients/typescript/src';
import { WebhookDeliveriesRepository } from '../../infrastructure/webhooks/webhook-deliveries.repository';
import { decryptedHistoryText } from '../support/history';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { createActiveEndpoint, PublishEvent, publishEventActivity } from '../support/webhook-endpoints';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const SECRET = 'whsec_delivery_tests_0001';
const TIMEOUT_MS = 1_000;

describe('webhook delivery to real receivers', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let publishEvent: PublishEvent;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    testApp = await startTestApp({
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
      WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '2',
      WEBHOOK_RETRY_MAX_INTERVAL_MS: '400',
      WEBHOOK_RETRY_EXPIRE_AFTER_MS: '60000',
    });
    worker = await testApp.startWorker();
    publishEvent = publishEventActivity(testApp);
  });
  // Each test its own account, so endpoints made by earlier tests receive nothing of its events.
  beforeEach(async () => {
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await worker.stop();
    await testApp.close();
  });

  async function receiver(secret = SECRET): Promise<TestReceiver> {
    const started = await new TestReceiver(secret).start();
    receivers.push(started);
    return started;
  }

  async function activeEndpoint(
    url: string,
    options: { events?: string[]; key?: string; secret?: string } = {},
  ): Promise<string> {
    return createActiveEndpoint(
      testApp,
      options.key ?? account.keys.provider,
      {
        name: 'receiver',
        url,
        secret: options.secret ?? SECRET,
        events: options.events ?? ['prior_authorization.updated'],
      },
      receivers.find((candidate) => candidate.url === url),
    );
  }

  /** A case event as a case workflow publishes it. */
  function publishCaseEvent(
    type: CaseEventType = 'prior_authorization.updated',
    accountId = account.accountId,
  ) {
    const eventId = newId('event');
    const data = {
      id: `pa_${randomUUID()}`,
      object: 'prior_authorization',
      status: 'awaiting_review',
      patient: { last_name: 'Vandermolen' },
    };
    return publishEvent({ eventId, accountId, type, data, createdAt: new Date().toISOString() }).then(
      (deliveryIds) => ({ eventId, data, deliveryIds }),
    );
  }

  /**
   * An event recorded for a first attempt that never happens, as a process killed right after
   * recording it leaves it: it is up to the sweeper.
   */
  async function recordOrphanedEvent() {
    const eventId = newId('event');
    const { pendingDeliveryIds } = await testApp.app.get(WebhookDeliveriesRepository).recordEvent(
      {
        id: eventId,
        type: 'prior_authorization.updated',
        ...describeEvent('prior_authorization.updated'),
        created_at: new Date().toISOString(),
        data: { id: 'pa_orphan', object: 'prior_authorization', status: 'processing', livemode: false },
      },
      { accountId: account.accountId, livemode: false },
      { firstAttemptMs: 1 },
    );
    return { eventId, deliveryId: pendingDeliveryIds[0]! };
  }

  async function deliveryLog(endpointId: string) {
    return (await testApp.http().get(`/webhooks/${endpointId}/deliveries`).set(bearer(account.keys.provider)))
      .body.data;
  }

  it('delivers a notification whose signature, expiry and body digest a receiver verifies', async () => {
    const target = await receiver();
    await activeEndpoint(target.url);
    const { eventId, data } = await publishCaseEvent();

    const [notification] = await eventually(async () =>
      target.notifications.length ? target.notifications : undefined,
    );
    expect(notification).toEqual({
      id: eventId,
      type: 'prior_authorization.updated',
      title: 'Prior Authorization Updated',
      description: 'A prior authorization has been updated.',
      created_at: expect.any(String),
      data,
    });
    const [request] = target.requests;
    expect(request!.verified).toBe(true);
    expect(request!.headers['x-webhook-id']).toBe(eventId);
    expect(request!.headers['content-type']).toBe('application/json');
    const claims = jwt.verify(request!.headers['x-webhook-secret'] as string, SECRET, {
      algorithms: ['HS256'],
    }) as jwt.JwtPayload;
    expect(claims).toMatchObject({
      iss: 'healthcare-access-api',
      event_id: eventId,
      event_type: 'prior_authorization.updated',
      body_sha256: createHash('sha256').update(request!.rawBody).digest('hex'),
      jti: expect.any(String),
    });
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(jwt.decode(request!.headers['x-webhook-secret'] as string, { complete: true })!.header).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
  });

  it('fails verification for a tampered body, a wrong secret or an expired token', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    await publishCaseEvent();
    const request = await eventually(async () => target.requests[0]);

    const tampered = Buffer.from(request.rawBody.toString().replace('Vandermolen', 'Someone Else'));
    expect(verifyWebhook({ endpointId, secret: SECRET }, request.headers, tampered)).toEqual({
      ok: false,
      reason: 'body does not match body_sha256',
    });
    expect(
      verifyWebhook({ endpointId, secret: 'another-secret-entirely' }, request.headers, request.rawBody),
    ).toEqual({ ok: false, reason: 'bad signature' });

    const claims = jwt.decode(request.headers['x-webhook-secret'] as string) as jwt.JwtPayload;
    const expired = jwt.sign({ ...claims, iat: claims.iat! - 600, exp: claims.iat! - 300 }, SECRET, {
      algorithm: 'HS256',
    });
    const expiredResult = verifyWebhook(
      { endpointId, secret: SECRET },
      { ...request.headers, 'x-webhook-secret': expired },
      request.rawBody,
    );
    expect(expiredResult).toEqual({ ok: false, reason: 'token expired' });
  });

  it('names the endpoint in the token, so a receiver for another endpoint sharing the secret refuses it', async () => {
    const target = await receiver();
    const endpointA = await activeEndpoint(target.url);
    const endpointB = await activeEndpoint(target.url, { events: ['benefit_verification.updated'] });
    await publishCaseEvent();
    const request = await eventually(async () => target.requests[0]);

    expect(jwt.decode(request.headers['x-webhook-secret'] as string)).toMatchObject({ aud: endpointA });
    expect(
      verifyWebhook({ endpointId: endpointA, secret: SECRET }, request.headers, request.rawBody).ok,
    ).toBe(true);
    expect(
      verifyWebhook({ endpointId: endpointB, secret: SECRET }, request.headers, request.rawBody),
    ).toEqual({
      ok: false,
      reason: 'token issued for another endpoint',
    });
  });

  it('keeps retrying a failing receiver until it recovers, losing nothing, each retry with the same X-Webhook-Id', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    target.script.push(500, 503, 500);
    const events = [await publishCaseEvent(), await publishCaseEvent(), await publishCaseEvent()];

    await eventually(async () => target.notifications.length === 3);
    expect(target.notifications.map((notification) => notification.id).sort()).toEqual(
      events.map((event) => event.eventId).sort(),
    );
    for (const { eventId } of events) {
      const attempts = target.requests.filter((request) => request.headers['x-webhook-id'] === eventId);
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(attempts.every((attempt) => attempt.verified)).toBe(true);
    }
    expect(target.requests.length).toBe(6);

    const log = await deliveryLog(endpointId);
    expect(log.data.every((delivery: { status: string }) => delivery.status === 'succeeded')).toBe(true);
    const failedAttempts = log.data.flatMap((delivery: { attempts: Array<{ http_status: number }> }) =>
      delivery.attempts.filter((attempt) => attempt.http_status >= 500),
    );
    expect(failedAttempts).toHaveLength(3);
  });

  it('records every attempt in the delivery log: time, status, duration, error and next attempt', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    target.script.push(502);
    const { eventId } = await publishCaseEvent();
    await eventually(async () => target.notifications.length === 1);

    const [delivery] = await eventually(async () => {
      const log = await deliveryLog(endpointId);
      return log.data[0]?.status === 'succeeded' ? log.data : undefined;
    });
    expect(delivery).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      event_id: eventId,
      event_type: 'prior_authorization.updated',
    });
    expect(delivery.attempts).toEqual([
      {
        attempt: 1,
        started_at: expect.any(String),
        duration_ms: expect.any(Number),
        http_status: 502,
        error: 'answered HTTP 502',
        next_attempt_at: expect.any(String),
      },
      expect.objectContaining({ attempt: 2, http_status: 200, error: null, next_attempt_at: null }),
    ]);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    target.script.push(302);
    await publishCaseEvent();
    await eventually(async () => target.notifications.length === 1);
    const [delivery] = (await deliveryLog(endpointId)).data;
    expect(delivery.attempts[0]).toMatchObject({
      http_status: 302,
      error: 'answered HTTP 302 (redirects are not followed)',
    });
  });

  it('treats no answer within the time limit as a failed attempt and retries', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    target.script.push('hang');
    await publishCaseEvent();
    await eventually(async () => target.notifications.length === 1);
    const [delivery] = (await deliveryLog(endpointId)).data;
    expect(delivery.attempts[0]).toMatchObject({
      http_status: null,
      error: `no answer within ${TIMEOUT_MS} ms`,
    });
  });

  it('stops at 410 Gone and deactivates the endpoint', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    target.script.push(410);
    await publishCaseEvent();
    const endpoint = await eventually(async () => {
      const { body } = await testApp.http().get(`/webhooks/${endpointId}`).set(bearer(account.keys.provider));
      return body.data.status === 'inactive' ? body.data : undefined;
    });
    expect(endpoint.status_reason).toBe('the receiver answered 410 Gone');
    const [delivery] = await eventually(async () => {
      const log = await deliveryLog(endpointId);
      return log.data[0]?.status === 'failed' ? log.data : undefined;
    });
    expect(delivery.attempts).toHaveLength(1);
    expect(target.requests).toHaveLength(1);
  });

  it('sends only to active, subscribed endpoints of the event’s account', async () => {
    const subscribed = await receiver();
    const inactive = await receiver();
    const unsubscribed = await receiver();
    const otherAccounts = await receiver();
    const subscribedId = await activeEndpoint(subscribed.url);
    await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'never toggled on',
        url: inactive.url,
        secret: SECRET,
        events: ['prior_authorization.updated'],
      });
    await activeEndpoint(unsubscribed.url, { events: ['benefit_verification.updated'] });
    const other = await testApp.createAccount('Other clinic');
    await activeEndpoint(otherAccounts.url, { key: other.keys.provider });

    const { deliveryIds } = await publishCaseEvent();
    expect(deliveryIds).toHaveLength(1);
    await eventually(async () => subscribed.notifications.length === 1);
    expect((await deliveryLog(subscribedId)).data.map((delivery: { id: string }) => delivery.id)).toEqual(
      deliveryIds,
    );
    expect([inactive, unsubscribed, otherAccounts].map((target) => target.requests.length)).toEqual([
      0, 0, 0,
    ]);
  });

  it('publishes each event once even when the fan-out is repeated', async () => {
    const target = await receiver();
    await activeEndpoint(target.url);
    const event = {
      eventId: newId('event'),
      accountId: account.accountId,
      type: 'prior_authorization.updated' as const,
      data: { id: 'pa_x', object: 'prior_authorization', status: 'processing' },
      createdAt: new Date().toISOString(),
    };
    await publishEvent(event);
    await publishEvent(event);
    await eventually(async () => target.notifications.length === 1);
    const rows = await testApp.db.query('SELECT id FROM webhook_deliveries WHERE event_id = $1', [
      event.eventId,
    ]);
    expect(rows).toHaveLength(1);
    expect(target.requests).toHaveLength(1);
  });

  it('never lets a hanging receiver delay another endpoint', async () => {
    const slow = await receiver();
    const fast = await receiver();
    await activeEndpoint(slow.url);
    await activeEndpoint(fast.url);
    slow.script.push('hang', 'hang');
    const publishedAt = Date.now();
    await publishCaseEvent();
    await eventually(async () => fast.notifications.length === 1);
    expect(fast.requests[0]!.receivedAt - publishedAt).toBeLessThan(TIMEOUT_MS);
    await eventually(async () => slow.notifications.length === 1, 30_000);
  });

  it('signs the next attempt with a rotated secret', async () => {
    const rotated = 'whsec_rotated_secret_0002';
    const target = await receiver(rotated);
    const endpointId = await activeEndpoint(target.url);
    target.script.push('hang');
    await publishCaseEvent();
    await eventually(async () => target.requests.length === 1);
    await testApp
      .http()
      .patch(`/webhooks/${endpointId}`)
      .set(bearer(account.keys.provider))
      .send({ secret: rotated });
    await eventually(async () => target.notifications.length === 1);
    const { rawBody, headers } = target.requests[0]!;
    expect(verifyWebhook({ endpointId, secret: SECRET }, headers, rawBody).ok).toBe(true);
    expect(target.requests[1]!.verified).toBe(true);
  });

  it('sends a delivery again on request, with the same event id', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    const { eventId, deliveryIds } = await publishCaseEvent();
    await eventually(async () => target.notifications.length === 1);

    const retried = await testApp
      .http()
      .post(`/webhooks/${endpointId}/deliveries/${deliveryIds[0]}/retry`)
      .set(bearer(account.keys.provider));
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      retry_of: deliveryIds[0],
      status: 'pending',
    });
    await eventually(async () => target.requests.length === 2);
    expect(target.requests.map((request) => request.headers['x-webhook-id'])).toEqual([eventId, eventId]);
    // The documented receiver deduplicates on X-Webhook-Id, so it processed the event once.
    expect(target.notifications).toHaveLength(1);
  });

  it('sends a webhook.test event on request', async () => {
    const target = await receiver();
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'not yet active',
        url: target.url,
        secret: SECRET,
        events: ['prior_authorization.updated'],
      });
    target.endpointIds.add(created.body.data.id);
    const response = await testApp
      .http()
      .post(`/webhooks/${created.body.data.id}/test`)
      .set(bearer(account.keys.provider));
    expect(response.status).toBe(202);
    const [notification] = await eventually(async () =>
      target.notifications.length ? target.notifications : undefined,
    );
    expect(notification).toMatchObject({
      id: response.body.data.event_id,
      type: 'webhook.test',
      title: 'Webhook Test',
    });
  });

  it('keeps the notification and the secret out of the delivery workflow history, even decrypted', async () => {
    const target = await receiver();
    await activeEndpoint(target.url);
    // A failed first attempt is what hands a delivery to its workflow.
    target.script.push(500);
    const { deliveryIds } = await publishCaseEvent();
    await eventually(async () => target.notifications.length === 1);
    const history = await testApp.temporalClient.workflow.getHandle(deliveryIds[0]!).fetchHistory();
    const readable = await decryptedHistoryText(history, testApp.config.encryption!);
    expect(readable).toContain(deliveryIds[0]);
    expect(readable).not.toContain('Vandermolen');
    expect(readable).not.toContain(SECRET);
  });

  it('returns from publishing while the first attempt still waits for the receiver', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    target.script.push('hang');
    await publishCaseEvent();
    await eventually(async () => target.requests.length === 1);
    const [delivery] = (await deliveryLog(endpointId)).data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: [] });
    await eventually(async () => target.notifications.length === 1);
  });

  it('delivers at the first attempt without starting a delivery workflow', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    const { deliveryIds } = await publishCaseEvent();
    const [delivery] = await eventually(async () => {
      const log = await deliveryLog(endpointId);
      return log.data[0]?.status === 'succeeded' ? log.data : undefined;
    });
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, http_status: 200 })]);
    await expect(testApp.temporalClient.workflow.getHandle(deliveryIds[0]!).describe()).rejects.toThrow(
      WorkflowNotFoundError,
    );
  });

  it('makes the first retry after a failed first attempt when the schedule says, not at once', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    target.script.push(503);
    await publishCaseEvent();
    const [delivery] = await eventually(async () => {
      const log = await deliveryLog(endpointId);
      return log.data[0]?.status === 'succeeded' ? log.data : undefined;
    });
    const [first, second] = delivery.attempts;
    expect(second.attempt).toBe(2);
    // WEBHOOK_RETRY_INITIAL_INTERVAL_MS is 100 in this suite.
    expect(Date.parse(second.started_at) - Date.parse(first.started_at)).toBeGreaterThanOrEqual(100);
  });

  it('delivers an event whose first attempt died with its process, once a worker sweeps it', async () => {
    const target = await receiver();
    const endpointId = await activeEndpoint(target.url);
    const { eventId, deliveryId } = await recordOrphanedEvent();
    await eventually(async () => target.notifications.length === 1, 30_000);
    expect(target.requests.map((request) => request.headers['x-webhook-id'])).toEqual([eventId]);
    const [delivery] = await eventually(async () => {
      const log = await deliveryLog(endpointId);
      return log.data[0]?.status === 'succeeded' ? log.data : undefined;
    });
    expect(delivery.id).toBe(deliveryId);
  });

  it('hands each stalled delivery on once while two workers sweep', async () => {
    const second = await testApp.startWorker();
    try {
      const target = await receiver();
      const endpointId = await activeEndpoint(target.url);
      const eventIds: string[] = [];
      for (let index = 0; index < 10; index += 1) eventIds.push((await recordOrphanedEvent()).eventId);
      await eventually(async () => {
        const log = await deliveryLog(endpointId);
        return (
          log.data.filter((delivery: { status: string }) => delivery.status === 'succeeded').length === 10
        );
      }, 30_000);
      expect(target.requests.map((request) => request.headers['x-webhook-id']).sort()).toEqual(
        eventIds.sort(),
      );
    } finally {
      await second.stop();
    }
  });
});
