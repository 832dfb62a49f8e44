import { temporal } from '@temporalio/proto';

import {
  priorAuthorizationOutcomeSignal,
  reviewDecisionSignal,
} from '../../workflows/prior-authorization.messages';
import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest, insuranceCard, syntheticPatient } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { signalWithTemporalCli } from '../support/temporal-cli';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';

describe('prior authorization', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({
      // The simulated payer answers on its second check; a long interval leaves room for manual outcomes.
      PAYER_POLL_INTERVAL_MS: '300',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const submit = async (body: Record<string, unknown> = priorAuthorizationRequest()) => {
    const response = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const review = (id: string, decision: 'approve' | 'reject', key = account.keys.reviewer) =>
    testApp.http().post(`${PATH}/${id}/review`).set(bearer(key)).send({ decision, reviewer: 'Dr. Reviewer' });
  const get = async (id: string) =>
    (await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))).body.data;

  it('answers 201 with the new case in processing, its documents as references only', async () => {
    const card = insuranceCard();
    const created = await submit(priorAuthorizationRequest({ insurance: [card] }));
    expect(created).toMatchObject({
      id: expect.stringMatching(/^pa_[0-9a-z]{26}$/),
      object: 'prior_authorization',
      status: 'processing',
      status_history: [{ status: 'processing', at: expect.any(String), reason: 'Submitted.' }],
      outcome: null,
      urgency: 'standard',
      due_at: null,
      review_due_at: expect.any(String),
      pending_request: null,
    });
    expect(created.request.insurance).toEqual([
      {
        document_id: expect.stringMatching(/^doc_/),
        name: 'insurance_1',
        type: 'text/plain',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        size_bytes: Buffer.from(card.file_content, 'base64').length,
      },
    ]);
    expect(JSON.stringify(created)).not.toContain(card.file_content);
  });

  it('refuses with 413 a case too large for the workflow engine, writing nothing', async () => {
    const notes = Array.from({ length: 20 }, () => ({
      content: 'x'.repeat(90_000),
      created_at: '2026-10-02T10:00:00Z',
    }));
    const key = `too-large-${Date.now()}`;
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .set('Idempotency-Key', key)
      .send(priorAuthorizationRequest({ visit_notes: notes }));
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
    const claimed = await testApp.db.query('SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1', [
      key,
    ]);
    expect(claimed).toEqual([]);
  });

  it('goes processing → awaiting_review → awaiting_outcome → completed, with one event per status in order', async () => {
    const { id } = await submit();
    const awaitingReview = await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    expect(awaitingReview.plan).toMatchObject({ payer_name: 'Blue Horizon Health', plan_type: 'commercial' });
    expect(awaitingReview.criteria.length).toBeGreaterThan(0);

    const reviewed = await review(id, 'approve');
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.data).toMatchObject({ status: 'awaiting_outcome', review: { decision: 'approve' } });
    expect(reviewed.body.data.submission.payer_reference).toEqual(expect.any(String));

    const completed = await waitForStatus(testApp, account.keys.provider, PATH, id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'approved',
      detail_code: 'approval',
      decided_at: expect.any(String),
    });
    expect(completed.status_history.map((change: JsonObject) => change.status)).toEqual([
      'processing',
      'awaiting_review',
      'awaiting_outcome',
      'completed',
    ]);

    const events = await eventually(async () =>
      eventsFor(receiver, id).length === 4 ? eventsFor(receiver, id) : undefined,
    );
    expect(events.map((event) => [event.data.sequence, event.data.status])).toEqual([
      [1, 'processing'],
      [2, 'awaiting_review'],
      [3, 'awaiting_outcome'],
      [4, 'completed'],
    ]);
    expect(events[3]).toMatchObject({
      type: 'prior_authorization.updated',
      title: 'Prior Authorization Updated',
    });
    expect(events[3]!.data).toMatchObject({
      id,
      object: 'prior_authorization',
      outcome: { result: 'approved' },
    });
  });

  it('fails the case when the reviewer rejects it', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    const rejected = await review(id, 'reject');
    expect(rejected.body.data).toMatchObject({ status: 'failed', failure: { code: 'rejected_at_review' } });
  });

  it('completes with a denial when the payer denies', async () => {
    const { id } = await submit(
      priorAuthorizationRequest({ mock_result: { result: 'denied', detail_code: 'plan_exclusion' } }),
    );
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    await review(id, 'approve');
    const completed = await waitForStatus(testApp, account.keys.provider, PATH, id, 'completed');
    expect(completed.outcome).toMatchObject({ result: 'denied', detail_code: 'plan_exclusion' });
  });

  it('refuses a decision that does not fit the status with 409, changing nothing', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    const before = await get(id);
    const outcome = await testApp
      .http()
      .post(`${PATH}/${id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ result: 'approved' });
    expect(outcome.status).toBe(409);
    expect(outcome.body.error.code).toBe('invalid_state');
    expect(await get(id)).toEqual(before);
  });

  it('answers 409 to a decision for a case whose workflow closed after it was read', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    await testApp.temporalClient.workflow.getHandle(id).terminate('closed by an operator');
    const answer = await review(id, 'approve');
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('invalid_state');
  });

  it('cancels a case that is not final, and refuses to cancel it twice', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    const cancel = () =>
      testApp
        .http()
        .post(`${PATH}/${id}/cancel`)
        .set(bearer(account.keys.provider))
        .send({ reason: 'Duplicate request' });
    const cancelled = await cancel();
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled' });
    expect(cancelled.body.data.status_history.at(-1)).toMatchObject({
      status: 'cancelled',
      reason: 'Duplicate request',
    });
    expect((await cancel()).status).toBe(409);
  });

  it('takes review decisions from reviewers only', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    expect((await review(id, 'approve', account.keys.provider)).status).toBe(403);
  });

  it('takes the same review decision as a Temporal signal, as operators send it', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    await testApp.temporalClient.workflow
      .getHandle(id)
      .signal(reviewDecisionSignal, { decision: 'approve', reviewer: 'Operator on call' });
    const moved = await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_outcome');
    expect(moved.review).toMatchObject({ decision: 'approve', reviewer: 'Operator on call' });
  });

  it('takes a review decision sent with the Temporal CLI through the codec endpoint, as an operator would', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    const operators = await testApp.accounts.createAccount('Platform operators');
    const { secret: operatorKey } = await testApp.accounts.createApiKey({
      accountId: operators.id,
      roles: ['operator'],
      label: 'operator on call',
    });
    const cli = await signalWithTemporalCli(testApp, operatorKey, {
      workflowId: id,
      name: 'reviewDecision',
      input: { decision: 'approve', reviewer: 'CLI operator' },
    });
    expect(cli.stderr).toBe('');
    const moved = await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_outcome');
    expect(moved.review).toMatchObject({ decision: 'approve', reviewer: 'CLI operator' });
    const history = await testApp.temporalClient.workflow.getHandle(id).fetchHistory();
    // The signal went through our codec, so even the reviewer's name is stored encrypted.
    expect(JSON.stringify(history)).not.toContain('CLI operator');
    expect(
      Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1'),
    ).not.toContain('CLI operator');
  });

  it('ignores a signal that does not fit the status, and still takes the one that does', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    const handle = testApp.temporalClient.workflow.getHandle(id);
    await handle.signal(priorAuthorizationOutcomeSignal, { result: 'denied' });
    await handle.signal(reviewDecisionSignal, { decision: 'reject', reviewer: 'Dr. R' });
    const failed = await waitForStatus(testApp, account.keys.provider, PATH, id, 'failed');
    expect(failed.outcome).toBeNull();
    expect(failed.failure.code).toBe('rejected_at_review');
  });

  it("answers 404 for another account's case, on reads and decisions", async () => {
    const { id } = await submit();
    const other = await testApp.createAccount('Other clinic');
    expect((await testApp.http().get(`${PATH}/${id}`).set(bearer(other.keys.provider))).status).toBe(404);
    expect((await review(id, 'approve', other.keys.reviewer)).status).toBe(404);
    expect(
      (await testApp.http().get(`${PATH}/pa_doesnotexist`).set(bearer(account.keys.provider))).status,
    ).toBe(404);
  });

  it('replays the first response for a repeated Idempotency-Key and refuses the key with another body', async () => {
    const body = priorAuthorizationRequest();
    const key = `idem-${Date.now()}`;
    const first = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .set('Idempotency-Key', key)
      .send(body);
    const again = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .set('Idempotency-Key', key)
      .send(body);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .set('Idempotency-Key', key)
      .send(priorAuthorizationRequest());
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
  });

  it('lists the caller’s cases newest first, filtered by status and patient, page by page', async () => {
    const lister = await testApp.createAccount('Listing clinic');
    const patient = syntheticPatient();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await testApp
        .http()
        .post(PATH)
        .set(bearer(lister.keys.provider))
        .send(priorAuthorizationRequest({ patient }));
      ids.push(response.body.data.id);
    }
    await submitAs(lister.keys.provider);
    const list = (query: string) => testApp.http().get(`${PATH}?${query}`).set(bearer(lister.keys.provider));

    const byPatient = await eventually(async () => {
      const { body } = await list(`patient_internal_id=${patient.internal_id}`);
      return body.data.data.length === 3 ? body.data : undefined;
    });
    expect(byPatient.data.map((item: JsonObject) => item.id)).toEqual([...ids].reverse());

    const firstPage = (await list(`patient_internal_id=${patient.internal_id}&limit=2`)).body.data;
    expect(firstPage).toMatchObject({ object: 'list', has_more: true, next_cursor: expect.any(String) });
    const secondPage = (
      await list(`patient_internal_id=${patient.internal_id}&limit=2&cursor=${firstPage.next_cursor}`)
    ).body.data;
    expect([...firstPage.data, ...secondPage.data].map((item: JsonObject) => item.id)).toEqual(
      [...ids].reverse(),
    );
    const foreign = await testApp
      .http()
      .get(`${PATH}?patient_internal_id=${patient.internal_id}&limit=2&cursor=${firstPage.next_cursor}`)
      .set(bearer(account.keys.provider));
    expect(foreign.body.data).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });

    await eventually(async () => {
      const { body } = await list('status=awaiting_review');
      return body.data.data.length === 4;
    });
    const future = (await list(`created_after=${new Date(Date.now() + 60_000).toISOString()}`)).body.data;
    expect(future.data).toEqual([]);
    expect(
      (await testApp.http().get(PATH).set(bearer(account.keys.provider))).body.data.data.map(
        (item: JsonObject) => item.id,
      ),
    ).not.toContain(ids[0]);
  });

  it('refuses a cursor of another shape than the document states with 400 on cursor', async () => {
    const response = await testApp
      .http()
      .get(`${PATH}?cursor=not-a-real-cursor`)
      .set(bearer(account.keys.provider));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: 'cursor', issue: expect.any(String) }]);
  });

  async function submitAs(key: string) {
    return testApp.http().post(PATH).set(bearer(key)).send(priorAuthorizationRequest());
  }
});

describe('prior authorization timers', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp({
      CASE_REVIEW_REMINDER_MS: '1000',
      CASE_REVIEW_EXPIRY_MS: '5000',
      PA_STANDARD_DUE_MS: '3000',
      PAYER_POLL_INTERVAL_MS: '60000',
    });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const submit = async () =>
    (await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(priorAuthorizationRequest()))
      .body.data as JsonObject;

  // Each waits on the timers of a case of its own: side by side.

  it.concurrent(
    'records a reminder, then fails the case when nobody reviews it before the deadline',
    async () => {
      const { id } = await submit();
      const failed = await waitForStatus(testApp, account.keys.provider, PATH, id, 'failed');
      expect(failed.failure).toEqual({ code: 'review_expired', message: expect.any(String) });
      expect(failed.review_reminder_at).toEqual(expect.any(String));
    },
  );

  it.concurrent(
    'flags the case overdue when the due time passes while awaiting the outcome, and takes an outcome from a reviewer',
    async () => {
      const { id } = await submit();
      await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
      await testApp
        .http()
        .post(`${PATH}/${id}/review`)
        .set(bearer(account.keys.reviewer))
        .send({ decision: 'approve', reviewer: 'Dr. R' });
      await eventually(async () => {
        const { body } = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
        return body.data.overdue === true;
      });
      const decided = await testApp
        .http()
        .post(`${PATH}/${id}/outcome`)
        .set(bearer(account.keys.reviewer))
        .send({
          result: 'approved',
          detail_code: 'approval',
          payer_reference: 'PAYER-REF-1',
          authorization_expiration: '2027-11-21',
        });
      expect(decided.status).toBe(200);
      expect(decided.body.data).toMatchObject({
        status: 'completed',
        overdue: true,
        outcome: {
          result: 'approved',
          payer_reference: 'PAYER-REF-1',
          authorization_expiration: '2027-11-21',
        },
      });
    },
  );
});
