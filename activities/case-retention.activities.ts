import { Client, WorkflowNotFoundError } from '@temporalio/client';

import { DAY_MS } from '../domain/durations';
import { CasePurge, CasePurgeRepository } from '../infrastructure/cases/case-purge.repository';
import { deleteWorkflowRuns } from '../infrastructure/temporal/workflow-deletion';

/** How long a case asked to cancel may take to close before it is terminated. */
const CLOSE_CHECKS = 40;
const CLOSE_CHECK_PAUSE_MS = 250;

export interface CaseRetentionActivityDependencies {
  purges: CasePurgeRepository;
  temporalClient: Client;
  namespace: string;
  /** CASE_RETENTION_DAYS: how long a closed case is kept after its last change. */
  retentionDays: number;
}

/** The side effects of the retention purge and of erasures: finding cases, and removing one. */
export const createCaseRetentionActivities = (deps: CaseRetentionActivityDependencies) => ({
  /** Up to `limit` closed cases whose last change is older than the retention, oldest first. */
  async findExpiredCases(input: { limit: number }): Promise<string[]> {
    const cutoff = new Date(Date.now() - deps.retentionDays * DAY_MS);
    const expired = await deps.purges.closedBefore(cutoff, input.limit);
    return expired.map((row) => row.case_id);
  },

  /**
   * Removes one case: its Temporal executions first, then its SQL rows with the audit event that
   * records it. Idempotent, so a retry or a second run finishes what an interrupted one began; says
   * whether this call removed the case's rows.
   */
  async purgeCase(purge: CasePurge): Promise<boolean> {
    await deleteWorkflowRuns(deps.temporalClient, deps.namespace, purge.caseId);
    return deps.purges.purge(purge);
  },

  /** The cases of one patient (by PatientRef) in one account and mode, open and closed. */
  async findPatientCases(scope: {
    accountId: string;
    livemode: boolean;
    patientRef: string;
  }): Promise<string[]> {
    return deps.purges.casesOfPatient(scope);
  },

  /**
   * Waits for a case its erasure asked to cancel to close, and terminates it if it has not, so an
   * erasure never waits on one case for good. A case already closed or gone returns at once.
   */
  async awaitCaseClosed(input: { caseId: string }): Promise<void> {
    for (let check = 0; check < CLOSE_CHECKS; check++) {
      if (!(await isRunning(deps.temporalClient, input.caseId))) return;
      await new Promise((resolve) => setTimeout(resolve, CLOSE_CHECK_PAUSE_MS));
    }
    await deps.temporalClient.workflow
      .getHandle(input.caseId)
      .terminate('Closed for a patient data erasure')
      .catch(() => undefined);
    if (await isRunning(deps.temporalClient, input.caseId))
      throw new Error(`Case ${input.caseId} is still open`);
  },
});

async function isRunning(client: Client, caseId: string): Promise<boolean> {
  try {
    return (await client.workflow.getHandle(caseId).describe()).status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
