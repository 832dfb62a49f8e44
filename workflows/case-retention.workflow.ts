import { proxyActivities, workflowInfo } from '@temporalio/workflow';

import type { createCaseRetentionActivities } from '../activities/case-retention.activities';

type CaseRetentionActivities = ReturnType<typeof createCaseRetentionActivities>;

/** Each call is short and idempotent: retried until it holds, the next hourly run picking up the rest. */
const { findExpiredCases, purgeCase } = proxyActivities<CaseRetentionActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Cases looked up at a time. */
export const RETENTION_BATCH_SIZE = 100;
/** Batches per run, which bounds the run's history; a backlog is worked through over several runs. */
export const RETENTION_BATCHES_PER_RUN = 10;

/** The audit trail's actor for purges nobody asked for. */
export const RETENTION_ACTOR = { type: 'system', id: 'case-retention' } as const;

export interface CaseRetentionResult {
  /** Cases this run removed. */
  purged: number;
}

/**
 * The retention purge (docs/workflows.md), started by the `case-retention` schedule: closed cases
 * whose last change is older than CASE_RETENTION_DAYS, in batches, each removed from Temporal and
 * SQL and audited as `case.purged`. A run with nothing due makes one lookup and ends.
 */
export async function caseRetentionWorkflow(): Promise<CaseRetentionResult> {
  const requestId = workflowInfo().workflowId;
  let purged = 0;
  for (let batch = 0; batch < RETENTION_BATCHES_PER_RUN; batch++) {
    const caseIds = await findExpiredCases({ limit: RETENTION_BATCH_SIZE });
    for (const caseId of caseIds) {
      if (await purgeCase({ caseId, reason: 'case.purged', actor: RETENTION_ACTOR, requestId })) purged++;
    }
    if (caseIds.length < RETENTION_BATCH_SIZE) break;
  }
  return { purged };
}
