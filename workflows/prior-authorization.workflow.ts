import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
  type RetryPolicy,
} from '@temporalio/workflow';

import type { createCaseActivities } from '../activities/cases.activities';
import type { CancelRequest } from '../domain/cases/case-model';
import { PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS } from '../domain/cases/prior-authorization';
import type {
  PriorAuthOutcomeInput,
  PriorAuthorizationCase,
  PriorAuthorizationInput,
  PriorAuthorizationOutcome,
  ReviewDecisionInput,
} from '../domain/cases/prior-authorization';
import { verifyAccountBindingFirst } from './case-binding';
import {
  answerAfter,
  answerWhenCancelled,
  CaseLifecycle,
  endOnError,
  ignoreRefusal,
  refuse,
} from './case-lifecycle';
import { cancelCaseSignal, getCaseQuery, requestCancellationUpdate } from './case.messages';
import { clinicalEvaluationTimeout } from './clinical-failures';
import { IN_PROCESS_STEPS_LOCALLY } from './patches';
import {
  priorAuthorizationOutcomeSignal,
  reviewDecisionSignal,
  submitPriorAuthorizationOutcomeUpdate,
  submitReviewDecisionUpdate,
} from './prior-authorization.messages';

type CaseActivities = ReturnType<typeof createCaseActivities>;

const PAYER_RETRY: RetryPolicy = {
  initialInterval: '2 seconds',
  maximumInterval: '1 minute',
  maximumAttempts: 10,
};

/** Payer calls: retried for a while, then the case fails with a clear reason instead of hanging. */
const payer = proxyActivities<CaseActivities>({
  // Real-time eligibility answers within seconds (hard cap 30 s); beyond that an attempt is lost.
  startToCloseTimeout: '30 seconds',
  retry: PAYER_RETRY,
});

/** Steps answered inside the worker (the plan from the catalog): a marker in history, not an activity task. */
const inProcess = proxyLocalActivities<CaseActivities>({
  startToCloseTimeout: '10 seconds',
  retry: PAYER_RETRY,
});

/** History stays far below Temporal's limits: a long payer wait continues as a new run. */
const CONTINUE_AS_NEW_AFTER_EVENTS = 10_000;

/**
 * processing → awaiting_review → awaiting_outcome → completed | failed, or cancelled until final.
 * Reviewers decide with signals (Temporal Web, CLI) or updates (the HTTP API); both paths share one
 * handler, and a decision that does not fit the status is refused and changes nothing.
 */
export async function priorAuthorizationWorkflow(
  input: PriorAuthorizationInput,
): Promise<PriorAuthorizationCase> {
  await verifyAccountBindingFirst(input);
  const lifecycle = new CaseLifecycle(input.case, {
    accountId: input.accountId,
    eventType: 'prior_authorization.updated',
    announces: () => true,
    describe: (status) => PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS[status],
  });
  const record = lifecycle.record;
  let review: ReviewDecisionInput | undefined;
  let payerOutcome: PriorAuthOutcomeInput | undefined;
  let cancellation: CancelRequest | undefined;

  // Validators only check (they are not replayed); handlers apply. Signals share the same rules.
  const checkReview = () => {
    if (record.status !== 'awaiting_review' || review || cancellation) {
      refuse(`A review decision needs status awaiting_review; this case is ${record.status}.`);
    }
  };
  const checkOutcome = () => {
    if (record.status !== 'awaiting_outcome' || payerOutcome || cancellation) {
      refuse(`An outcome needs status awaiting_outcome; this case is ${record.status}.`);
    }
  };
  const checkCancellation = () => {
    if (lifecycle.isFinal || cancellation) refuse(`A ${record.status} case cannot be cancelled.`);
  };
  const applyReview = (decision: ReviewDecisionInput) => {
    checkReview();
    review = decision;
  };
  const applyOutcome = (outcome: PriorAuthOutcomeInput) => {
    checkOutcome();
    payerOutcome = outcome;
  };
  const applyCancellation = (request: CancelRequest) => {
    checkCancellation();
    cancellation = request;
  };

  setHandler(getCaseQuery, () => record);
  setHandler(reviewDecisionSignal, ignoreRefusal(applyReview));
  setHandler(priorAuthorizationOutcomeSignal, ignoreRefusal(applyOutcome));
  setHandler(cancelCaseSignal, ignoreRefusal(applyCancellation));
  setHandler(submitReviewDecisionUpdate, (decision) => answerAfter(lifecycle, () => applyReview(decision)), {
    validator: (_decision: ReviewDecisionInput) => checkReview(),
  });
  setHandler(
    submitPriorAuthorizationOutcomeUpdate,
    (outcome) => answerAfter(lifecycle, () => applyOutcome(outcome)),
    {
      validator: (_outcome: PriorAuthOutcomeInput) => checkOutcome(),
    },
  );
  setHandler(
    requestCancellationUpdate,
    (request) => answerWhenCancelled(lifecycle, () => applyCancellation(request)),
    {
      validator: (_request: CancelRequest) => checkCancellation(),
    },
  );

  const cancelIfRequested = async (): Promise<boolean> => {
    if (!cancellation) return false;
    await lifecycle.moveTo('cancelled', cancellation.reason);
    return true;
  };

  try {
    if (record.status === 'processing') {
      await lifecycle.announceCreation();
      await prepare(record, payer);
      if (await cancelIfRequested()) return record;
      await lifecycle.moveTo('awaiting_review', 'Prepared for clinical review.');
    }

    if (record.status === 'awaiting_review') {
      const decided = () => review !== undefined || cancellation !== undefined;
      if (!(await condition(decided, input.timings.reviewReminderMs))) {
        lifecycle.update({ review_reminder_at: new Date().toISOString() });
        const remaining = Math.max(input.timings.reviewExpiryMs - input.timings.reviewReminderMs, 1);
        if (!(await condition(decided, remaining))) {
          await lifecycle.moveTo('failed', 'No review decision before the review deadline.', {
            failure: { code: 'review_expired', message: 'No reviewer decided before the review deadline.' },
          });
          return record;
        }
      }
      if (await cancelIfRequested()) return record;
      const decision = review!;
      const reviewed = { ...decision, decided_at: new Date().toISOString() };
      if (decision.decision === 'reject') {
        await lifecycle.moveTo('failed', 'Rejected at clinical review.', {
          review: reviewed,
          failure: { code: 'rejected_at_review', message: 'A clinical reviewer rejected the request.' },
        });
        return record;
      }
      const submission = await payer.submitPriorAuthorization(submissionOf(record));
      await lifecycle.moveTo('awaiting_outcome', 'Approved at review and submitted to the payer.', {
        review: reviewed,
        submission: { payer_reference: submission.payer_reference, submitted_at: new Date().toISOString() },
      });
    }

    let checksSoFar = input.payerChecksSoFar ?? 0;
    while (record.status === 'awaiting_outcome') {
      const dueIn = Date.parse(record.due_at) - Date.now();
      const wait = record.overdue
        ? input.timings.payerPollIntervalMs
        : Math.min(input.timings.payerPollIntervalMs, Math.max(dueIn, 1));
      await condition(() => payerOutcome !== undefined || cancellation !== undefined, wait);
      if (!record.overdue && Date.now() >= Date.parse(record.due_at)) lifecycle.update({ overdue: true });
      if (await cancelIfRequested()) return record;
      if (payerOutcome) {
        await complete(
          lifecycle,
          fromOutcomeInput(payerOutcome, record.submission?.payer_reference ?? null),
          'Outcome recorded by a reviewer.',
        );
        return record;
      }
      const determination = await payer.checkPriorAuthDetermination({
        ...submissionOf(record),
        payer_reference: record.submission!.payer_reference,
        checksSoFar,
      });
      checksSoFar += 1;
      if (determination) {
        await complete(lifecycle, { ...determination }, 'Determination received from the payer.');
        return record;
      }
      // A decision that arrived during the check is handled by the next turn, not carried over.
      if (payerOutcome || cancellation) continue;
      if (
        workflowInfo().historyLength > CONTINUE_AS_NEW_AFTER_EVENTS ||
        workflowInfo().continueAsNewSuggested
      ) {
        await condition(allHandlersFinished);
        await continueAsNew<typeof priorAuthorizationWorkflow>({
          ...input,
          case: record,
          payerChecksSoFar: checksSoFar,
        });
      }
    }
    return record;
  } catch (error) {
    await endOnError(
      lifecycle,
      error,
      cancellation,
      clinicalEvaluationTimeout(error) ?? {
        reason: 'The payer could not be reached.',
        failure: {
          code: 'payer_unavailable',
          message: 'The payer connection failed repeatedly; no determination was made.',
        },
      },
    );
    return record;
  }
}

async function prepare(record: PriorAuthorizationCase, activities: CaseActivities): Promise<void> {
  const { request } = record;
  const resolvePlan = patched(IN_PROCESS_STEPS_LOCALLY) ? inProcess : activities;
  const resolution = await resolvePlan.resolveCasePlan({
    documentIds: [...request.insurance, ...(request.patient.insurance ?? [])].map(
      (document) => document.document_id,
    ),
    content: request.insurance_content,
  });
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
  });
  Object.assign(record, { plan, coverage: prefill.coverage, criteria: prefill.criteria });
}

function submissionOf(record: PriorAuthorizationCase) {
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
    mockResult: mock_result ?? undefined,
  };
}

async function complete(
  lifecycle: CaseLifecycle<PriorAuthorizationCase>,
  outcome: PriorAuthorizationOutcome,
  reason: string,
): Promise<void> {
  await lifecycle.moveTo('completed', reason, { outcome });
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
    authorization_start_date: input.authorization_start_date ?? null,
    authorization_expiration: input.authorization_expiration ?? null,
  };
}
