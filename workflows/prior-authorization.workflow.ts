import { condition, patched } from '@temporalio/workflow';

import type { createCaseActivities } from '../activities/cases.activities';
import {
  addedEvidence,
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
import type {
  InformationRequest,
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
} from '../domain/payers/prior-authorization-exchange';
import { verifyAccountBindingFirst } from './case-binding';
import { readCaseDocuments, showInsuranceCard } from './case-documents';
import { ending, DEFAULT_FAILURE_ENDINGS } from './case-failures';
import { CaseLifecycle, endOnError, refuse } from './case-lifecycle';
import { ConnectorOutages } from './case-outages';
import { acceptDecisions, connectorCalls, continueAsNewIfLong, failWith, openCase } from './case-workflow';
import {
  IN_PROCESS_STEPS_LOCALLY,
  PRIOR_AUTHORIZATION_EXCHANGE,
  PRIOR_AUTHORIZATION_INFORMATION_REQUESTS,
} from './patches';
import {
  priorAuthorizationInformationSignal,
  priorAuthorizationOutcomeSignal,
  reviewDecisionSignal,
  submitPriorAuthorizationInformationUpdate,
  submitPriorAuthorizationOutcomeUpdate,
  submitReviewDecisionUpdate,
} from './prior-authorization.messages';

type CaseActivities = ReturnType<typeof createCaseActivities>;
type Lifecycle = CaseLifecycle<PriorAuthorizationCase>;

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
 * processing → awaiting_review → awaiting_outcome → completed | failed, or cancelled until final.
 * Reviewers decide with signals (Temporal Web, CLI) or updates (the HTTP API); both paths share one
 * handler, and a decision that does not fit the status is refused and changes nothing. While
 * awaiting_outcome the payer may ask for information (`pending_request`), which the provider answers.
 */
export async function priorAuthorizationWorkflow(
  input: PriorAuthorizationInput,
): Promise<PriorAuthorizationCase> {
  const { lifecycle, record, cancellation } = openCase(
    input,
    'prior_authorization.updated',
    PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS,
  );
  // After openCase: it refuses a start that is not a case before anything reads the input.
  const { remote: payer, inProcess } = connectorCalls<CaseActivities>(input.timings.connectorRetry);
  let review: ReviewDecisionInput | undefined;
  let payerOutcome: PriorAuthOutcomeInput | undefined;
  let information: PriorAuthInformationAnswers | undefined;
  // How the case treats information requests (see the patch), fixed once per run when it reaches the payer.
  let requests = false;
  // Read through functions: handlers set these between awaits, which flow analysis cannot see.
  const received = () => ({ payerOutcome, information, cancellation: cancellation.requested() });
  const outages = new ConnectorOutages(
    lifecycle,
    'prior_authorization.updated',
    input.timings.outage,
    cancellation.requested,
  );
  /** Outage deadlines follow the case's own: the payer's, once submitted; the review target before. */
  const outageDeadline = (since: number) => {
    const own = Date.parse(record.due_at ?? record.review_due_at ?? '');
    return own > since ? own : since + (input.timings.outage?.deadlineMs ?? 0);
  };

  acceptDecisions(lifecycle, [
    {
      signal: reviewDecisionSignal,
      update: submitReviewDecisionUpdate,
      check: () => {
        if (record.status !== 'awaiting_review' || review || cancellation.requested()) {
          refuse(`A review decision needs status awaiting_review; this case is ${record.status}.`);
        }
      },
      keep: (decision: ReviewDecisionInput) => {
        review = decision;
      },
    },
    {
      signal: priorAuthorizationOutcomeSignal,
      update: submitPriorAuthorizationOutcomeUpdate,
      check: () => {
        if (record.status !== 'awaiting_outcome' || payerOutcome || cancellation.requested()) {
          refuse(`An outcome needs status awaiting_outcome; this case is ${record.status}.`);
        }
        // The provider's answers are on their way to the payer, whose reply decides what comes next.
        if (requests && information) refuse('The case is already acting on another decision.');
      },
      keep: (outcome: PriorAuthOutcomeInput) => {
        payerOutcome = outcome;
      },
      // A recorded information request leaves the case awaiting_outcome: answer once it shows.
      answer: async (apply) => {
        apply();
        await condition(() => payerOutcome === undefined || lifecycle.isFinal);
        return record;
      },
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
        if (information || payerOutcome || cancellation.requested()) {
          refuse('The case is already acting on another decision.');
        }
      },
      keep: (answers: PriorAuthInformationAnswers) => {
        information = answers;
      },
      answer: async (apply) => {
        apply();
        await condition(() => information === undefined || lifecycle.isFinal);
        return record;
      },
    },
    cancellation.decision,
    ...outages.decisions,
  ]);
  await verifyAccountBindingFirst(input);

  try {
    if (record.status === 'processing') {
      await lifecycle.announceCreation();
      const { request } = record;
      const cards = [...request.insurance, ...(request.patient.insurance ?? [])];
      const assets = request.evidence.flatMap((item) => (item.asset ? [item.asset] : []));
      await readCaseDocuments(record, [...cards, ...assets]);
      await showInsuranceCard(record, {
        documentIds: cards.map((document) => document.document_id),
        content: request.insurance_content,
      });
      const cardGap = await outages.call(() => prepare(record, payer, inProcess), outageDeadline);
      if (await cancellation.cancelIfRequested()) return record;
      if (cardGap) {
        await failWith(
          lifecycle,
          ending('The insurance card could not be read.', cardGap.code, cardGap.reason),
        );
        return record;
      }
      await lifecycle.moveTo('awaiting_review', 'Prepared for clinical review.');
    }

    // Which payer protocol the case speaks, fixed once: a run continued as new carries it over.
    let exchange = input.payerExchange ?? false;
    requests = exchange && patched(PRIOR_AUTHORIZATION_INFORMATION_REQUESTS);
    let firstAnswer: PayerPriorAuthAnswer | undefined;
    if (record.status === 'awaiting_review') {
      const decided = () => review !== undefined || cancellation.requested() !== undefined;
      if (!(await condition(decided, input.timings.reviewReminderMs))) {
        await lifecycle.update({ review_reminder_at: new Date().toISOString() });
        const remaining = Math.max(input.timings.reviewExpiryMs - input.timings.reviewReminderMs, 1);
        if (!(await condition(decided, remaining))) {
          await failWith(lifecycle, REVIEW_EXPIRED);
          return record;
        }
      }
      if (await cancellation.cancelIfRequested()) return record;
      const decision = review!;
      const reviewed = { ...decision, decided_at: new Date().toISOString() };
      if (decision.decision === 'reject') {
        await lifecycle.moveTo('failed', 'Rejected at clinical review.', {
          review: reviewed,
          failure: {
            code: CASE_FAILURE_CODE.rejectedAtReview,
            message: 'A clinical reviewer rejected the request.',
          },
        });
        return record;
      }
      exchange = patched(PRIOR_AUTHORIZATION_EXCHANGE);
      if (exchange) {
        requests = patched(PRIOR_AUTHORIZATION_INFORMATION_REQUESTS);
        firstAnswer = await outages.call(
          () => payer.submitPriorAuthorizationRequest(exchangeOf(record, input.accountId)),
          outageDeadline,
        );
        if (firstAnswer.kind === 'not_submitted') {
          await failNotSubmitted(lifecycle, notSubmittedOutcome(firstAnswer), { review: reviewed });
          return record;
        }
        const receivedAt = new Date();
        await lifecycle.moveTo('awaiting_outcome', 'Approved at review and submitted to the payer.', {
          review: reviewed,
          submission: {
            payer_reference: firstAnswer.payer_reference,
            submitted_at: receivedAt.toISOString(),
          },
          due_at: input.payerDeadlines
            ? payerDueAt(
                receivedAt,
                planTypeOf(record),
                record.urgency,
                input.payerDeadlines,
                record.coverage?.benefit_type,
              )
            : record.due_at,
          pending_request: requests && firstAnswer.kind === 'pended' ? firstAnswer.information_request : null,
        });
      } else {
        const submission = await payer.submitPriorAuthorization(legacySubmissionOf(record));
        await lifecycle.moveTo('awaiting_outcome', 'Approved at review and submitted to the payer.', {
          review: reviewed,
          submission: { payer_reference: submission.payer_reference, submitted_at: new Date().toISOString() },
        });
      }
    }

    if (!exchange) {
      await awaitLegacyDetermination();
      return record;
    }

    let inquiriesSoFar = input.payerChecksSoFar ?? 0;
    let informationRounds = input.informationRoundsSoFar ?? 0;
    if (firstAnswer && (await settle(lifecycle, firstAnswer, requests))) return record;
    const decisionReceived = () => Object.values(received()).some((decision) => decision !== undefined);
    const overdueUnannounced = () =>
      !record.overdue && !!record.due_at && Date.now() >= Date.parse(record.due_at);
    while (record.status === 'awaiting_outcome') {
      await condition(
        decisionReceived,
        waitForPayer(record, input.timings.payerPollIntervalMs, { untilAnswersDue: requests }),
      );
      if (overdueUnannounced()) {
        await lifecycle.update({ overdue: true });
        await lifecycle.announce('prior_authorization.overdue');
      }
      if (await cancellation.cancelIfRequested()) return record;
      const outcome = received().payerOutcome;
      if (outcome) {
        if (await recordReviewerOutcome(lifecycle, outcome, requests)) return record;
        payerOutcome = undefined;
        continue;
      }
      const answers = received().information;
      if (answers) {
        record.request = withInformation(record.request, answers);
        informationRounds += 1;
        const reply = await outages.call(
          () =>
            payer.answerPriorAuthorizationInformation({
              ...exchangeOf(record, input.accountId),
              payer_reference: record.submission!.payer_reference,
              answers: answers.answers,
              round: informationRounds,
              addedEvidence: addedEvidence(record.request, answers),
            }),
          outageDeadline,
        );
        const final = await settleAnswered(lifecycle, reply, requests);
        // Cleared only now, so the provider's update answers with what the payer made of the answers.
        information = undefined;
        if (final) return record;
        continue;
      }
      // The payer waits for the provider's answers: asking it again would only hear that.
      if (requests && answersAwaited(record)) continue;
      // While the payer is down, a reviewer's outcome or the provider's answers are taken at once, and
      // a payer deadline passing is announced before the outage can end the case.
      const reply = await outages.poll(
        () =>
          payer.inquirePriorAuthorization({
            ...exchangeOf(record, input.accountId, { slim: true }),
            payer_reference: record.submission!.payer_reference,
            inquiriesSoFar,
          }),
        () => decisionReceived() || overdueUnannounced(),
        outageDeadline,
      );
      if (reply === undefined) continue;
      inquiriesSoFar += 1;
      if (await settle(lifecycle, reply, requests)) return record;
      // A decision that arrived during the inquiry is handled by the next turn.
      if (decisionReceived()) continue;
      await continueAsNewIfLong<PriorAuthorizationInput>({
        ...input,
        case: record,
        payerChecksSoFar: inquiriesSoFar,
        informationRoundsSoFar: informationRounds,
        payerExchange: true,
      });
    }
    return record;
  } catch (error) {
    await endOnError(lifecycle, error, cancellation.requested(), DEFAULT_FAILURE_ENDINGS.priorAuthorization);
    return record;
  }

  /** Cases submitted before the exchange: checked with the old activities, as their histories recorded. */
  async function awaitLegacyDetermination(): Promise<void> {
    let checksSoFar = input.payerChecksSoFar ?? 0;
    while (record.status === 'awaiting_outcome') {
      const dueIn = Date.parse(record.due_at!) - Date.now();
      const wait = record.overdue
        ? input.timings.payerPollIntervalMs
        : Math.min(input.timings.payerPollIntervalMs, Math.max(dueIn, 1));
      await condition(() => payerOutcome !== undefined || cancellation.requested() !== undefined, wait);
      if (!record.overdue && Date.now() >= Date.parse(record.due_at!))
        await lifecycle.update({ overdue: true });
      if (await cancellation.cancelIfRequested()) return;
      if (payerOutcome) {
        await endWithOutcome(
          lifecycle,
          fromOutcomeInput(payerOutcome, record.submission?.payer_reference ?? null),
          'Outcome recorded by a reviewer.',
        );
        return;
      }
      const determination = await payer.checkPriorAuthDetermination({
        ...legacySubmissionOf(record),
        payer_reference: record.submission!.payer_reference,
        checksSoFar,
      });
      checksSoFar += 1;
      if (determination) {
        await endWithOutcome(lifecycle, { ...determination }, 'Determination received from the payer.');
        return;
      }
      // A decision that arrived during the check is handled by the next turn, not carried over.
      if (payerOutcome || cancellation.requested()) continue;
      await continueAsNewIfLong<PriorAuthorizationInput>({
        ...input,
        case: record,
        payerChecksSoFar: checksSoFar,
      });
    }
  }
}

/**
 * Finds the plan and prefills the criteria. A case that read its cards and relies on them alone is
 * not prepared when they give no member id it can trust: what was not read is returned instead.
 */
async function prepare(
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
): Promise<boolean> {
  if (!requests) {
    await lifecycle.update({ pending_request: null, request: lifecycle.record.request });
    return settle(lifecycle, reply, false);
  }
  if (reply.kind !== 'pended') return settle(lifecycle, reply, true);
  await showRequest(lifecycle, reply.information_request, true);
  return false;
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
 * request for information (the case keeps waiting); anything else ends the case. Says whether it did.
 */
async function recordReviewerOutcome(
  lifecycle: Lifecycle,
  outcome: PriorAuthOutcomeInput,
  announce: boolean,
): Promise<boolean> {
  const { record } = lifecycle;
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
    await showRequest(lifecycle, request, announce);
    return false;
  }
  await endWithOutcome(
    lifecycle,
    fromOutcomeInput(outcome, record.submission?.payer_reference ?? null),
    'Outcome recorded by a reviewer.',
  );
  return true;
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
