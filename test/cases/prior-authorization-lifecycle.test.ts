import { JsonObject, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A case's journey helpers against one app and account. */
function journeys(app: () => TestApp, account: () => TestAccount) {
  const submit = async (body: Record<string, unknown>) => {
    const response = await app().http().post(PATH).set(bearer(account().keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const waitFor = (id: string, status: string) =>
    waitForStatus(app(), account().keys.provider, PATH, id, status);
  /** Submits, approves at review, and answers with the case as the review left it. */
  const submitted = async (body: Record<string, unknown>) => {
    const { id } = await submit(body);
    await waitFor(id, 'awaiting_review');
    const reviewed = await app()
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(account().keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
    expect(reviewed.status).toBe(200);
    return reviewed.body.data as JsonObject;
  };
  const post = (id: string, action: 'information' | 'outcome', body: object) =>
    app()
      .http()
      .post(`${PATH}/${id}/${action}`)
      .set(bearer(action === 'information' ? account().keys.provider : account().keys.reviewer))
      .send(body);
  const get = async (id: string) =>
    (await app().http().get(`${PATH}/${id}`).set(bearer(account().keys.provider))).body.data as JsonObject;
  return { submit, waitFor, submitted, post, get };
}

describe('prior authorization answers from the payer', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  const { submit, waitFor, submitted, post } = journeys(
    () => testApp,
    () => account,
  );

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  it('has no payer deadline before the payer receives the request, only the review target', async () => {
    const standard = await submit(priorAuthorizationRequest());
    expect(standard.due_at).toBeNull();
    expect(Date.parse(standard.review_due_at) - Date.parse(standard.created_at)).toBe(24 * HOUR);
    const expedited = await submit(priorAuthorizationRequest({ urgency: 'expedited' }));
    expect(Date.parse(expedited.review_due_at) - Date.parse(expedited.created_at)).toBe(4 * HOUR);
  });

  it.each([
    ['a commercial plan, the configured default', 'commercial', 'standard', 15 * DAY],
    ['a commercial plan, expedited', 'commercial', 'expedited', 72 * HOUR],
    ['Medicare Advantage, under Part D', 'medicare_advantage', 'standard', 72 * HOUR],
    ['Medicare Advantage, expedited under Part D', 'medicare_advantage', 'expedited', 24 * HOUR],
  ])('sets due_at when the payer receives the request: %s', async (_rule, planType, urgency, withinMs) => {
    const awaiting = await submitted(
      priorAuthorizationRequest({
        urgency,
        insurance_content: { payer: 'Blue Horizon Health', member_id: 'ZZBHH123456789', plan_type: planType },
      }),
    );
    expect(awaiting.status).toBe('awaiting_outcome');
    expect(awaiting.plan.plan_type).toBe(planType);
    expect(Date.parse(awaiting.due_at) - Date.parse(awaiting.submission.submitted_at)).toBe(withinMs);
  });

  it('gives a Medicaid request 24 hours, as covered outpatient drugs require', async () => {
    const awaiting = await submitted(
      priorAuthorizationRequest({
        insurance_content: { payer: 'Keystone CarePlan', member_id: 'ZZKCP123456789', plan_type: 'medicaid' },
      }),
    );
    expect(Date.parse(awaiting.due_at) - Date.parse(awaiting.submission.submitted_at)).toBe(24 * HOUR);
  });

  it('completes an approval with its authorization number, quantity and the drug class’s period', async () => {
    const { id } = await submitted(priorAuthorizationRequest({ mock_result: { result: 'approved' } }));
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'approved',
      detail_code: 'approval',
      authorization_number: expect.stringMatching(/^AUTH-/),
      approved_quantity: 1,
      payer_reference: completed.submission.payer_reference,
    });
    const { authorization_start_date: start, authorization_expiration: end } = completed.outcome;
    // Ozempic for type 2 diabetes is maintenance therapy: 12 months.
    expect((Date.parse(end) - Date.parse(start)) / DAY).toBe(365);
    expect(completed.pending_request).toBeNull();
  });

  it('approves a weight-management GLP-1 for 6 months first', async () => {
    const { id } = await submitted(
      priorAuthorizationRequest({
        prescription: { drug_name: 'Wegovy 2.4 mg pen', quantity: 4 },
        diagnoses: [{ code: 'E66.01' }],
        mock_result: { result: 'approved' },
      }),
    );
    const { outcome } = await waitFor(id, 'completed');
    expect(
      (Date.parse(outcome.authorization_expiration) - Date.parse(outcome.authorization_start_date)) / DAY,
    ).toBe(180);
  });

  it('completes a partial approval with a quantity below the requested one', async () => {
    const { id } = await submitted(
      priorAuthorizationRequest({
        prescription: { drug_name: 'Ozempic 1 mg pen', quantity: 4 },
        mock_result: { result: 'partially_approved' },
      }),
    );
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'partially_approved',
      detail_code: 'partial_approval',
      approved_quantity: 2,
      authorization_number: expect.stringMatching(/^AUTH-/),
    });
  });

  it('completes a denial without an authorization', async () => {
    const { id } = await submitted(
      priorAuthorizationRequest({
        mock_result: { result: 'denied', detail_code: 'step_therapy_criteria_not_met' },
      }),
    );
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'denied',
      detail_code: 'step_therapy_criteria_not_met',
      authorization_number: null,
      approved_quantity: null,
      authorization_expiration: null,
    });
  });

  it('completes with other when the payer determined something else', async () => {
    const { id } = await submitted(
      priorAuthorizationRequest({
        mock_result: { result: 'other', detail_code: 'formulary_alternative_preferred' },
      }),
    );
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'other',
      detail_code: 'formulary_alternative_preferred',
    });
  });

  it('fails with not_submitted and the payer’s reason when the payer does not accept the request', async () => {
    const { id } = await submit(
      priorAuthorizationRequest({
        mock_result: { result: 'not_submitted', detail_code: 'member_not_found' },
      }),
    );
    await waitFor(id, 'awaiting_review');
    await post(id, 'information', { answers: [{ question_id: 'x', answer: 'y' }] }).expect(409);
    const reviewed = await testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
    expect(reviewed.body.data).toMatchObject({
      status: 'failed',
      outcome: { result: 'not_submitted', detail_code: 'member_not_found' },
      failure: { code: 'not_submitted', message: expect.any(String) },
    });
  });

  it('shows the payer’s information request, takes the answers at /information, and completes once the payer decides', async () => {
    const { id } = await submitted(priorAuthorizationRequest({ mock_result: { result: 'other' } }));
    const pending = await eventually(async () => {
      const { body } = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
      return body.data.pending_request ? (body.data as JsonObject) : undefined;
    });
    expect(pending.status).toBe('awaiting_outcome');
    expect(pending.pending_request).toEqual({
      kind: 'information_requested',
      questions: [{ id: expect.any(String), text: expect.any(String) }],
      due_at: expect.any(String),
    });

    const unknown = await post(id, 'information', {
      answers: [{ question_id: 'no_such_question', answer: 'Yes.' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([
      { field: 'answers[0].question_id', issue: expect.any(String) },
    ]);

    const [question] = pending.pending_request.questions;
    const answered = await post(id, 'information', {
      answers: [{ question_id: question.id, answer: 'A1c 8.4 % on 2026-10-20 despite metformin.' }],
      documents: [{ title: 'Lab results', date_created: '2026-10-20T09:00:00', content: { a1c: 8.4 } }],
    });
    expect(answered.status).toBe(200);
    expect(answered.body.data.pending_request).toBeNull();
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({ result: 'approved' });
    expect(completed.request.evidence.map((item: JsonObject) => item.title)).toEqual([
      'Lab results',
      'Lab results',
    ]);
  });
});

describe('prior authorization outcomes recorded by a reviewer, and deadlines', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;
  const { submitted, waitFor, post, get } = journeys(
    () => testApp,
    () => account,
  );

  beforeAll(async () => {
    // The payer's deadline passes 2 s after it receives a request; asked then, the simulated payer
    // still has it under review, and is not asked again for a minute.
    testApp = await startTestApp({
      PA_STANDARD_DUE_MS: '2000',
      PAYER_POLL_INTERVAL_MS: '60000',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    const secret = 'whsec_overdue_events_0000001';
    receiver = await new TestReceiver(secret).start();
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({ name: 'overdue', url: receiver.url, secret, events: ['Prior Authorization Overdue'] });
    expect(created.status).toBe(201);
    expect(created.body.data.events).toEqual(['prior_authorization.overdue']);
    receiver.endpointIds.add(created.body.data.id);
    await testApp
      .http()
      .patch(`/webhooks/${created.body.data.id}`)
      .set(bearer(account.keys.provider))
      .send({ active: true });
    await waitForStatus(testApp, account.keys.provider, '/webhooks', created.body.data.id, 'active');
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  /** A case the payer has received and, asked once, still has under review. */
  const awaitingPayer = async () =>
    submitted(priorAuthorizationRequest({ mock_result: { result: 'approved' } }));
  const notificationsFor = (id: string) =>
    receiver.notifications.filter((candidate) => (candidate.data as JsonObject).id === id);

  it('sends prior_authorization.overdue once when due_at passes without a determination, the case as GET shows it', async () => {
    const { id } = await awaitingPayer();
    const overdue = await eventually(async () => {
      const record = await get(id);
      return record.overdue ? record : undefined;
    }, 10_000);
    const [notification] = await eventually(async () =>
      notificationsFor(id).length > 0 ? notificationsFor(id) : undefined,
    );
    expect(notification).toMatchObject({
      type: 'prior_authorization.overdue',
      title: 'Prior Authorization Overdue',
    });
    expect(notification!.data).toMatchObject({
      id,
      object: 'prior_authorization',
      status: 'awaiting_outcome',
      overdue: true,
      due_at: overdue.due_at,
      request: { prescription: { drug_name: 'Ozempic 1 mg pen' } },
    });

    // The case goes on through more turns while overdue (an information request, its answer, the
    // payer's determination); the notice is not repeated.
    await post(id, 'outcome', { result: 'other', detail_code: 'more_information_required' }).expect(200);
    await post(id, 'information', { answers: [{ question_id: 'payer_request', answer: 'Sent.' }] }).expect(
      200,
    );
    await waitFor(id, 'completed');
    expect(notificationsFor(id)).toHaveLength(1);
  });

  it('refuses /information with 409 when the payer asks for nothing', async () => {
    const { id } = await awaitingPayer();
    const refused = await post(id, 'information', { answers: [{ question_id: 'a', answer: 'b' }] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_state');
  });

  it('records a partial approval, which needs the approved quantity', async () => {
    const { id } = await awaitingPayer();
    const missing = await post(id, 'outcome', { result: 'partially_approved' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toContainEqual({
      field: 'approved_quantity',
      issue: 'is required when result is partially_approved',
    });
    const recorded = await post(id, 'outcome', {
      result: 'partially_approved',
      approved_quantity: 1,
      authorization_number: 'AUTH-77',
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({
      status: 'completed',
      outcome: { result: 'partially_approved', approved_quantity: 1, authorization_number: 'AUTH-77' },
    });
  });

  it('fails the case when a reviewer records that the payer did not accept it', async () => {
    const { id } = await awaitingPayer();
    const recorded = await post(id, 'outcome', { result: 'not_submitted', detail: 'Member not found.' });
    expect(recorded.body.data).toMatchObject({
      status: 'failed',
      outcome: { result: 'not_submitted' },
      failure: { code: 'not_submitted', message: 'Member not found.' },
    });
  });

  it('keeps the case awaiting the payer when a reviewer records an information request, which the provider then answers', async () => {
    const { id } = await awaitingPayer();
    const recorded = await post(id, 'outcome', {
      result: 'other',
      detail_code: 'more_information_required',
      detail: 'Send the most recent A1c result.',
      information_due_at: '2026-12-01T17:00:00Z',
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({
      status: 'awaiting_outcome',
      outcome: null,
      pending_request: {
        kind: 'information_requested',
        questions: [{ id: 'payer_request', text: 'Send the most recent A1c result.' }],
        due_at: '2026-12-01T17:00:00Z',
      },
    });
    const answered = await post(id, 'information', {
      answers: [{ question_id: 'payer_request', answer: 'A1c 8.4 % on 2026-11-01.' }],
    });
    expect(answered.status).toBe(200);
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome.result).toBe('approved');
  });
});
