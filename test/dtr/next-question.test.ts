import * as path from 'node:path';

import { MockActivityEnvironment } from '@temporalio/testing';

import { nextPayerQuestions, payerQuestionnaires } from '../../activities/payer-questionnaire';
import type { PayerQuestionnaireDependencies } from '../../activities/payer-questionnaire';
import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import { firstRoundState, mergedItems, nextQuestionResponse } from '../../domain/dtr/adaptive-questionnaire';
import type {
  AdaptiveQuestionnaireState,
  CaseQuestionnaire,
  NextQuestionsAnswer,
  PayerQuestionnaireAnswer,
  PayerQuestionnaireQuery,
} from '../../domain/dtr/questionnaire';
import { questionnaireUnavailable } from '../../domain/dtr/questionnaire';
import { answeredQuestionnaire } from '../../domain/dtr/questionnaire-answers';
import type { ClinicalRecord } from '../../domain/clinical/clinical-model';
import type { FhirQuestionnaire } from '../../domain/dtr/fhir-questionnaire';
import { EvaluationPool, inlineEvaluator } from '../../infrastructure/clinical/evaluation-pool';
import type { DtrEndpoint } from '../../infrastructure/connectors/dtr/dtr-client';
import { askNextQuestion } from '../../infrastructure/connectors/dtr/next-question-client';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { infernoFixture } from './inferno-fixtures';
import { LoopbackAdaptiveDtr } from './loopback-adaptive-dtr';

const loopbackAllowed = new WebhookTargetPolicy(['127.0.0.0/8']);
const TOKEN = 'dtr-adaptive-token-000001';
const CANONICAL = 'urn:inferno:dtr-test-kit:dinner-order-adaptive';
const SUBJECT = { reference: 'Patient/pat-1' };

let dtr: LoopbackAdaptiveDtr;
let endpoint: DtrEndpoint;

beforeAll(async () => {
  dtr = new LoopbackAdaptiveDtr();
  endpoint = { url: await dtr.start(), auth: { type: 'bearer', token: TOKEN }, timeoutMs: 2000 };
});

afterAll(() => dtr.stop());

beforeEach(() => {
  dtr.behaviour = 'serve';
  dtr.packageBehaviour = 'serve';
  dtr.wrapInParameters = false;
  dtr.failOnceAfterServing = undefined;
});

/** The adaptive package's Questionnaire, with no items yet, as the first round sends it. */
const emptyState = (): AdaptiveQuestionnaireState =>
  firstRoundState(
    infernoFixture<{ entry: { resource: FhirQuestionnaire }[] }>('questionnaire_dinner_order_adaptive.json')
      .entry[0]!.resource,
    CANONICAL,
  );

const ask = (state = emptyState(), timeoutMs = 2000) =>
  askNextQuestion(
    { ...endpoint, timeoutMs },
    nextQuestionResponse(CANONICAL, [], state, { subject: SUBJECT, context: [] }, '2026-11-29T10:00:00Z'),
    loopbackAllowed,
  );

describe('the $next-question client', () => {
  it('sends the response so far, its Questionnaire contained, as the questionnaire-response parameter with the connector’s token', async () => {
    const calls = dtr.requests.length;
    await ask();
    const [call] = dtr.requests.slice(calls);
    expect(call!.url).toBe('/fhir/Questionnaire/$next-question');
    expect(call!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const sent = JSON.parse(call!.body);
    expect(sent).toMatchObject({
      resourceType: 'Parameters',
      parameter: [{ name: 'questionnaire-response' }],
    });
    expect(sent.parameter[0].resource).toMatchObject({
      resourceType: 'QuestionnaireResponse',
      status: 'in-progress',
      questionnaire: '#DinnerOrderAdaptive',
      contained: [{ resourceType: 'Questionnaire', id: 'DinnerOrderAdaptive', derivedFrom: [CANONICAL] }],
      subject: SUBJECT,
    });
  });

  it('sends back the Questionnaire the service served as it was served, its url included', async () => {
    const served = {
      resourceType: 'Questionnaire' as const,
      id: 'served-round',
      url: 'http://payer.example/fhir/Questionnaire/served-round',
      version: '3',
      status: 'active',
      item: [{ linkId: 'PBD', text: 'Dinner?', type: 'boolean' }],
    };
    const calls = dtr.requests.length;
    await ask({ questionnaire: served, completed: false });
    const [call] = dtr.requests.slice(calls);
    expect(JSON.parse(call!.body).parameter[0].resource.contained).toEqual([served]);
  });

  it('reads the questions the service serves, not yet completed', async () => {
    const served = await ask();
    expect(served).toMatchObject({ kind: 'served', adaptive: { completed: false } });
    const items =
      served.kind === 'served' ? (served.adaptive.questionnaire.item as { linkId: string }[]) : [];
    expect(items.map((item) => item.linkId)).toEqual(['PBD', 'LOC', '3']);
  });

  it('reads the response inside Parameters as their return too', async () => {
    dtr.wrapInParameters = true;
    expect(await ask()).toMatchObject({ kind: 'served', adaptive: { completed: false } });
  });

  it('is dtr_unavailable when the service fails (500)', async () => {
    dtr.behaviour = 'fail';
    expect(await ask()).toEqual({ kind: 'failed', reason: 'dtr_unavailable' });
  });

  it('is dtr_timed_out when the service does not answer within the connector’s time limit', async () => {
    dtr.behaviour = 'hang';
    expect(await ask(emptyState(), 300)).toEqual({ kind: 'failed', reason: 'dtr_timed_out' });
  });

  it('is dtr_answer_too_large when the answer is larger than the 1 MB it reads', async () => {
    dtr.behaviour = 'oversized';
    expect(await ask()).toEqual({ kind: 'failed', reason: 'dtr_answer_too_large' });
  });

  it('refuses a readable Questionnaire past 1 MB, which would ride in the workflow’s 2 MB payloads every round, as dtr_answer_too_large', async () => {
    dtr.behaviour = 'large';
    expect(await ask()).toEqual({ kind: 'failed', reason: 'dtr_answer_too_large' });
  });

  it('is dtr_invalid_package when the answer holds no Questionnaire', async () => {
    dtr.behaviour = 'no-questionnaire';
    expect(await ask()).toEqual({ kind: 'failed', reason: 'dtr_invalid_package' });
  });
});

/** A live case whose patient has the names the dinner's CQL reads (its Patient's official name). */
function dinnerQuery(): PayerQuestionnaireQuery {
  const request: PriorAuthorizationRequest = {
    patient: {
      internal_id: 'MRN-1',
      first_name: 'Rosa',
      last_name: 'Zzadaptive',
      gender: 'female',
      date_of_birth: '1980-02-03',
    },
    diagnoses: [],
    prescription: { drug_name: 'Remicade 100 mg vial', quantity: 4 },
    provider: { npi: '1234567893', first_name: 'Sam', last_name: 'Ray' },
    insurance: [],
    insurance_content: null,
    evidence: [],
    questionnaires: [],
    visit_notes: [],
    is_training_data: false,
    urgency: 'standard',
    mock_result: null,
  } as unknown as PriorAuthorizationRequest;
  return { caseId: 'pa_adaptive0001', accountId: 'acct_1', mode: 'live', canonical: CANONICAL, request };
}

const dependencies = (): PayerQuestionnaireDependencies => ({
  evaluator: inlineEvaluator,
  readEvidence: async () => ({ evidence: [] }),
  liveDtrService: async () => endpoint,
  policy: loopbackAllowed,
});

/** A pool thread that never finishes this record, so every other task waits behind it. */
const STALLING_THREAD = path.join(__dirname, '..', 'fixtures', 'threads', 'stalling-evaluation-thread.js');
const STALLING_RECORD = {
  visitNotes: [{ content: 'stall', created_at: '2026-11-29T09:00:00Z' }],
} as unknown as ClinicalRecord;

/** An activity attempt with the time a case's connector activities get. */
const attempt = () => new MockActivityEnvironment({ startToCloseTimeoutMs: 30_000 });

const prefill = (): Promise<PayerQuestionnaireAnswer> =>
  attempt().run(payerQuestionnaires(dependencies()), dinnerQuery());

async function firstQuestions(): Promise<{
  questionnaire: CaseQuestionnaire;
  adaptive: AdaptiveQuestionnaireState;
}> {
  const answer = await prefill();
  if (answer.kind !== 'prefilled' || !answer.adaptive) throw new Error('expected an adaptive questionnaire');
  return { questionnaire: answer.questionnaire, adaptive: answer.adaptive };
}

const answerOf = (questionnaire: CaseQuestionnaire, linkId: string) =>
  questionnaire.items.find((item) => item.link_id === linkId);

describe('an adaptive questionnaire at prefill', () => {
  it('asks the service its first questions and prefills them with the package’s CQL', async () => {
    const { questionnaire, adaptive } = await firstQuestions();
    expect(adaptive.completed).toBe(false);
    expect(questionnaire).toMatchObject({ status: 'in_progress', prefill_failure: null });
    expect(answerOf(questionnaire, 'PBD.1')).toMatchObject({
      answer: 'Zzadaptive',
      origin: 'auto',
      source: { kind: 'cql', reference: '"DTRTest".LastName' },
    });
    expect(answerOf(questionnaire, 'PBD.2')).toMatchObject({ answer: 'Rosa', origin: 'auto' });
    // The record holds no encounter to read a location from, and only a person chooses dinner.
    expect(questionnaire.pending).toEqual(['LOC.1', '3.1']);
  });

  it('stops asking once a round serves a question only a person can answer', async () => {
    const calls = dtr.nextQuestionRequests().length;
    await firstQuestions();
    expect(dtr.nextQuestionRequests().length - calls).toBe(1);
  });

  it('asks again, without waiting for anyone, while the CQL answers all that a round adds', async () => {
    dtr.behaviour = 'names-first';
    const calls = dtr.nextQuestionRequests().length;
    const { questionnaire } = await firstQuestions();
    expect(dtr.nextQuestionRequests().length - calls).toBe(2);
    expect(answerOf(questionnaire, 'PBD.1')).toMatchObject({ origin: 'auto' });
    expect(questionnaire.pending).toEqual(['LOC.1', '3.1']);
  });

  it('stops after 50 rounds when the service never stops adding what the CQL answers', async () => {
    dtr.behaviour = 'endless';
    const calls = dtr.nextQuestionRequests().length;
    const { questionnaire, adaptive } = await firstQuestions();
    expect(dtr.nextQuestionRequests().length - calls).toBe(50);
    expect(adaptive.completed).toBe(false);
    expect(questionnaire.status).toBe('in_progress');
  });

  it('keeps what the rounds served, saying the service is to be asked again, when a later round fails', async () => {
    dtr.behaviour = 'names-first';
    // The round after the one that served the names alone.
    dtr.failOnceAfterServing = (served) => served.includes('PBD') && !served.includes('LOC');
    const answer = await prefill();
    if (answer.kind !== 'prefilled') throw new Error('expected the first questions');
    expect(answer).toMatchObject({ last_round_failed: true, adaptive: { completed: false } });
    expect(answer.questionnaire).toMatchObject({ prefill_failure: 'dtr_unavailable', pending: [] });
    expect(answerOf(answer.questionnaire, 'PBD.1')).toMatchObject({ answer: 'Zzadaptive', origin: 'auto' });
  });

  it('goes to review without items when the service gives no first questions', async () => {
    dtr.behaviour = 'fail';
    const answer = await prefill();
    expect(answer).toMatchObject({
      kind: 'prefilled',
      questionnaire: { items: [], pending: [], prefill_failure: 'dtr_unavailable' },
    });
    expect(answer.kind === 'prefilled' && answer.adaptive).toBeFalsy();
  });
});

describe("an adaptive questionnaire's next questions", () => {
  const next = (
    questionnaire: CaseQuestionnaire,
    adaptive: AdaptiveQuestionnaireState,
    settings: Partial<PayerQuestionnaireDependencies> = {},
  ) =>
    attempt().run(nextPayerQuestions({ ...dependencies(), ...settings }), {
      ...dinnerQuery(),
      canonical: questionnaire.canonical,
      items: questionnaire.items,
      adaptive,
    }) as Promise<NextQuestionsAnswer>;

  it('sends the answers so far, and serves the questions the dinner chosen calls for', async () => {
    const { questionnaire, adaptive } = await firstQuestions();
    const answered = answeredQuestionnaire(questionnaire, {
      answers: [{ link_id: '3.1', value: { system: null, code: 'Hamburger', display: null } }],
      author: 'Dr. Example',
    });
    const answer = await next(answered, adaptive);
    const sent = dtr.nextQuestionRequests().at(-1)!;
    expect(JSON.stringify(sent.item)).toContain('"code":"Hamburger"');
    expect(answer).toMatchObject({ kind: 'served', adaptive: { completed: false }, prefill_failure: null });
    const items = answer.kind === 'served' ? mergedItems(answered.items, answer.items) : [];
    expect(items.map((item) => item.link_id)).toContain('3.2.a');
    expect(items.find((item) => item.link_id === '3.1')).toMatchObject({ origin: 'manual' });
  });

  it('says completed when the service does', async () => {
    const { questionnaire, adaptive } = await firstQuestions();
    const answered = answeredQuestionnaire(questionnaire, {
      answers: [{ link_id: '3.1', value: { system: null, code: 'Bean Burrito', display: null } }],
    });
    const followUps = await next(answered, adaptive);
    if (followUps.kind !== 'served') throw new Error('expected the follow-up questions');
    const done = await next({ ...answered, items: followUps.items }, followUps.adaptive);
    expect(done).toMatchObject({ kind: 'served', adaptive: { completed: true } });
  });

  it('fails the round, keeping nothing, when the service fails', async () => {
    const { questionnaire, adaptive } = await firstQuestions();
    dtr.behaviour = 'fail';
    expect(await next(questionnaire, adaptive)).toEqual({ kind: 'failed', reason: 'dtr_unavailable' });
  });

  it('keeps what earlier rounds served, saying the service is to be asked again, when a later round fails', async () => {
    // Asked from the start, the names the CQL answers come first, so a second round follows at once.
    dtr.behaviour = 'names-first';
    // The round after the one that served the names alone.
    dtr.failOnceAfterServing = (served) => served.includes('PBD') && !served.includes('LOC');
    const answer = await next(questionnaireUnavailable(CANONICAL, 'dtr_unavailable'), emptyState());
    expect(answer).toMatchObject({
      kind: 'served',
      prefill_failure: 'dtr_unavailable',
      last_round_failed: true,
    });
    expect(answer.kind === 'served' && answer.items.map((item) => item.link_id)).toEqual([
      'PBD',
      'PBD.1',
      'PBD.2',
    ]);
  });

  it('ends within the time its rounds are given, the package’s fetch included, though the connector allows longer', async () => {
    const { questionnaire, adaptive } = await firstQuestions();
    dtr.packageBehaviour = 'hang';
    const started = Date.now();
    const answer = await next(questionnaire, adaptive, {
      liveDtrService: async () => ({ ...endpoint, timeoutMs: 10_000 }),
      answerRoundsMs: 1_000,
    });
    expect(answer).toEqual({ kind: 'failed', reason: 'dtr_timed_out' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  describe('with the clinical evaluation pool busy (needs dist/: npm run build first)', () => {
    let pool: EvaluationPool;
    let stalled: Promise<unknown>;
    beforeEach(() => {
      pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 10_000 }, { entry: STALLING_THREAD });
      stalled = pool.run({ kind: 'clinical_eligibility', record: STALLING_RECORD }).catch((error) => error);
    });
    afterEach(async () => {
      await pool.close();
      await stalled;
    });

    it('keeps the questions the service served, waiting for a person as cql_timed_out, when the CQL cannot run in time', async () => {
      const { questionnaire, adaptive } = await firstQuestions();
      const answered = answeredQuestionnaire(questionnaire, {
        answers: [{ link_id: '3.1', value: { system: null, code: 'Hamburger', display: null } }],
      });
      const answer = await next(answered, adaptive, { evaluator: pool, answerRoundsMs: 1_500 });
      expect(answer).toMatchObject({ kind: 'served', prefill_failure: 'cql_timed_out' });
      const items = answer.kind === 'served' ? mergedItems(answered.items, answer.items) : [];
      expect(items.map((item) => item.link_id)).toContain('3.2.a');
      expect(items.find((item) => item.link_id === 'PBD.1')).toMatchObject({ answer: 'Zzadaptive' });
    });
  });
});
