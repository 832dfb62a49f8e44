import { proxyActivities } from '@temporalio/workflow';

import type { createClinicalActivities } from '../activities/clinical.activities';
import { CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS } from '../domain/cases/clinical-eligibility';
import type { ClinicalEligibilityCase, ClinicalEligibilityInput } from '../domain/cases/clinical-eligibility';
import { CASE_FAILURE_CODE } from '../domain/failures';
import { readCaseDocuments } from './case-documents';
import { ending } from './case-failures';
import { acceptDecisions, openCase, runCase } from './case-workflow';

const { evaluateClinicalEligibility } = proxyActivities<ReturnType<typeof createClinicalActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/** How a check ends when its evaluation fails. */
const EVALUATION_FAILED_ENDING = ending(
  'The evaluation failed.',
  CASE_FAILURE_CODE.evaluationFailed,
  'The criteria could not be evaluated; submit the check again.',
);

/** processing → completed | failed; one clinical_eligibility.updated event, at the final status. */
export async function clinicalEligibilityWorkflow(
  input: ClinicalEligibilityInput,
): Promise<ClinicalEligibilityCase> {
  const opened = openCase(
    input,
    'clinical_eligibility.updated',
    CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS,
    (status) => status === 'completed' || status === 'failed',
  );
  const { lifecycle, record } = opened;
  acceptDecisions(lifecycle, []);
  return runCase({ input, ...opened }, EVALUATION_FAILED_ENDING, async () => {
    await lifecycle.announceCreation();
    await readCaseDocuments(
      record,
      record.request.evidence.flatMap((item) => (item.asset ? [item.asset] : [])),
    );
    // Ages and recency are computed as of the day the check was requested, whenever it runs.
    const outcome = await evaluateClinicalEligibility({
      request: record.request,
      asOf: record.created_at.slice(0, 10),
    });
    await lifecycle.moveTo('completed', 'Criteria evaluated.', { outcome });
  });
}
