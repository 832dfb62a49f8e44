import { proxyActivities, setHandler } from '@temporalio/workflow';

import type { createClinicalActivities } from '../activities/clinical.activities';
import { CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS } from '../domain/cases/clinical-eligibility';
import type { ClinicalEligibilityCase, ClinicalEligibilityInput } from '../domain/cases/clinical-eligibility';
import { verifyAccountBindingFirst } from './case-binding';
import { CaseLifecycle, endOnError } from './case-lifecycle';
import { getCaseQuery } from './case.messages';
import { clinicalEvaluationTimeout } from './clinical-failures';

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
