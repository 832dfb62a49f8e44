import type { Client } from '@temporalio/client';

import { CasePurge, CasePurgeRepository } from '../infrastructure/cases/case-purge.repository';
import { deleteWorkflowRuns } from '../infrastructure/temporal/workflow-deletion';

const DAY_MS = 24 * 3_600_000;

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
});
