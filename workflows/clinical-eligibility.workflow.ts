import { proxyActivities, setHandler } from '@temporalio/workflow';

import type { createClinicalActivities } from '../activities/clinical.activities';
import type { ClinicalEligibilityRequest } from '../domain/cases/case-model';
import type { ClinicalEligibilityOutcome } from '../domain/clinical/clinical-model';
import { CaseLifecycle, endOnError } from './case-lifecycle';
import { clinicalEvaluationTimeout } from './clinical-failures';
import { CaseBinding, verifyAccountBindingFirst } from './case-binding';
import type { CaseRecord } from '../domain/cases/case-model';
import { getCaseQuery } from './case.messages';

export interface ClinicalEligibilityCase extends CaseRecord {
  object: 'clinical_eligibility';
  /** The specification's field name, spelled exactly so; equal to `id`. */
  clinical_elgibility_id: string;
  outcome: ClinicalEligibilityOutcome | null;
  request: ClinicalEligibilityRequest;
}

export interface ClinicalEligibilityInput {
  case: ClinicalEligibilityCase;
  accountId: string;
  /** Set by the API on cases started since the `verify-account-binding` patch. */
  binding?: CaseBinding;
}

export const CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS = {
  processing: 'Evaluating the coverage criteria of each drug against the clinical record.',
  awaiting_review: 'Waiting for a reviewer.',
  awaiting_outcome: 'Waiting for an outcome.',
  completed: 'Evaluated; see outcome.results for each drug.',
  failed: 'The evaluation could not be completed.',
  cancelled: 'Cancelled on request.',
} as const;

const { evaluateClinicalEligibility } = proxyActivities<ReturnType<typeof createClinicalActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/** processing → completed | failed; one clinical_eligibility.updated event, at the final status. */
export async function clinicalEligibilityWorkflow(
  input: ClinicalEligibilityInput,
): Promise<ClinicalEligibilityCase> {
  await verifyAccountBindingFirst(input);
  const lifecycle = new CaseLifecycle(input.case, {
    accountId: input.accountId,
    eventType: 'clinical_eligibility.updated',
    announces: (status) => status === 'completed' || status === 'failed',
    describe: (status) => CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS[status],
  });
  const record = lifecycle.record;
  setHandler(getCaseQuery, () => record);
  try {
    // Ages and recency are computed as of the day the check was requested, whenever it runs.
    const outcome = await evaluateClinicalEligibility({
      request: record.request,
      asOf: record.created_at.slice(0, 10),
    });
    await lifecycle.moveTo('completed', 'Criteria evaluated.', { outcome });
  } catch (error) {
    await endOnError(
      lifecycle,
      error,
      undefined,
      clinicalEvaluationTimeout(error) ?? {
        reason: 'The evaluation failed.',
        failure: {
          code: 'evaluation_failed',
          message: 'The criteria could not be evaluated; submit the check again.',
        },
      },
    );
  }
  return record;
}
