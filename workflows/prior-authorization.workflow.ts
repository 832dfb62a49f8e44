import { condition, patched } from '@temporalio/workflow';

import type { createCaseActivities } from '../activities/cases.activities';
import { PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS } from '../domain/cases/prior-authorization';
import type {
  PriorAuthOutcomeInput,
  PriorAuthorizationCase,
  PriorAuthorizationInput,
  PriorAuthorizationOutcome,
  ReviewDecisionInput,
} from '../domain/cases/prior-authorization';
import { CASE_FAILURE_CODE } from '../domain/failures';
import { verifyAccountBindingFirst } from './case-binding';
import { ending, DEFAULT_FAILURE_ENDINGS } from './case-failures';
import { CaseLifecycle, endOnError, refuse } from './case-lifecycle';
import { acceptDecisions, connectorCalls, continueAsNewIfLong, failWith, openCase } from './case-workflow';
import { IN_PROCESS_STEPS_LOCALLY } from './patches';
import {
  priorAuthorizationOutcomeSignal,
  reviewDecisionSignal,
  submitPriorAuthorizationOutcomeUpdate,
  submitReviewDecisionUpdate,
} from './prior-authorization.messages';

type CaseActivities = ReturnType<typeof createCaseActivities>;

const REVIEW_EXPIRED = ending(
  'No review decision before the review deadline.',
  CASE_FAILURE_CODE.reviewExpired,
  'No reviewer decided before the review deadline.',
);

const { remote: payer, inProcess } = connectorCalls<CaseActivities>();

/**
 * processing → awaiting_review → awaiting_outcome → completed | failed, or cancelled until final.
 * Reviewers decide with signals (Temporal Web, CLI) or updates (the HTTP API); both paths share one
 * handler, and a decision that does not fit the status is refused and changes nothing.
 */
export async function priorAuthorizationWorkflow(
  input: PriorAuthorizationInput,
): Promise<PriorAuthorizationCase> {
  const { lifecycle, record, cancellation } = openCase(
    input,
    'prior_authorization.updated',
    PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS,
  );
  let review: ReviewDecisionInput | undefined;
  let payerOutcome: PriorAuthOutcomeInput | undefined;

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
      },
      keep: (outcome: PriorAuthOutcomeInput) => {
        payerOutcome = outcome;
      },
    },
    cancellation.decision,
  ]);
  await verifyAccountBindingFirst(input);

  try {
    if (record.status === 'processing') {
      await lifecycle.announceCreation();
      await prepare(record, payer);
      if (await cancellation.cancelIfRequested()) return record;
      await lifecycle.moveTo('awaiting_review', 'Prepared for clinical review.');
    }

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
      await condition(() => payerOutcome !== undefined || cancellation.requested() !== undefined, wait);
      if (!record.overdue && Date.now() >= Date.parse(record.due_at))
        await lifecycle.update({ overdue: true });
      if (await cancellation.cancelIfRequested()) return record;
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
      if (payerOutcome || cancellation.requested()) continue;
      await continueAsNewIfLong<PriorAuthorizationInput>({
        ...input,
        case: record,
        payerChecksSoFar: checksSoFar,
      });
    }
    return record;
  } catch (error) {
    await endOnError(lifecycle, error, cancellation.requested(), DEFAULT_FAILURE_ENDINGS.priorAuthorization);
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
