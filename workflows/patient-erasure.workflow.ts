import { getExternalWorkflowHandle, proxyActivities, workflowInfo } from '@temporalio/workflow';

import type { createCaseRetentionActivities } from '../activities/case-retention.activities';

type CaseRetentionActivities = ReturnType<typeof createCaseRetentionActivities>;

/** Each is idempotent and retried until it holds: an erasure, once asked for, must finish. */
const { findPatientCases, awaitCaseClosed, purgeCase } = proxyActivities<CaseRetentionActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** What an erasure knows of the patient: the keyed hash cases are filed under, never the patient's id. */
export interface PatientErasureInput {
  accountId: string;
  livemode: boolean;
  patientRef: string;
  /** Who asked (an API key or console user id), named by each case's `case.erased` audit event. */
  requestedBy: { type: 'api_key' | 'user'; id: string };
}

export interface PatientErasureResult {
  casesErased: number;
}

/**
 * Erases one patient's cases in one account and mode (docs/workflows.md): open cases are cancelled
 * (as a Temporal cancellation, which every case type ends as `cancelled`, notifying its receivers)
 * and awaited, then every case is removed exactly as the retention purge removes one, audited as
 * `case.erased`.
 */
export async function patientErasureWorkflow(input: PatientErasureInput): Promise<PatientErasureResult> {
  const { accountId, livemode, patientRef } = input;
  const caseIds = await findPatientCases({ accountId, livemode, patientRef });
  // A closed case refuses the cancellation: nothing to do for it.
  await Promise.all(
    caseIds.map((caseId) =>
      getExternalWorkflowHandle(caseId)
        .cancel()
        .catch(() => undefined),
    ),
  );
  for (const caseId of caseIds) await awaitCaseClosed({ caseId });
  let casesErased = 0;
  for (const caseId of caseIds) {
    const erased = await purgeCase({
      caseId,
      reason: 'case.erased',
      actor: input.requestedBy,
      requestId: workflowInfo().workflowId,
    });
    if (erased) casesErased++;
  }
  return { casesErased };
}
