import { JsonObject, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';

describe('Idempotency-Key on every POST', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let keyCount = 0;
  const newKey = () => `retry-${Date.now()}-${keyCount++}`;

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const post = (path: string, key: string, body: object, idempotencyKey?: string) => {
    const request = testApp.http().post(path).set(bearer(key));
    if (idempotencyKey) request.set('Idempotency-Key', idempotencyKey);
    return request.send(body);
  };
  const get = async (id: string) =>
    (await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))).body.data as JsonObject;
  const awaitingReview = async (body: object = priorAuthorizationRequest()) => {
    const created = await post(PATH, account.keys.provider, body);
    expect(created.status).toBe(201);
    return waitForStatus(testApp, account.keys.provider, PATH, created.body.data.id, 'awaiting_review');
  };
  const approval = { decision: 'approve', reviewer: 'Dr. Reviewer' };
  const review = (id: string, idempotencyKey?: string, body: object = approval) =>
    post(`${PATH}/${id}/review`, account.keys.reviewer, body, idempotencyKey);
  const statuses = (record: JsonObject) => record.status_history.map((change: JsonObject) => change.status);
  /** As if the process stopped after acting and before keeping the answer: the key holds no answer and no lock. */
  const forgetAnswer = (idempotencyKey: string) =>
    testApp.db.query(
      `UPDATE idempotency_keys SET answer_status = NULL, answer_sealed = NULL, locked_until = NULL
       WHERE idempotency_key = $1`,
      [idempotencyKey],
    );

  describe('on a review decision', () => {
    it('replays the first answer to the same key and body, and the case moves once', async () => {
      const { id } = await awaitingReview();
      const key = newKey();
      const first = await review(id, key);
      const again = await review(id, key);

      expect(first.status).toBe(200);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(statuses(await get(id)).filter((status: string) => status === 'awaiting_outcome')).toHaveLength(
        1,
      );
    });

    it('answers 409 idempotency_conflict to the same key with another body', async () => {
      const { id } = await awaitingReview();
      const key = newKey();
      await review(id, key).expect(200);

      const other = await review(id, key, { decision: 'reject', reviewer: 'Dr. Reviewer' });
      expect(other.status).toBe(409);
      expect(other.body.error.code).toBe('idempotency_conflict');
    });

    it('answers 409 idempotency_conflict to the same key on another route', async () => {
      const first = await awaitingReview();
      const second = await awaitingReview();
      const key = newKey();
      await review(first.id, key).expect(200);

      const elsewhere = await review(second.id, key);
      expect(elsewhere.status).toBe(409);
      expect(elsewhere.body.error.code).toBe('idempotency_conflict');
      expect((await get(second.id)).status).toBe('awaiting_review');
    });

    it('still refuses a second review without a key, as before', async () => {
      const { id } = await awaitingReview();
      await review(id).expect(200);

      const again = await review(id);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('invalid_state');
    });

    it('frees the key of a request refused as invalid, so a corrected body may use it', async () => {
      const { id } = await awaitingReview();
      const key = newKey();
      await review(id, key, { decision: 'maybe', reviewer: 'Dr. Reviewer' }).expect(400);

      const corrected = await review(id, key);
      expect(corrected.status).toBe(200);
      expect(corrected.body.data.status).toBe('awaiting_outcome');
    });

    it('does not act twice when the first answer was lost in a crash: the retry gets the same decision', async () => {
      const { id } = await awaitingReview();
      const key = newKey();
      const first = await review(id, key).expect(200);
      await forgetAnswer(key);

      const resumed = await review(id, key);
      expect(resumed.status).toBe(200);
      expect(resumed.body.data.review).toEqual(first.body.data.review);
      expect(statuses(await get(id)).filter((status: string) => status === 'awaiting_outcome')).toHaveLength(
        1,
      );
    });

    it('tells a retry arriving while the first request is in flight to come back after Retry-After', async () => {
      const { id } = await awaitingReview();
      const key = newKey();
      await review(id, key).expect(200);
      await testApp.db.query(
        `UPDATE idempotency_keys SET answer_status = NULL, answer_sealed = NULL,
           locked_until = now() + interval '30 seconds' WHERE idempotency_key = $1`,
        [key],
      );

      const meanwhile = await review(id, key);
      expect(meanwhile.status).toBe(409);
      expect(meanwhile.body.error).toMatchObject({
        code: 'idempotency_conflict',
        message: expect.stringContaining('still being processed'),
      });
      expect(Number(meanwhile.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('on /information', () => {
    it('still checks the answers when a retry resumes a first attempt that failed before sending them', async () => {
      const { id } = await awaitingReview(priorAuthorizationRequest({ mock_result: { result: 'other' } }));
      await review(id).expect(200);
      await eventually(async () => (await get(id)).pending_request ?? undefined);
      const body = { answers: [{ question_id: 'no-such-question', answer: 'A1c 8.4 %.' }] };
      const key = newKey();
      // What a first attempt leaves when it failed with a 5xx before reaching the case: a bound key, no answer.
      await testApp.db.query(
        `INSERT INTO idempotency_keys (account_id, livemode, idempotency_key, endpoint, request_sha256, resource_id)
         VALUES ($1, false, $2, $3, encode(sha256(convert_to($4, 'UTF8')), 'hex'), $5)`,
        [account.accountId, key, `POST ${PATH}/${id}/information`, JSON.stringify(body), `bound-${key}`],
      );

      const resumed = await post(`${PATH}/${id}/information`, account.keys.provider, body, key);
      expect(resumed.status).toBe(400);
      expect(JSON.stringify(resumed.body.error)).toContain('question');
      expect((await get(id)).pending_request).toBeTruthy();
    });

    it('takes the answers once for the same key and body, replaying the first answer', async () => {
      const { id } = await awaitingReview(priorAuthorizationRequest({ mock_result: { result: 'other' } }));
      await review(id).expect(200);
      const pending = await eventually(async () => {
        const record = await get(id);
        return record.pending_request ? record : undefined;
      });
      const body = {
        answers: [{ question_id: pending.pending_request.questions[0].id, answer: 'A1c 8.4 %.' }],
        documents: [{ title: 'Lab results', date_created: '2026-10-20T09:00:00', content: { a1c: 8.4 } }],
      };
      const key = newKey();
      const first = await post(`${PATH}/${id}/information`, account.keys.provider, body, key);
      const again = await post(`${PATH}/${id}/information`, account.keys.provider, body, key);

      expect(first.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const titles = (await get(id)).request.evidence.map((item: JsonObject) => item.title);
      expect(titles.filter((title: string) => title === 'Lab results')).toHaveLength(
        first.body.data.request.evidence.filter((item: JsonObject) => item.title === 'Lab results').length,
      );
      const other = await post(
        `${PATH}/${id}/information`,
        account.keys.provider,
        { answers: [{ question_id: body.answers[0]!.question_id, answer: 'Something else.' }] },
        key,
      );
      expect(other.status).toBe(409);
      expect(other.body.error.code).toBe('idempotency_conflict');
    });
  });

  describe('on cancel', () => {
    const cancel = (id: string, idempotencyKey?: string, reason = 'Prescription changed.') =>
      post(`${PATH}/${id}/cancel`, account.keys.provider, { reason }, idempotencyKey);

    it('replays the cancellation to the same key and body, where a second cancel without one is 409', async () => {
      const { id } = await awaitingReview();
      const key = newKey();
      const first = await cancel(id, key);
      const again = await cancel(id, key);

      expect(first.status).toBe(200);
      expect(first.body.data.status).toBe('cancelled');
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(statuses(await get(id)).filter((status: string) => status === 'cancelled')).toHaveLength(1);
      expect((await cancel(id, key, 'Another reason.')).body.error.code).toBe('idempotency_conflict');
      expect((await cancel(id)).body.error.code).toBe('invalid_state');
    });

    it('answers a cancellation whose first answer was lost in a crash with that cancellation', async () => {
      const { id } = await awaitingReview();
      const key = newKey();
      const first = await cancel(id, key).expect(200);
      await forgetAnswer(key);

      const resumed = await cancel(id, key);
      expect(resumed.status).toBe(200);
      expect(resumed.body.data).toEqual(first.body.data);
    });
  });

  describe('on webhook endpoints', () => {
    const endpoint = (url: string) => ({
      name: `retried ${url}`,
      url,
      secret: 'whsec_idempotent_0000001',
      events: ['prior_authorization.updated'],
    });
    const endpointsNamed = async (name: string) => {
      const listed = await testApp.http().get('/webhooks').set(bearer(account.keys.provider));
      return listed.body.data.data.filter((item: JsonObject) => item.name === name);
    };

    it('creates one endpoint for the same key and body, and refuses another body with 409', async () => {
      const body = endpoint('http://127.0.0.1:9/one');
      const key = newKey();
      const first = await post('/webhooks', account.keys.provider, body, key);
      const again = await post('/webhooks', account.keys.provider, body, key);

      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.data.id).toBe(first.body.data.id);
      expect(await endpointsNamed(body.name)).toHaveLength(1);
      const other = await post('/webhooks', account.keys.provider, endpoint('http://127.0.0.1:9/two'), key);
      expect(other.status).toBe(409);
      expect(other.body.error.code).toBe('idempotency_conflict');
    });

    it('never replays one account’s or one mode’s answer to another sending the same key and body', async () => {
      const body = endpoint('http://127.0.0.1:9/scoped');
      const key = newKey();
      const other = await testApp.createAccount('Another clinic');
      const liveKeys = await testApp.createLiveKeys(account.accountId);
      const answers = [
        await post('/webhooks', account.keys.provider, body, key),
        await post('/webhooks', other.keys.provider, body, key),
        await post('/webhooks', liveKeys.provider, body, key),
      ];

      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
      expect(answers.map((answer) => answer.headers['idempotent-replayed'])).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(3);
      expect(answers.map((answer) => answer.body.data.livemode)).toEqual([false, false, true]);
    });

    it('creates an endpoint per request without a key, as before', async () => {
      const body = endpoint('http://127.0.0.1:9/keyless');
      await post('/webhooks', account.keys.provider, body).expect(201);
      await post('/webhooks', account.keys.provider, body).expect(201);

      expect(await endpointsNamed(body.name)).toHaveLength(2);
    });

    it('sends one test notification for the same key, and tells a lost first answer from a new request', async () => {
      const receiver = await new TestReceiver('whsec_idempotent_0000001').start();
      try {
        const created = await post('/webhooks', account.keys.provider, endpoint(receiver.url)).expect(201);
        const { id } = created.body.data;
        receiver.endpointIds.add(id);
        const key = newKey();
        const first = await post(`/webhooks/${id}/test`, account.keys.provider, {}, key);
        const again = await post(`/webhooks/${id}/test`, account.keys.provider, {}, key);

        expect(first.status).toBe(202);
        expect(again.status).toBe(202);
        expect(again.body).toEqual(first.body);
        const deliveries = await testApp
          .http()
          .get(`/webhooks/${id}/deliveries`)
          .set(bearer(account.keys.provider));
        expect(deliveries.body.data.data.map((delivery: JsonObject) => delivery.id)).toEqual([
          first.body.data.delivery_id,
        ]);
        await forgetAnswer(key);
        const lost = await post(`/webhooks/${id}/test`, account.keys.provider, {}, key);
        expect(lost.status).toBe(409);
        expect(lost.body.error.message).toContain('may have acted');
      } finally {
        await receiver.stop();
      }
    });
  });

  describe('on API keys', () => {
    const create = (label: string, idempotencyKey?: string, roles = ['provider']) =>
      post('/api-keys', account.keys.admin, { label, roles }, idempotencyKey);
    const keysLabelled = async (label: string) => {
      const listed = await testApp.http().get('/api-keys').set(bearer(account.keys.admin));
      return listed.body.data.data.filter((item: JsonObject) => item.label === label);
    };

    it('creates one key for the same key and body and replays its secret, kept sealed', async () => {
      const label = `retried ${newKey()}`;
      const key = newKey();
      const first = await create(label, key);
      const again = await create(label, key);

      expect(first.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.data).toEqual(first.body.data);
      expect(await keysLabelled(label)).toHaveLength(1);
      const stored = await testApp.db.query<{ answer_sealed: string }>(
        'SELECT answer_sealed FROM idempotency_keys WHERE idempotency_key = $1',
        [key],
      );
      expect(stored[0]!.answer_sealed).not.toContain(first.body.data.secret);
      expect((await create(label, key, ['reviewer'])).body.error.code).toBe('idempotency_conflict');
    });
  });
});
