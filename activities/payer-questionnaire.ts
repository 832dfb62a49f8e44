import {
  adaptiveQuestionnaire,
  firstRoundState,
  mergedItems,
  newItemsAwaitPerson,
  nextQuestionResponse,
  servedQuestionnaire,
  type NextQuestionResponse,
} from '../domain/dtr/adaptive-questionnaire';
import { itemsOfQuestionnaire } from '../domain/dtr/questionnaire-reading';
import { questionnaireState } from '../domain/dtr/questionnaire-answers';
import type { FhirQuestionnaire, FhirReference } from '../domain/dtr/fhir-questionnaire';
import { questionnaireUnavailable } from '../domain/dtr/questionnaire';
import type {
  AdaptiveQuestionnaireState,
  CaseQuestionnaire,
  NextQuestionsAnswer,
  NextQuestionsQuery,
  PayerQuestionnaireAnswer,
  PayerQuestionnaireQuery,
  QuestionnaireFallbackReason,
  QuestionnaireItemState,
} from '../domain/dtr/questionnaire';
import type { CaseEvidenceItem } from '../domain/cases/case-model';
import type { ClinicalEvidence } from '../domain/clinical/clinical-model';
import {
  CLINICAL_EVALUATION_DEADLINE_PASSED,
  CLINICAL_EVALUATION_TIMED_OUT,
  CLINICAL_EVALUATION_UNAVAILABLE,
} from '../domain/failures';
import type { ClinicalEvaluator } from '../infrastructure/clinical/evaluation-pool';
import type { ConnectorSettingsRepository } from '../infrastructure/connectors/connector-settings.repository';
import { fetchQuestionnairePackage } from '../infrastructure/connectors/dtr/dtr-client';
import type { DtrEndpoint, FetchedQuestionnairePackage } from '../infrastructure/connectors/dtr/dtr-client';
import { askNextQuestion, readNextQuestion } from '../infrastructure/connectors/dtr/next-question-client';
import type { ServedQuestions } from '../infrastructure/connectors/dtr/next-question-client';
import { resourceUrn } from '../infrastructure/connectors/pas/pas-request';
import { nextQuestion, questionnairePackage } from '../infrastructure/connectors/dtr/simulated-dtr-service';
import {
  InvalidQuestionnairePackageError,
  readQuestionnairePackage,
} from '../infrastructure/dtr/questionnaire-package';
import type { QuestionnairePackage } from '../infrastructure/dtr/questionnaire-package';
import type { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { attemptDeadline } from './attempt-deadline';

export interface PayerQuestionnaireDependencies {
  /** Runs the payer's CQL off the event loop, cut at the pool's time limit. */
  evaluator: ClinicalEvaluator;
  /** The case's evidence as the criteria read it: file assets as their pages' text (activities/evidence-reading.ts). */
  readEvidence: (items: readonly CaseEvidenceItem[]) => Promise<{ evidence: ClinicalEvidence[] }>;
  /** The account's `questionnaire` connector (`liveDtrServices`); undefined when it has none. */
  liveDtrService: (accountId: string) => Promise<DtrEndpoint | undefined>;
  /** Checks the DTR service's address at every connection, as for every connector. */
  policy: WebhookTargetPolicy;
  /** How long the rounds after a person's answers may take (ANSWER_ROUNDS_MS unless said). */
  answerRoundsMs?: number;
}

/**
 * The account's `questionnaire` connector as a DTR service, read at the moment of use so a change of
 * settings takes effect on the next call. Its time limit never outlasts the activity's attempt, so the
 * call ends before Temporal gives up on it.
 */
export function liveDtrServices(
  settings: Pick<ConnectorSettingsRepository, 'readForUse'>,
): (accountId: string) => Promise<DtrEndpoint | undefined> {
  return async (accountId) => {
    const connector = await settings.readForUse(accountId, 'questionnaire');
    if (connector?.kind !== 'questionnaire') return undefined;
    const timeoutMs = Math.max(1, Math.min(connector.timeoutMs, attemptDeadline() - Date.now()));
    return { url: connector.url, auth: connector.auth, timeoutMs };
  };
}

/**
 * Where a prior authorization gets and prefills the questionnaire its payer's CRD answer named
 * (docs/dtr.md). Test mode: the sandbox payer's DTR service, whose packages are generated from the
 * catalog's criteria. Live mode: the account's DTR service over HTTP (docs/connectors.md); an account
 * without the connector is not asked, and the case goes to review on the CRD answer and the catalog's
 * criteria. Either package is prefilled alike; an adaptive one is asked its first questions
 * (`$next-question`), prefilled round by round while the payer's CQL answers what it asks.
 *
 * Never fails the case: a package that cannot be had or read, or CQL cut at its time limit, comes back
 * as a questionnaire with `prefill_failure`, its items (when the package was read) waiting for a person.
 */
export function payerQuestionnaires(
  dependencies: PayerQuestionnaireDependencies,
): (query: PayerQuestionnaireQuery) => Promise<PayerQuestionnaireAnswer> {
  return async (query) => {
    const deadline = attemptDeadline();
    const service = await dtrServiceFor(dependencies, query);
    if (!service) return { kind: 'not_asked' };
    const ctx = await caseOf(dependencies, query, deadline);
    return prefillPackage(ctx, service, await service.fetchPackage(deadline));
  };
}

/**
 * Asks an adaptive questionnaire's DTR service for the questions that follow the answers so far, and
 * prefills the new ones with the payer's CQL (the package is fetched again for its libraries: the case
 * keeps none of them). Rounds go on while the payer's CQL answers all that a round adds. Never fails the
 * case: a failed first round says why, and the case keeps its questionnaire as it was; a later one keeps
 * what the rounds before it served, with why it failed and that the service is to be asked again.
 *
 * The package's fetch, each round's call and each round's CQL all end within `answerRoundsMs`: CQL
 * still queued or running then is not retried, since a new attempt would lose what the service served
 * and outlast the wait of the POST that asked; the round's new items wait for a person instead.
 */
export function nextPayerQuestions(
  dependencies: PayerQuestionnaireDependencies,
): (query: NextQuestionsQuery) => Promise<NextQuestionsAnswer> {
  return async (query) => {
    const until = Math.min(attemptDeadline(), Date.now() + (dependencies.answerRoundsMs ?? ANSWER_ROUNDS_MS));
    const service = await dtrServiceFor(dependencies, query);
    if (!service) return { kind: 'failed', reason: 'dtr_unavailable' };
    const served = await service.fetchPackage(until);
    const pkg = served.kind === 'fetched' ? readablePackage(served.parameters) : undefined;
    const prefill = pkg
      ? await caseOf(dependencies, query, until).then((ctx) => cqlPrefill(ctx, pkg, 'wait_for_person'))
      : unprefilledRounds(served.kind === 'failed' ? served.reason : 'dtr_invalid_package');
    return askRounds(service, prefill, query, query.items, query.adaptive, until);
  };
}

/**
 * The rounds after a person's answers end within this, the package's fetch and the CQL included: the
 * answer to their POST waits for them and for the case's update that follows, and the API waits 30 s
 * for a decision before answering 503.
 */
const ANSWER_ROUNDS_MS = 15_000;

/** A DTR service as the case reaches it: the sandbox's in process, or the account's over HTTP. */
interface DtrService {
  /** Fetches the package, the call cut at `until`. */
  fetchPackage(until: number): Promise<FetchedQuestionnairePackage>;
  /** Asks `$next-question`, the call cut at `until`. */
  ask(response: NextQuestionResponse, until: number): Promise<ServedQuestions>;
}

async function dtrServiceFor(
  { liveDtrService, policy }: PayerQuestionnaireDependencies,
  query: PayerQuestionnaireQuery,
): Promise<DtrService | undefined> {
  if (query.mode === 'test')
    return {
      fetchPackage: async () => sandboxPackage(query.canonical),
      ask: async (response) => sandboxNextQuestion(response),
    };
  const endpoint = await liveDtrService(query.accountId);
  if (!endpoint) return undefined;
  const cutAt = (until: number): DtrEndpoint => ({
    ...endpoint,
    timeoutMs: Math.max(1, Math.min(endpoint.timeoutMs, until - Date.now())),
  });
  return {
    fetchPackage: (until) => fetchQuestionnairePackage(cutAt(until), query.canonical, policy),
    ask: (response, until) => askNextQuestion(cutAt(until), response, policy),
  };
}

/** What prefilling a case's questionnaire reads: the case, its evidence as read, when its CQL must end. */
interface PrefillContext {
  evaluator: ClinicalEvaluator;
  query: PayerQuestionnaireQuery;
  evidence: ClinicalEvidence[];
  deadline: number;
}

async function caseOf(
  { evaluator, readEvidence }: PayerQuestionnaireDependencies,
  query: PayerQuestionnaireQuery,
  deadline: number,
): Promise<PrefillContext> {
  return { evaluator, query, evidence: (await readEvidence(query.request.evidence)).evidence, deadline };
}

/** The sandbox DTR service's answer, as the HTTP client gives a live one: an unknown canonical is unavailable. */
function sandboxPackage(canonical: string): FetchedQuestionnairePackage {
  const served = questionnairePackage(canonical);
  if (served.kind === 'not_found') return { kind: 'failed', reason: 'dtr_unavailable' };
  return { kind: 'fetched', parameters: served.parameters };
}

/** The sandbox DTR service's `$next-question` answer, read as the HTTP client reads a live one's. */
function sandboxNextQuestion(response: NextQuestionResponse): ServedQuestions {
  const answer = nextQuestion(response);
  if (answer.kind === 'not_found') return { kind: 'failed', reason: 'dtr_unavailable' };
  return { kind: 'served', adaptive: readNextQuestion(answer.response) };
}

function readablePackage(parameters: unknown): QuestionnairePackage | undefined {
  try {
    return readQuestionnairePackage(parameters);
  } catch (error) {
    if (error instanceof InvalidQuestionnairePackageError) return undefined;
    throw error;
  }
}

/** Reads the payer's package and runs its CQL over the case's record, or says why it could not. */
async function prefillPackage(
  ctx: PrefillContext,
  service: DtrService,
  served: FetchedQuestionnairePackage,
): Promise<PayerQuestionnaireAnswer> {
  const { query } = ctx;
  if (served.kind === 'failed') return prefilled(questionnaireUnavailable(query.canonical, served.reason));
  const pkg = readablePackage(served.parameters);
  if (!pkg) return prefilled(questionnaireUnavailable(query.canonical, 'dtr_invalid_package'));
  if (pkg.adaptive) return firstQuestions(ctx, service, pkg);
  const { items, failure } = await cqlPrefill(ctx, pkg, 'retry')(pkg.questionnaire);
  return prefilled(questionnaireOf(pkg, items, failure));
}

/**
 * An adaptive package's first questions: its service asked with the empty response, and again while
 * its CQL answers all a round adds. A service that gives no first questions leaves the case without
 * items, as an unavailable package does, so it is reviewed on the catalog's criteria.
 */
async function firstQuestions(
  ctx: PrefillContext,
  service: DtrService,
  pkg: QuestionnairePackage,
): Promise<PayerQuestionnaireAnswer> {
  const start = firstRoundState(pkg.questionnaire, pkg.canonical);
  const answer = await askRounds(service, cqlPrefill(ctx, pkg, 'retry'), ctx.query, [], start, ctx.deadline);
  if (answer.kind === 'failed')
    return prefilled({ ...questionnaireUnavailable(pkg.canonical, answer.reason), title: pkg.title });
  const base = questionnaireOf(pkg, answer.items, answer.prefill_failure);
  return {
    kind: 'prefilled',
    questionnaire: adaptiveQuestionnaire(base, answer.items, answer.adaptive, answer.prefill_failure),
    adaptive: answer.adaptive,
    ...(answer.last_round_failed && { last_round_failed: answer.last_round_failed }),
  };
}

/** How a round's Questionnaire is prefilled: its items, answered where the payer's CQL could. */
type RoundPrefill = (
  questionnaire: FhirQuestionnaire,
) => Promise<{ items: QuestionnaireItemState[]; failure: QuestionnaireFallbackReason | null }>;

/**
 * Runs the package's CQL over the case's record for a Questionnaire (the package's own, or what an
 * adaptive one's service served), in the evaluation pool, cut at its time limit. CQL still queued or
 * running at `ctx.deadline` fails the attempt for Temporal to retry (`retry`), or leaves the items
 * waiting for a person, `cql_timed_out` (`wait_for_person`). Its failures are `cql_`, so the case tells
 * them from the DTR service's (`dtr_`) in an adaptive round, where both leave the items served waiting.
 */
function cqlPrefill(
  ctx: PrefillContext,
  pkg: QuestionnairePackage,
  pastDeadline: 'retry' | 'wait_for_person',
): RoundPrefill {
  return async (questionnaire) => {
    try {
      const { items } = await ctx.evaluator.run(
        {
          kind: 'dtr_prefill' as const,
          package: { ...pkg, questionnaire },
          patientRecord: { caseId: ctx.query.caseId, request: ctx.query.request, evidence: ctx.evidence },
          now: new Date().toISOString(),
        },
        { deadline: ctx.deadline },
      );
      return { items, failure: null };
    } catch (error) {
      const type = failureType(error);
      const unrun = type === CLINICAL_EVALUATION_DEADLINE_PASSED || type === CLINICAL_EVALUATION_UNAVAILABLE;
      // Past the deadline, or with no thread started, the next attempt may find the pool free: Temporal retries it.
      if (unrun && pastDeadline === 'retry') throw error;
      // Read but not prefilled: the items still wait for a person, whatever stopped the CQL.
      const timedOut = type === CLINICAL_EVALUATION_TIMED_OUT || type === CLINICAL_EVALUATION_DEADLINE_PASSED;
      return {
        items: itemsOfQuestionnaire(questionnaire, pkg.valueSets),
        failure: timedOut ? 'cql_timed_out' : 'cql_failed',
      };
    }
  };
}

/** A round's items when the package could not be had again: unanswered, with the reason. */
function unprefilledRounds(reason: QuestionnaireFallbackReason): RoundPrefill {
  return async (questionnaire) => ({ items: itemsOfQuestionnaire(questionnaire, []), failure: reason });
}

/** At most this many `$next-question` rounds in one activity attempt: a service that never settles stops here. */
const MAX_ROUNDS = 50;
/** A round is not started with less time than this left: the connector's shortest time limit. */
const MIN_ROUND_MS = 500;

/**
 * Asks the service for the questions that follow `items`, merges what it serves (new items prefilled),
 * and asks again while a round adds items that the payer's CQL answered all of, until the service says
 * it is complete, a new item waits for a person, a round adds nothing, or the rounds or the time
 * (`until`, which also cuts each call) run out. A round that fails after others keeps what they served,
 * with its reason, and says the service is to be asked again (`last_round_failed`).
 */
async function askRounds(
  service: DtrService,
  prefill: RoundPrefill,
  query: PayerQuestionnaireQuery,
  start: QuestionnaireItemState[],
  startState: AdaptiveQuestionnaireState,
  until: number,
): Promise<NextQuestionsAnswer> {
  const about = recordReferences(query.caseId);
  let items = start;
  let state = startState;
  let failure: QuestionnaireFallbackReason | null = null;
  let rounds = 0;
  while (rounds < MAX_ROUNDS && until - Date.now() >= MIN_ROUND_MS) {
    const response = nextQuestionResponse(query.canonical, items, state, about, new Date().toISOString());
    const served = await service.ask(response, until);
    if (served.kind === 'failed') {
      if (rounds === 0) return served;
      return {
        kind: 'served',
        items,
        adaptive: state,
        prefill_failure: served.reason,
        last_round_failed: true,
      };
    }
    rounds++;
    const round = await prefill(servedQuestionnaire(served.adaptive));
    const next = mergedItems(items, round.items);
    const grew = next.some((item) => !items.some((known) => known.link_id === item.link_id));
    const awaitsPerson = newItemsAwaitPerson(items, next);
    items = next;
    state = served.adaptive;
    failure = round.failure;
    if (state.completed || !grew || awaitsPerson) break;
  }
  if (rounds === 0) return { kind: 'failed', reason: 'dtr_timed_out' };
  return { kind: 'served', items, adaptive: state, prefill_failure: failure };
}

/**
 * The patient, order and coverage as the case's record names them (infrastructure/dtr/patient-record.ts),
 * which its responses to an adaptive questionnaire name as their subject and DTR's `qr-context`.
 */
function recordReferences(caseId: string): { subject: FhirReference; context: FhirReference[] } {
  const idOf = (role: string) => resourceUrn(caseId, role).slice('urn:uuid:'.length);
  return {
    subject: { reference: `Patient/${idOf('patient')}` },
    context: [
      { reference: `MedicationRequest/${idOf('medication-request')}`, type: 'MedicationRequest' },
      { reference: `Coverage/${idOf('coverage')}`, type: 'Coverage' },
    ],
  };
}

function prefilled(questionnaire: CaseQuestionnaire): PayerQuestionnaireAnswer {
  return { kind: 'prefilled', questionnaire };
}

function questionnaireOf(
  pkg: QuestionnairePackage,
  items: QuestionnaireItemState[],
  failure: QuestionnaireFallbackReason | null,
): CaseQuestionnaire {
  return {
    canonical: pkg.canonical,
    title: pkg.title,
    ...questionnaireState(items),
    prefill_failure: failure,
  };
}

/** The failure type an evaluation was stopped with (an ApplicationFailure's), if any. */
function failureType(error: unknown): string | undefined {
  return (error as { type?: string } | null)?.type;
}
