import { condition, patched } from '@temporalio/workflow';

import type { createCaseActivities } from '../activities/cases.activities';
import {
  addedEvidence,
  informationAnswerIssues,
  MORE_INFORMATION_REQUIRED,
  PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS,
  withInformation,
} from '../domain/cases/prior-authorization';
import type {
  PriorAuthInformationAnswers,
  PriorAuthOutcomeInput,
  PriorAuthorizationCase,
  PriorAuthorizationInput,
  PriorAuthorizationOutcome,
  ReviewDecisionInput,
} from '../domain/cases/prior-authorization';
import { mockOutageUntil } from '../domain/cases/case-model';
import { payerDueAt } from '../domain/cases/prior-authorization-deadlines';
import { CASE_FAILURE_CODE } from '../domain/failures';
import type { PriorAuthResult } from '../domain/payers/payer-connector';
import {
  asksCoverageRequirements,
  authorizationNotNeeded,
  sandboxCrdMock,
} from '../domain/payers/coverage-requirements';
import type { CoverageRequirements } from '../domain/payers/coverage-requirements';
import type { AdaptiveQuestionnaireState, CaseQuestionnaire } from '../domain/dtr/questionnaire';
import { withProposals } from '../domain/dtr/proposals';
import type {
  InformationRequest,
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
} from '../domain/payers/prior-authorization-exchange';
import { readCaseDocuments, showInsuranceCard } from './case-documents';
import { ending, unreachableEnding } from './case-failures';
import { CaseLifecycle, refuse } from './case-lifecycle';
import {
  acceptCaseDecisions,
  continueAsNewIfLong,
  failWith,
  openConnectedCase,
  refuseIssues,
  answerOnceTaken,
  refuseUnlessAwaiting,
  runCase,
  type ConnectedCaseRun,
} from './case-workflow';
import {
  ADAPTIVE_PAYER_QUESTIONNAIRE,
  COVERAGE_REQUIREMENTS_DISCOVERY,
  PAYER_QUESTIONNAIRE,
  IN_PROCESS_STEPS_LOCALLY,
  INFORMATION_REQUESTS_BEFORE_MESSAGES,
  PRIOR_AUTHORIZATION_EXCHANGE,
  PRIOR_AUTHORIZATION_INFORMATION_REQUESTS,
} from './patches';
import { checkPrescriber } from './prescriber-registry';
import {
  priorAuthorizationInformationSignal,
  priorAuthorizationOutcomeSignal,
  reviewDecisionSignal,
  submitPriorAuthorizationInformationUpdate,
  submitPriorAuthorizationOutcomeUpdate,
  submitReviewDecisionUpdate,
} from './prior-authorization.messages';
import {
  approvalWaits,
  awaitDecisionAskingNextQuestions,
  retryAfterRounds,
  namedQuestionnaire,
  questionnaireAnswersDecision,
  refuseApprovalWhilePending,
} from './payer-questionnaire';

type CaseActivities = ReturnType<typeof createCaseActivities>;
type Lifecycle = CaseLifecycle<PriorAuthorizationCase>;
type Review = NonNullable<PriorAuthorizationCase['review']>;

const REVIEW_EXPIRED = ending(
  'No review decision before the review deadline.',
  CASE_FAILURE_CODE.reviewExpired,
  'No reviewer decided before the review deadline.',
);

/** Asked when a reviewer records that the payer wants more information without saying what. */
const REVIEWER_RECORDED_QUESTION = {
  id: 'payer_request',
  text: 'The payer asked for more information; see the payer’s request and answer it here.',
};

/**
 * What the steps of one run share. The handlers keep each accepted decision here until the step
 * that acts on it clears it; they run between awaits, so steps read these fields afresh after each.
 */
interface PriorAuthorizationRun extends ConnectedCaseRun<
  PriorAuthorizationCase,
  PriorAuthorizationInput,
  CaseActivities
> {
  review?: ReviewDecisionInput;
  payerOutcome?: PriorAuthOutcomeInput;
  information?: PriorAuthInformationAnswers;
  /** Which payer protocol the case speaks, fixed once: a run continued as new carries it over. */
  exchange: boolean;
  /** How the case treats information requests (see the patch), fixed once per run when it reaches the payer. */
  requests: boolean;
  /** The payer's inquiries (the old activities' checks) and the provider's answer rounds, across runs. */
  payerChecksSoFar: number;
  informationRounds: number;
  /** An adaptive questionnaire's state between `$next-question` rounds, while the case awaits review. */
  adaptive?: AdaptiveQuestionnaireState;
  /** How many times people answered an adaptive questionnaire, and how many its DTR service was asked about. */
  adaptiveAnswers: number;
  adaptiveAnswersAsked: number;
  /** After a failed round, how long until its service is asked again unprompted. */
  adaptiveRetryMs?: number;
}

/** How a prior authorization ends when the payer stays unreachable, or its work fails otherwise. */
export const UNREACHABLE_PAYER_ENDING = unreachableEnding('payer', 'no determination was made');

/**
 * processing → awaiting_review → awaiting_outcome → completed | failed, or cancelled until final.
 * Reviewers decide with signals (Temporal Web, CLI) or updates (the HTTP API); both paths share one
 * handler, and a decision that does not fit the status is refused and changes nothing. While
 * awaiting_outcome the payer may ask for information (`pending_request`), which the provider answers.
 * A run continued as new resumes at the step its status names.
 */
export async function priorAuthorizationWorkflow(
  input: PriorAuthorizationInput,
): Promise<PriorAuthorizationCase> {
  const run = openPriorAuthorization(input);
  const { record } = run;
  return runCase(run, UNREACHABLE_PAYER_ENDING, async () => {
    if (record.status === 'processing' && !(await prepareForReview(run))) return;
    run.requests = run.exchange && patched(PRIOR_AUTHORIZATION_INFORMATION_REQUESTS);
    if (record.status === 'awaiting_review') {
      const approved = await awaitReview(run);
      if (!approved || !(await submitToPayer(run, approved))) return;
    }
    if (run.exchange) await awaitDetermination(run);
    else await awaitLegacyDetermination(run);
  });
}

/** Opens the case and registers its handlers before the workflow's first await (see openCase). */
function openPriorAuthorization(input: PriorAuthorizationInput): PriorAuthorizationRun {
  const run: PriorAuthorizationRun = {
    ...openConnectedCase(input, 'prior_authorization.updated', PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS),
    exchange: input.payerExchange ?? false,
    requests: false,
    payerChecksSoFar: input.payerChecksSoFar ?? 0,
    informationRounds: input.informationRoundsSoFar ?? 0,
    adaptiveAnswers: 0,
    adaptiveAnswersAsked: 0,
  };
  // A message that came with a continued run's start is checked as its handler is registered, before
  // the steps run: the run must treat information requests by then, or an outcome sent after the
  // provider's answers is taken over them instead of refused.
  if (run.exchange && patched(INFORMATION_REQUESTS_BEFORE_MESSAGES))
    run.requests = patched(PRIOR_AUTHORIZATION_INFORMATION_REQUESTS);
  acceptPriorAuthorizationDecisions(run);
  return run;
}

/** The review decision, the payer's outcome as a reviewer records it, and the provider's answers. */
function acceptPriorAuthorizationDecisions(run: PriorAuthorizationRun): void {
  const { lifecycle, record, cancellation } = run;
  acceptCaseDecisions(run, [
    {
      signal: reviewDecisionSignal,
      update: submitReviewDecisionUpdate,
      check: () => refuseUnlessAwaiting(run, 'awaiting_review', run.review, 'A review decision'),
      checkInput: (decision: ReviewDecisionInput) => refuseApprovalWhilePending(run, decision),
      keep: (decision: ReviewDecisionInput) => {
        // A signal is not checked on its way in: an approval the questionnaire still waits for is dropped.
        if (approvalWaits(run, decision)) return;
        run.review = decision;
      },
    },
    {
      signal: priorAuthorizationOutcomeSignal,
      update: submitPriorAuthorizationOutcomeUpdate,
      check: () => {
        refuseUnlessAwaiting(run, 'awaiting_outcome', run.payerOutcome, 'An outcome');
        // The provider's answers are on their way to the payer, whose reply decides what comes next.
        if (run.requests && run.information) refuse('The case is already acting on another decision.');
      },
      keep: (outcome: PriorAuthOutcomeInput) => {
        run.payerOutcome = outcome;
      },
      // A recorded information request leaves the case awaiting_outcome: answer once it shows.
      answer: (apply) => answerOnceTaken(lifecycle, () => run.payerOutcome, apply),
    },
    {
      signal: priorAuthorizationInformationSignal,
      update: submitPriorAuthorizationInformationUpdate,
      check: () => {
        if (record.status !== 'awaiting_outcome' || !record.pending_request) {
          refuse(
            `Information is accepted only while the payer's information request is pending; this case is ${record.status} with none pending.`,
          );
        }
        if (run.information || run.payerOutcome || cancellation.requested()) {
          refuse('The case is already acting on another decision.');
        }
      },
      checkInput: (answers: PriorAuthInformationAnswers) =>
        refuseIssues(informationAnswerIssues(record.pending_request!, answers)),
      keep: (answers: PriorAuthInformationAnswers) => {
        run.information = answers;
      },
      answer: (apply) => answerOnceTaken(lifecycle, () => run.information, apply),
    },
    questionnaireAnswersDecision(run),
  ]);
}

/** Outage deadlines follow the case's own: the payer's, once submitted; the review target before. */
function outageDeadline({ record, input }: PriorAuthorizationRun): (since: number) => number {
  return (since) => {
    const own = Date.parse(record.due_at ?? record.review_due_at ?? '');
    return own > since ? own : since + (input.timings.outage?.deadlineMs ?? 0);
  };
}

/** Whether a decision waits for the case to act on it. */
function decisionReceived(run: PriorAuthorizationRun): boolean {
  return (
    run.payerOutcome !== undefined ||
    run.information !== undefined ||
    run.cancellation.requested() !== undefined
  );
}

/**
 * Reads the case's documents and shows its insurance card, then finds the plan and prefills the
 * criteria for the reviewer. Says whether the case awaits review; it ends when cancelled meanwhile or
 * when its card could not be read.
 */
async function prepareForReview(run: PriorAuthorizationRun): Promise<boolean> {
  const { lifecycle, record, cancellation } = run;
  await lifecycle.announceCreation();
  await checkPrescriber(record);
  const { request } = record;
  const cards = [...request.insurance, ...(request.patient.insurance ?? [])];
  const assets = request.evidence.flatMap((item) => (item.asset ? [item.asset] : []));
  await readCaseDocuments(record, [...cards, ...assets]);
  await showInsuranceCard(record, {
    documentIds: cards.map((document) => document.document_id),
    content: request.insurance_content,
  });
  const cardGap = await run.outages.call(
    () => resolvePlanAndPrefill(record, run.connector, run.inProcess),
    outageDeadline(run),
  );
  if (await cancellation.cancelIfRequested()) return false;
  if (cardGap) {
    await failWith(lifecycle, ending('The insurance card could not be read.', cardGap.code, cardGap.reason));
    return false;
  }
  const requirements = patched(COVERAGE_REQUIREMENTS_DISCOVERY) ? await discoverRequirements(run) : undefined;
  // A cancellation that arrived while the payer was asked wins over its answer.
  if (requirements && (await cancellation.cancelIfRequested())) return false;
  if (requirements && authorizationNotNeeded(requirements)) {
    await endWithOutcome(lifecycle, noAuthorizationOutcome(requirements), PAYER_NEEDS_NO_AUTHORIZATION);
    return false;
  }
  const canonical = patched(PAYER_QUESTIONNAIRE) ? namedQuestionnaire(requirements) : undefined;
  const prefill = canonical ? await prefillQuestionnaire(run, canonical) : undefined;
  if (prefill && (await cancellation.cancelIfRequested())) return false;
  await lifecycle.moveTo('awaiting_review', preparedForReview(requirements, record.questionnaire, prefill));
  return true;
}

/** How the questionnaire was had: static, or adaptive, and then whether its service failed its last round. */
type QuestionnairePrefill = { adaptive: false } | { adaptive: true; lastRoundFailed: boolean };

/**
 * Asks the payer's DTR service for the questionnaire CRD named and prefills it with the payer's CQL
 * from the record (docs/dtr.md); the status move that follows writes it. A service that gives
 * nothing, or CQL cut at its time limit, leaves the items to people, with the reason on the case.
 */
async function prefillQuestionnaire(
  run: PriorAuthorizationRun,
  canonical: string,
): Promise<QuestionnairePrefill> {
  const { record, input } = run;
  const answer = await run.connector.prefillPayerQuestionnaire({
    caseId: record.id,
    accountId: input.accountId,
    mode: record.livemode ? 'live' : 'test',
    canonical,
    request: record.request,
  });
  if (answer.kind !== 'prefilled') return { adaptive: false };
  // An adaptive questionnaire's service is asked again as people answer, while the case awaits review.
  if (answer.adaptive && patched(ADAPTIVE_PAYER_QUESTIONNAIRE)) {
    run.adaptive = answer.adaptive;
    run.adaptiveRetryMs = retryAfterRounds(run, answer.last_round_failed);
  }
  // The case says so itself, for its readers (the console's wording); derived here so a case prefilled
  // before the field existed gains it, from the same history, with its next change.
  const questionnaire = { ...answer.questionnaire, adaptive: run.adaptive !== undefined };
  // The sandbox's packages name their items by the catalog's criteria; a live payer's items are its own.
  record.questionnaire = record.livemode ? questionnaire : withProposals(questionnaire, record.criteria);
  return run.adaptive
    ? { adaptive: true, lastRoundFailed: answer.last_round_failed === true }
    : { adaptive: false };
}

const PAYER_NEEDS_NO_AUTHORIZATION =
  "The payer's coverage requirements discovery (CRD) says this order needs no prior authorization.";

/**
 * Asks the payer's CRD service what the order requires and keeps its answer on the case, or the
 * reason it gave none to act on; the status move that follows writes it. Answers what the case keeps;
 * nothing where the case did not ask (a live account without the connector, a drug whose
 * authorization does not go over PAS). The sandbox's service answers in process, as a local activity.
 */
async function discoverRequirements(run: PriorAuthorizationRun): Promise<CoverageRequirements | undefined> {
  const { record, input } = run;
  const { request } = record;
  const mode = record.livemode ? 'live' : 'test';
  const benefit = record.coverage?.benefit_type ?? null;
  if (!asksCoverageRequirements(mode, benefit)) return undefined;
  const calls = record.livemode ? run.connector : run.inProcess;
  const answer = await calls.discoverCoverageRequirements({
    caseId: record.id,
    accountId: input.accountId,
    mode,
    patient: request.patient,
    prescription: request.prescription,
    provider: request.provider,
    plan: record.plan,
    benefit,
    diagnoses: request.diagnoses,
    mock: sandboxCrdMock(request.mock_result),
    ...(record.prescriber_registry && { prescriber: record.prescriber_registry }),
  });
  if (answer.kind === 'not_asked') return undefined;
  record.coverage_requirements = answer.requirements;
  return answer.requirements;
}

/**
 * The status move's reason, naming what fell short: the service that could not give the questionnaire
 * (or, for an adaptive one, its next questions) or the payer's CQL that could not prefill it.
 */
function preparedForReview(
  requirements: CoverageRequirements | undefined,
  questionnaire: CaseQuestionnaire | null | undefined,
  prefill: QuestionnairePrefill | undefined,
): string {
  const prepared = preparedForReviewOn(requirements);
  if (!questionnaire) return prepared;
  if (questionnaire.items.length === 0)
    return questionnaire.prefill_failure
      ? `${prepared} The payer's questionnaire could not be fetched (${questionnaire.prefill_failure}); the review goes on the catalog's criteria.`
      : `${prepared} The payer's questionnaire asks nothing.`;
  const adaptive = prefill?.adaptive === true;
  if (questionnaire.prefill_failure && adaptive && prefill.lastRoundFailed)
    return `${prepared} The payer's DTR service did not serve the next questions of its adaptive questionnaire (${questionnaire.prefill_failure}); the questions it served are shown, and it is asked again.`;
  if (questionnaire.prefill_failure)
    return `${prepared} The payer's CQL did not prefill its questionnaire (${questionnaire.prefill_failure}); its items wait for a person.`;
  const pending = questionnaire.pending.length;
  if (adaptive && questionnaire.status !== 'completed')
    return `${prepared} The payer's adaptive questionnaire has ${pending} required item(s) the record could not answer; its DTR service asks more as they are answered.`;
  return pending === 0
    ? `${prepared} The payer's CQL answered every required item of its questionnaire.`
    : `${prepared} The payer's questionnaire has ${pending} required item(s) the record could not answer: ${questionnaire.pending.join(', ')}.`;
}

function preparedForReviewOn(requirements: CoverageRequirements | undefined): string {
  if (!requirements) return 'Prepared for clinical review.';
  if (requirements.fallback_reason)
    return `Prepared for clinical review on the catalog's criteria: the payer's coverage requirements could not be used (${requirements.fallback_reason}).`;
  const said = requirements.pa_needed ?? `the order is ${requirements.covered ?? 'of unknown coverage'}`;
  return `Prepared for clinical review: the payer's coverage requirements say ${said}.`;
}

/** A `satisfied` order names the authorization on file that covers it: the case's authorization number. */
function noAuthorizationOutcome(requirements: CoverageRequirements): PriorAuthorizationOutcome {
  return {
    result: 'approved',
    detail_code: 'prior_auth_not_required',
    detail: PAYER_NEEDS_NO_AUTHORIZATION,
    payer_reference: null,
    decided_at: new Date().toISOString(),
    authorization_number: requirements.satisfied_pa_id,
    approved_quantity: null,
    authorization_start_date: null,
    authorization_expiration: null,
  };
}

/**
 * Finds the plan and prefills the criteria. A case that read its cards and relies on them alone is
 * not prepared when they give no member id it can trust: what was not read is returned instead.
 */
async function resolvePlanAndPrefill(
  record: PriorAuthorizationCase,
  activities: CaseActivities,
  inProcess: CaseActivities,
): Promise<{ code: string; reason: string } | undefined> {
  const { request } = record;
  const resolvePlan = patched(IN_PROCESS_STEPS_LOCALLY) ? inProcess : activities;
  const resolution = await resolvePlan.resolveCasePlan({
    documentIds: [...request.insurance, ...(request.patient.insurance ?? [])].map(
      (document) => document.document_id,
    ),
    content: request.insurance_content,
  });
  // Only a case that read its documents can be missing a card's fields; older ones never fail here.
  if (!resolution.resolved && resolution.code && record.documents)
    return { code: resolution.code, reason: resolution.reason };
  const plan = resolution.resolved ? resolution.plan : null;
  const prefill = await activities.prefillPriorAuthorization({
    plan,
    drug: {
      name: request.prescription.drug_name,
      ndc: request.prescription.ndc,
      dosage: request.prescription.dosage,
      quantity: request.prescription.quantity,
    },
    patient: { date_of_birth: request.patient.date_of_birth, gender: request.patient.gender },
    diagnoses: request.diagnoses,
    evidence: request.evidence,
    questionnaires: request.questionnaires,
    visitNotes: request.visit_notes,
    ...mockOutageUntil(record, request.mock_result?.outage),
  });
  Object.assign(record, {
    plan,
    coverage: prefill.coverage,
    criteria: prefill.criteria,
    ...(prefill.unread ? { unread_evidence: prefill.unread } : {}),
  });
  return undefined;
}

/**
 * Waits for a reviewer's decision, recording a reminder when the reminder time passes first. Answers
 * the approved review; nothing when the case ended instead (expired, cancelled or rejected).
 */
async function awaitReview(run: PriorAuthorizationRun): Promise<Review | undefined> {
  const { lifecycle, cancellation, input } = run;
  const decided = () => run.review !== undefined || cancellation.requested() !== undefined;
  // Only an adaptive questionnaire's cases (patch `adaptive-payer-questionnaire`) wake for answers too.
  const waitForDecision = (timeoutMs: number) =>
    run.adaptive ? awaitDecisionAskingNextQuestions(run, decided, timeoutMs) : condition(decided, timeoutMs);
  if (!(await waitForDecision(input.timings.reviewReminderMs))) {
    await lifecycle.update({ review_reminder_at: new Date().toISOString() });
    const remaining = Math.max(input.timings.reviewExpiryMs - input.timings.reviewReminderMs, 1);
    if (!(await waitForDecision(remaining))) {
      await failWith(lifecycle, REVIEW_EXPIRED);
      return undefined;
    }
  }
  if (await cancellation.cancelIfRequested()) return undefined;
  const decision = run.review!;
  const reviewed = { ...decision, decided_at: new Date().toISOString() };
  if (decision.decision === 'reject') {
    await lifecycle.moveTo('failed', 'Rejected at clinical review.', {
      review: reviewed,
      failure: {
        code: CASE_FAILURE_CODE.rejectedAtReview,
        message: 'A clinical reviewer rejected the request.',
      },
    });
    return undefined;
  }
  return reviewed;
}

/**
 * Submits the approved request and moves the case to awaiting_outcome: through the exchange, acting
 * on the payer's first answer at once, or, in runs recorded before it, with the old activities.
 * Says whether the case still awaits the payer's outcome.
 */
async function submitToPayer(run: PriorAuthorizationRun, review: Review): Promise<boolean> {
  const { lifecycle, record, input } = run;
  run.exchange = patched(PRIOR_AUTHORIZATION_EXCHANGE);
  if (!run.exchange) {
    const submission = await run.connector.submitPriorAuthorization(legacySubmissionOf(record));
    await lifecycle.moveTo('awaiting_outcome', 'Approved at review and submitted to the payer.', {
      review,
      submission: { payer_reference: submission.payer_reference, submitted_at: new Date().toISOString() },
    });
    return true;
  }
  run.requests = patched(PRIOR_AUTHORIZATION_INFORMATION_REQUESTS);
  const firstAnswer = await run.outages.call(
    () => run.connector.submitPriorAuthorizationRequest(exchangeOf(record, input.accountId)),
    outageDeadline(run),
  );
  if (firstAnswer.kind === 'not_submitted') {
    await failNotSubmitted(lifecycle, notSubmittedOutcome(firstAnswer), { review });
    return false;
  }
  const receivedAt = new Date();
  await lifecycle.moveTo('awaiting_outcome', 'Approved at review and submitted to the payer.', {
    review,
    submission: { payer_reference: firstAnswer.payer_reference, submitted_at: receivedAt.toISOString() },
    due_at: input.payerDeadlines
      ? payerDueAt(
          receivedAt,
          planTypeOf(record),
          record.urgency,
          input.payerDeadlines,
          record.coverage?.benefit_type,
        )
      : record.due_at,
    pending_request: run.requests && firstAnswer.kind === 'pended' ? firstAnswer.information_request : null,
  });
  return !(await settle(lifecycle, firstAnswer, run.requests));
}

/**
 * Waits for the payer's determination through the exchange. Each turn flags a passed payer deadline
 * once, then acts on what came first: a reviewer's record of the outcome, the provider's answers to
 * an information request, or else an inquiry to the payer.
 */
async function awaitDetermination(run: PriorAuthorizationRun): Promise<void> {
  const { lifecycle, record, input } = run;
  while (record.status === 'awaiting_outcome') {
    await condition(
      () => decisionReceived(run),
      waitForPayer(record, input.timings.payerPollIntervalMs, { untilAnswersDue: run.requests }),
    );
    if (overdueUnannounced(record)) {
      await lifecycle.update({ overdue: true });
      await lifecycle.announce('prior_authorization.overdue');
    }
    if (await run.cancellation.cancelIfRequested()) return;
    if (run.payerOutcome) await recordReviewerOutcome(run, run.payerOutcome);
    else if (run.information) await answerInformationRequest(run, run.information);
    else await inquirePayer(run);
  }
}

/** Sends the provider's answers to the payer as the next round, and acts on the payer's reply. */
async function answerInformationRequest(
  run: PriorAuthorizationRun,
  answers: PriorAuthInformationAnswers,
): Promise<void> {
  const { record, input } = run;
  record.request = withInformation(record.request, answers);
  run.informationRounds += 1;
  const reply = await run.outages.call(
    () =>
      run.connector.answerPriorAuthorizationInformation({
        ...exchangeOf(record, input.accountId),
        payer_reference: record.submission!.payer_reference,
        answers: answers.answers,
        round: run.informationRounds,
        addedEvidence: addedEvidence(record.request, answers),
      }),
    outageDeadline(run),
  );
  await settleAnswered(run.lifecycle, reply, run.requests);
  // Cleared only now, so the provider's update answers with what the payer made of the answers.
  run.information = undefined;
}

/**
 * Asks the payer how the request stands and acts on its answer; a long wait continues as new after
 * an inquiry. While the payer is down, a reviewer's outcome or the provider's answers are taken at
 * once, and a payer deadline passing is announced before the outage can end the case.
 */
async function inquirePayer(run: PriorAuthorizationRun): Promise<void> {
  const { record, input } = run;
  // The payer waits for the provider's answers: asking it again would only hear that.
  if (run.requests && answersAwaited(record)) return;
  const reply = await run.outages.poll(
    () =>
      run.connector.inquirePriorAuthorization({
        ...exchangeOf(record, input.accountId, { slim: true }),
        payer_reference: record.submission!.payer_reference,
        inquiriesSoFar: run.payerChecksSoFar,
      }),
    () => decisionReceived(run) || overdueUnannounced(record),
    outageDeadline(run),
  );
  if (reply === undefined) return;
  run.payerChecksSoFar += 1;
  if (await settle(run.lifecycle, reply, run.requests)) return;
  // A decision that arrived during the inquiry is handled by the next turn.
  if (decisionReceived(run)) return;
  await continueAsNewIfLong<PriorAuthorizationInput>({
    ...input,
    case: record,
    payerChecksSoFar: run.payerChecksSoFar,
    informationRoundsSoFar: run.informationRounds,
    payerExchange: true,
  });
}

/** Cases submitted before the exchange: checked with the old activities, as their histories recorded. */
async function awaitLegacyDetermination(run: PriorAuthorizationRun): Promise<void> {
  const { lifecycle, record, cancellation, input } = run;
  while (record.status === 'awaiting_outcome') {
    const dueIn = Date.parse(record.due_at!) - Date.now();
    const wait = record.overdue
      ? input.timings.payerPollIntervalMs
      : Math.min(input.timings.payerPollIntervalMs, Math.max(dueIn, 1));
    await condition(() => run.payerOutcome !== undefined || cancellation.requested() !== undefined, wait);
    if (!record.overdue && Date.now() >= Date.parse(record.due_at!))
      await lifecycle.update({ overdue: true });
    if (await cancellation.cancelIfRequested()) return;
    if (run.payerOutcome) {
      await endWithOutcome(
        lifecycle,
        fromOutcomeInput(run.payerOutcome, record.submission?.payer_reference ?? null),
        'Outcome recorded by a reviewer.',
      );
      return;
    }
    const determination = await run.connector.checkPriorAuthDetermination({
      ...legacySubmissionOf(record),
      payer_reference: record.submission!.payer_reference,
      checksSoFar: run.payerChecksSoFar,
    });
    run.payerChecksSoFar += 1;
    if (determination) {
      await endWithOutcome(lifecycle, { ...determination }, 'Determination received from the payer.');
      return;
    }
    // A decision that arrived during the check is handled by the next turn, not carried over.
    if (run.payerOutcome || cancellation.requested()) continue;
    await continueAsNewIfLong<PriorAuthorizationInput>({
      ...input,
      case: record,
      payerChecksSoFar: run.payerChecksSoFar,
    });
  }
}

/**
 * What a payer channel needs. An inquiry names a request the payer already holds, so it leaves the
 * clinical record out: each inquiry's input stays in history, and a case polls for days.
 */
function exchangeOf(
  record: PriorAuthorizationCase,
  accountId: string,
  { slim }: { slim: boolean } = { slim: false },
): PriorAuthExchangeInput {
  return {
    caseId: record.id,
    accountId,
    livemode: record.livemode,
    request: slim ? { ...record.request, evidence: [], questionnaires: [], visit_notes: [] } : record.request,
    plan: record.plan,
    urgency: record.urgency,
    criteria: record.criteria,
    ...(record.questionnaire && !slim ? { questionnaire: record.questionnaire } : {}),
    ...(record.prescriber_registry && { prescriber: record.prescriber_registry }),
  };
}

function planTypeOf(record: PriorAuthorizationCase) {
  return record.plan?.plan_type ?? record.request.insurance_content?.plan_type ?? null;
}

/**
 * Until the payer's deadline, wake at it (to flag the case overdue); otherwise at the poll interval.
 * While the payer waits for answers (`untilAnswersDue`), nothing is polled: the case wakes at the
 * request's due date, or earlier at the payer's deadline or a decision.
 */
function waitForPayer(
  record: PriorAuthorizationCase,
  pollIntervalMs: number,
  { untilAnswersDue }: { untilAnswersDue: boolean },
): number {
  const untilDue = (at: string) => Math.max(Date.parse(at) - Date.now(), 1);
  const deadline = record.overdue || !record.due_at ? Infinity : untilDue(record.due_at);
  const asked = untilAnswersDue && answersAwaited(record) ? untilDue(record.pending_request!.due_at) : null;
  return Math.min(asked ?? pollIntervalMs, deadline);
}

/** Whether the payer's deadline passed without the case flagging it overdue yet. */
function overdueUnannounced(record: PriorAuthorizationCase): boolean {
  return !record.overdue && !!record.due_at && Date.now() >= Date.parse(record.due_at);
}

/** Whether the payer waits for the provider's answers to a request not yet past its due date. */
function answersAwaited(record: PriorAuthorizationCase): boolean {
  return !!record.pending_request && Date.now() < Date.parse(record.pending_request.due_at);
}

/**
 * Acts on the payer's answer; says whether the case is final. Under the information-requests patch
 * (`requests`), a payer that pends without asking leaves the shown request standing (it did not
 * withdraw it), and a changed request is announced.
 */
async function settle(
  lifecycle: Lifecycle,
  answer: PayerPriorAuthAnswer,
  requests: boolean,
): Promise<boolean> {
  const { record } = lifecycle;
  if (answer.kind === 'pended') {
    const shown = record.pending_request ?? null;
    const asked = answer.information_request ?? (requests ? shown : null);
    if (!sameRequest(shown, asked)) await showRequest(lifecycle, asked, requests);
    return false;
  }
  if (answer.kind === 'not_submitted') {
    await failNotSubmitted(lifecycle, notSubmittedOutcome(answer));
    return true;
  }
  const { determination } = answer;
  await endWithOutcome(
    lifecycle,
    { ...determination, payer_reference: answer.payer_reference },
    'Determination received from the payer.',
  );
  return true;
}

/**
 * The payer asks again at each inquiry; the same questions are the same request, whose due date the
 * case keeps as first shown.
 */
function sameRequest(shown: InformationRequest | null, asked: InformationRequest | null): boolean {
  if (!shown || !asked) return shown === asked;
  const ids = (request: InformationRequest) => request.questions.map((question) => question.id).join('\n');
  return ids(shown) === ids(asked);
}

/**
 * Acts on the payer's reply to the provider's answers, which close the request they answered: a
 * payer still deciding shows its next request, if any, as a new round.
 */
async function settleAnswered(
  lifecycle: Lifecycle,
  reply: PayerPriorAuthAnswer,
  requests: boolean,
): Promise<void> {
  if (!requests) {
    await lifecycle.update({ pending_request: null, request: lifecycle.record.request });
    await settle(lifecycle, reply, false);
  } else if (reply.kind !== 'pended') {
    await settle(lifecycle, reply, true);
  } else {
    await showRequest(lifecycle, reply.information_request, true);
  }
}

/** Shows (or clears) the payer's information request; announced, integrators learn of it without polling. */
async function showRequest(
  lifecycle: Lifecycle,
  request: InformationRequest | null,
  announce: boolean,
): Promise<void> {
  await lifecycle.update({ pending_request: request });
  if (announce) await lifecycle.announce('prior_authorization.updated');
}

/**
 * A reviewer's record of the payer's answer: `other` + `more_information_required` is the payer's
 * request for information (the case keeps waiting, and takes the next outcome); anything else ends
 * the case.
 */
async function recordReviewerOutcome(
  run: PriorAuthorizationRun,
  outcome: PriorAuthOutcomeInput,
): Promise<void> {
  const { lifecycle, record } = run;
  if (outcome.result === 'other' && outcome.detail_code === MORE_INFORMATION_REQUIRED) {
    const request: InformationRequest = {
      kind: 'information_requested',
      questions: [
        outcome.detail
          ? { id: REVIEWER_RECORDED_QUESTION.id, text: outcome.detail }
          : REVIEWER_RECORDED_QUESTION,
      ],
      due_at: outcome.information_due_at ?? record.due_at ?? new Date().toISOString(),
    };
    await showRequest(lifecycle, request, run.requests);
    run.payerOutcome = undefined;
    return;
  }
  await endWithOutcome(
    lifecycle,
    fromOutcomeInput(outcome, record.submission?.payer_reference ?? null),
    'Outcome recorded by a reviewer.',
  );
}

/** A determination ends the case `completed`; a request the payer did not accept ends it `failed`. */
async function endWithOutcome(
  lifecycle: Lifecycle,
  outcome: PriorAuthorizationOutcome,
  reason: string,
): Promise<void> {
  if (outcome.result === 'not_submitted') {
    await failNotSubmitted(lifecycle, outcome);
    return;
  }
  const cleared = 'pending_request' in lifecycle.record ? { pending_request: null } : {};
  await lifecycle.moveTo('completed', reason, { outcome, ...cleared });
}

function notSubmittedOutcome(
  answer: Extract<PayerPriorAuthAnswer, { kind: 'not_submitted' }>,
): PriorAuthorizationOutcome {
  return {
    result: 'not_submitted',
    detail_code: answer.reason_code,
    detail: answer.reason,
    payer_reference: answer.payer_reference,
    decided_at: new Date().toISOString(),
    authorization_number: null,
    approved_quantity: null,
    authorization_start_date: null,
    authorization_expiration: null,
  };
}

async function failNotSubmitted(
  lifecycle: Lifecycle,
  outcome: PriorAuthorizationOutcome,
  changes: Partial<PriorAuthorizationCase> = {},
): Promise<void> {
  await lifecycle.moveTo('failed', 'The payer did not accept the request.', {
    ...changes,
    outcome,
    pending_request: null,
    // The reason's text stays in outcome.detail: a reviewer's free text is no failure message.
    failure: {
      code: CASE_FAILURE_CODE.notSubmitted,
      message: 'The payer did not accept the request for review.',
    },
  });
}

/** The old activities' submission; only cases that can hold no newer mock result reach them. */
function legacySubmissionOf(record: PriorAuthorizationCase) {
  const { prescription, mock_result } = record.request;
  return {
    caseId: record.id,
    plan: record.plan,
    drug: {
      name: prescription.drug_name,
      ndc: prescription.ndc,
      dosage: prescription.dosage,
      quantity: prescription.quantity,
    },
    urgency: record.urgency,
    criteria: record.criteria,
    mockResult: (mock_result ?? undefined) as { result: PriorAuthResult; detail_code?: string } | undefined,
  };
}

function fromOutcomeInput(
  input: PriorAuthOutcomeInput,
  payerReference: string | null,
): PriorAuthorizationOutcome {
  return {
    result: input.result,
    detail_code: input.detail_code ?? null,
    detail: input.detail ?? null,
    payer_reference: input.payer_reference ?? payerReference,
    decided_at: new Date().toISOString(),
    authorization_number: input.authorization_number ?? null,
    approved_quantity: input.approved_quantity ?? null,
    authorization_start_date: input.authorization_start_date ?? null,
    authorization_expiration: input.authorization_expiration ?? null,
  };
}
