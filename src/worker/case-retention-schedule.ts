import { Client, ScheduleAlreadyRunning, ScheduleOptions, ScheduleOverlapPolicy } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { Logger } from 'pino';

import type { TemporalSettings } from '../../infrastructure/config/config';

/** Fixed, so every worker that starts finds and updates the one schedule rather than adding its own. */
export const CASE_RETENTION_SCHEDULE_ID = 'case-retention';
export const CASE_RETENTION_INTERVAL = '1 hour';
const UPDATE_ATTEMPTS = 3;
/** The purge workflow's name, checked against the worker's workflows. */
const WORKFLOW_TYPE = 'caseRetentionWorkflow' satisfies keyof typeof import('../../workflows');

/**
 * Applies CASE_RETENTION_DAYS where Temporal keeps data: the namespace's retention of closed
 * histories, and the hourly schedule that runs the purge on this worker's task queue. Called by every
 * worker process at start; idempotent, and two workers starting at once both end with one schedule.
 */
export async function ensureCaseRetention(
  client: Client,
  settings: Pick<TemporalSettings, 'namespace' | 'taskQueue'> & { retentionDays: number },
  logger: Logger,
): Promise<void> {
  await client.workflowService.updateNamespace({
    namespace: settings.namespace,
    config: { workflowExecutionRetentionTtl: msToTs(`${settings.retentionDays} days`) },
  });
  const schedule: Omit<ScheduleOptions, 'scheduleId'> = {
    spec: { intervals: [{ every: CASE_RETENTION_INTERVAL }] },
    action: {
      type: 'startWorkflow',
      workflowType: WORKFLOW_TYPE,
      workflowId: CASE_RETENTION_SCHEDULE_ID,
      taskQueue: settings.taskQueue,
      // A run left without a worker (its task queue gone) must not hold back the next ones forever.
      workflowExecutionTimeout: CASE_RETENTION_INTERVAL,
    },
    // A run still working through a backlog when the next is due lets it finish alone.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: CASE_RETENTION_INTERVAL },
  };
  try {
    await client.schedule.create({ scheduleId: CASE_RETENTION_SCHEDULE_ID, ...schedule });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await updateSchedule(client, schedule);
  }
  logger.info(
    { schedule_id: CASE_RETENTION_SCHEDULE_ID, retention_days: settings.retentionDays },
    'case retention schedule ensured',
  );
}

/** Workers starting together may update it at once; a loser of that race reads it again and retries. */
async function updateSchedule(client: Client, schedule: Omit<ScheduleOptions, 'scheduleId'>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.schedule
        .getHandle(CASE_RETENTION_SCHEDULE_ID)
        .update((previous) => ({ ...previous, ...schedule }));
      return;
    } catch (error) {
      if (attempt >= UPDATE_ATTEMPTS) throw error;
    }
  }
}
