import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';

import { PRIOR_AUTHORIZATION_KIND } from '../../domain/cases/prior-authorization.kind';
import type { PriorAuthorizationInput } from '../../domain/cases/prior-authorization';

import type {
  InformationRequest,
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
  PriorAuthorizationChannel,
} from '../../domain/payers/prior-authorization-exchange';
import { addressTo } from '../../domain/temporal/message-address';
import {
  priorAuthorizationInformationSignal,
  submitPriorAuthorizationInformationUpdate,
  submitPriorAuthorizationOutcomeUpdate,
} from '../../workflows/prior-authorization.messages';
import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest } from '../support/case-requests';
import { continuedRunOf } from '../support/continued-runs';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { startTestWorker, taskQueueFor, TestWorker } from '../support/workers';

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
  /** Submits, answers what the questionnaire waits for, approves at review, and answers with the case as the review left it. */
  const submitted = async (body: Record<string, unknown>) => {
    const { id } = await submit(body);
    const prepared = await waitFor(id, 'awaiting_review');
    await answerPendingItems(id, prepared);
    const reviewed = await app()
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(account().keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
    expect(reviewed.status).toBe(200);
    return reviewed.body.data as JsonObject;
  };
  // The clinic answers what the payer's questionnaire asks that the record could not (docs/dtr.md).
  const answerPendingItems = async (id: string, prepared: JsonObject) => {
    const pending = (prepared.questionnaire?.pending ?? []) as string[];
    if (pending.length === 0) return;
    const answered = await app()
      .http()
      .post(`${PATH}/${id}/questionnaire`)
      .set(bearer(account().keys.provider))
      .send({ answers: pending.map((link_id) => ({ link_id, value: true })), author: 'Dr. Reviewer' });
    expect(answered.status).toBe(200);
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

  /** A case whose payer asked for information, as GET shows it once the request is pending. */
  const awaitingAnswers = async () => {
    const { id } = await submitted(priorAuthorizationRequest({ mock_result: { result: 'other' } }));
    const pending = await eventually(async () => {
      const { body } = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
      return body.data.pending_request ? (body.data as JsonObject) : undefined;
    });
    return { id, pending };
  };

  it('shows the payer’s information request, takes the answers at /information, and completes once the payer decides', async () => {
    const { id, pending } = await awaitingAnswers();
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

  it('refuses in the case itself answers to a question the payer did not ask, as the API would', async () => {
    const { id } = await awaitingAnswers();

    // Straight to the workflow, as a decision does when the memo the API checks has not caught up.
    const error = await testApp.temporalClient.workflow
      .getHandle(id)
      .executeUpdate(submitPriorAuthorizationInformationUpdate, {
        args: [addressTo(id, { answers: [{ question_id: 'no_such_question', answer: 'Yes.' }] })],
      })
      .catch((failure: unknown) => failure);

    expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((error as WorkflowUpdateFailedError).cause).toMatchObject({
      type: 'DecisionInvalid',
      details: [[{ field: 'answers[0].question_id', issue: 'must name a question of the pending request' }]],
    });
    const { body } = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
    expect(body.data).toMatchObject({ status: 'awaiting_outcome', pending_request: expect.any(Object) });
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

  it('fails the case when a reviewer records that the payer did not accept it, keeping the reviewer’s words out of the failure message', async () => {
    const { id } = await awaitingPayer();
    const recorded = await post(id, 'outcome', { result: 'not_submitted', detail: 'Member not found.' });
    expect(recorded.body.data).toMatchObject({
      status: 'failed',
      outcome: { result: 'not_submitted', detail: 'Member not found.' },
      failure: { code: 'not_submitted', message: 'The payer did not accept the request for review.' },
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

/** What the scripted payer does with one case: when its first request falls due, how it answers answers. */
interface PayerScript {
  requestDueInMs: number;
  /** The replies to the provider's answers, in order; a determination once they run out. */
  replies: PayerPriorAuthAnswer[];
}

/**
 * A payer that pends every request with a question, pends every inquiry without asking anything, and
 * replies to answers as the case's script says. It records what it was sent, per case.
 */
class ScriptedPayer implements PriorAuthorizationChannel {
  readonly scripts = new Map<string, PayerScript>();
  readonly inquiries: PriorAuthInquiryInput[] = [];
  readonly answers: PriorAuthInformationInput[] = [];

  async submit(input: PriorAuthExchangeInput): Promise<PayerPriorAuthAnswer> {
    const { requestDueInMs } = this.scripts.get(input.caseId)!;
    return pended(input.caseId, askedFor('a1c', requestDueInMs));
  }

  async inquire(input: PriorAuthInquiryInput): Promise<PayerPriorAuthAnswer> {
    this.inquiries.push(input);
    return pended(input.caseId, null);
  }

  /** Set by a test to hold the next reply to answers until it resolves, with the reply. */
  holdReplies: Promise<PayerPriorAuthAnswer> | undefined;

  async answerInformationRequest(input: PriorAuthInformationInput): Promise<PayerPriorAuthAnswer> {
    this.answers.push(input);
    const held = this.holdReplies;
    this.holdReplies = undefined;
    return held ?? this.scripts.get(input.caseId)!.replies.shift() ?? approvedBy(input.caseId);
  }

  inquiriesOf(caseId: string): number {
    return this.inquiries.filter((input) => input.caseId === caseId).length;
  }

  answersOf(caseId: string): PriorAuthInformationInput[] {
    return this.answers.filter((input) => input.caseId === caseId);
  }
}

function askedFor(questionId: string, dueInMs: number): InformationRequest {
  return {
    kind: 'information_requested',
    questions: [{ id: questionId, text: `The payer asks about ${questionId}.` }],
    due_at: new Date(Date.now() + dueInMs).toISOString(),
  };
}

function pended(caseId: string, request: InformationRequest | null): PayerPriorAuthAnswer {
  return { kind: 'pended', payer_reference: `PAYER-${caseId}`, information_request: request };
}

function approvedBy(caseId: string): PayerPriorAuthAnswer {
  return {
    kind: 'determined',
    payer_reference: `PAYER-${caseId}`,
    determination: {
      result: 'approved',
      detail_code: 'criteria_met',
      detail: 'Approved.',
      decided_at: new Date().toISOString(),
      authorization_number: 'AUTH-1',
      approved_quantity: null,
      authorization_start_date: null,
      authorization_expiration: null,
    },
  };
}

describe('a payer’s information requests, as a payer that takes its time asks them', () => {
  const payer = new ScriptedPayer();
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;
  const { submit, waitFor, post, get } = journeys(
    () => testApp,
    () => account,
  );

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '200', WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    const { config, db, temporalClient } = testApp;
    worker = await startTestWorker({
      config,
      db,
      temporalClient,
      connectors: { priorAuthorizationChannel: async () => payer },
    });
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  /** A case the scripted payer received and asked about, as the provider sees it once it shows. */
  const asked = async (script: PayerScript) => {
    const { id } = await submit(priorAuthorizationRequest());
    payer.scripts.set(id, script);
    await waitFor(id, 'awaiting_review');
    await testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' })
      .expect(200);
    return eventually(async () => {
      const record = await get(id);
      return record.pending_request ? record : undefined;
    });
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('does not inquire while the payer waits for the provider’s answers', async () => {
    const { id } = await asked({ requestDueInMs: DAY, replies: [] });
    await pause(1_500);
    expect(payer.inquiriesOf(id)).toBe(0);
    expect((await get(id)).pending_request.questions).toEqual([
      { id: 'a1c', text: 'The payer asks about a1c.' },
    ]);
  });

  it('keeps the request shown when the payer, asked after its due date, pends without asking again', async () => {
    const { id } = await asked({ requestDueInMs: 300, replies: [] });
    await eventually(async () => (payer.inquiriesOf(id) >= 3 ? true : undefined));
    expect((await get(id)).pending_request.questions.map((question: JsonObject) => question.id)).toEqual([
      'a1c',
    ]);
    const answered = await post(id, 'information', { answers: [{ question_id: 'a1c', answer: '8.4 %' }] });
    expect(answered.status).toBe(200);
    await waitFor(id, 'completed');
  });

  it('announces each request it shows and its clearing, with the case as GET shows it', async () => {
    const { id } = await asked({
      requestDueInMs: DAY,
      replies: [pended('x', askedFor('bmi', DAY)), pended('x', null)],
    });
    await post(id, 'information', { answers: [{ question_id: 'a1c', answer: '8.4 %' }] }).expect(200);
    await post(id, 'information', { answers: [{ question_id: 'bmi', answer: '31' }] }).expect(200);
    const shown = () =>
      eventsFor(receiver, id)
        .filter((event) => (event.data as JsonObject).status === 'awaiting_outcome')
        .map((event) => (event.data as JsonObject).pending_request?.questions[0].id ?? null);
    await eventually(async () => (shown().length >= 3 ? true : undefined));
    expect(shown()).toEqual(['a1c', 'bmi', null]);
    await testApp
      .http()
      .post(`${PATH}/${id}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Duplicate' })
      .expect(200);
  });

  it('numbers each information round and names the evidence each answer added', async () => {
    const { id, request } = await asked({
      requestDueInMs: DAY,
      replies: [pended('x', askedFor('bmi', DAY))],
    });
    const document = { title: 'Lab results', date_created: '2026-10-20T09:00:00', content: { a1c: 8.4 } };
    await post(id, 'information', {
      answers: [{ question_id: 'a1c', answer: '8.4 %' }],
      documents: [document],
    }).expect(200);
    await post(id, 'information', { answers: [{ question_id: 'bmi', answer: '31' }] }).expect(200);
    await waitFor(id, 'completed');
    const before = request.evidence.length;
    expect(payer.answersOf(id).map(({ round, addedEvidence }) => ({ round, addedEvidence }))).toEqual([
      { round: 1, addedEvidence: [before] },
      { round: 2, addedEvidence: [] },
    ]);
  });

  it('refuses an outcome while the provider’s answers are on their way to the payer', async () => {
    const { id } = await asked({ requestDueInMs: DAY, replies: [] });
    let reply: (answer: PayerPriorAuthAnswer) => void = () => undefined;
    payer.holdReplies = new Promise((resolve) => (reply = resolve));
    const answered = post(id, 'information', { answers: [{ question_id: 'a1c', answer: '8.4 %' }] }).then(
      (response) => response.status,
    );
    await eventually(async () => (payer.answersOf(id).length === 1 ? true : undefined));

    const refused = await post(id, 'outcome', { result: 'denied', detail_code: 'not_medically_necessary' });
    expect(refused.status).toBe(409);
    reply(approvedBy(id));
    expect(await answered).toBe(200);
    expect((await waitFor(id, 'completed')).outcome.result).toBe('approved');
  });

  it('refuses an outcome that reaches a run continued as new with the provider’s answers', async () => {
    const { id } = await asked({ requestDueInMs: DAY, replies: [] });
    const taskQueue = taskQueueFor('continued run with answers and an outcome');
    const continued = await continuedRunOf<PriorAuthorizationInput>(testApp, id, taskQueue, {
      payerExchange: true,
      payerChecksSoFar: 0,
      informationRoundsSoFar: 0,
    });
    const outcome = testApp.temporalClient.workflow
      .executeUpdateWithStart(submitPriorAuthorizationOutcomeUpdate, {
        args: [addressTo(id, { result: 'denied' as const, detail_code: 'not_medically_necessary' })],
        startWorkflowOperation: new WithStartWorkflowOperation(PRIOR_AUTHORIZATION_KIND.workflowType, {
          ...continued,
          workflowIdConflictPolicy: 'FAIL',
        }),
      })
      .catch((failure: unknown) => failure);
    const handle = testApp.temporalClient.workflow.getHandle(id);
    await eventually(async () => (await handle.describe()).status.name === 'RUNNING');
    // No worker polls the run's task queue yet: the answers and the outcome reach its first task, where
    // signals are handled before updates.
    await handle.signal(
      priorAuthorizationInformationSignal,
      addressTo(id, { answers: [{ question_id: 'a1c', answer: '8.4 %' }] }),
    );
    const { config, db, temporalClient } = testApp;
    const continuing = await startTestWorker({
      config,
      db,
      temporalClient,
      taskQueue,
      connectors: { priorAuthorizationChannel: async () => payer },
    });
    try {
      const refused = await outcome;
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'InvalidState' });
      expect((await waitFor(id, 'completed')).outcome.result).toBe('approved');
      expect(payer.answersOf(id)).toHaveLength(1);
    } finally {
      await continuing.stop();
    }
  });
});
