import { Client, ScheduleAlreadyRunning, ScheduleOptions, ScheduleOverlapPolicy } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import type { Logger } from 'pino';

import type { TemporalSettings } from '../../infrastructure/config/config';
import { keepTrying, type Patience } from './keep-trying';

/** Fixed, so every worker that starts finds and updates the one schedule rather than adding its own. */
export const CASE_RETENTION_SCHEDULE_ID = 'case-retention';
export const CASE_RETENTION_INTERVAL = '1 hour';
/**
 * How long a starting worker keeps trying to ensure the schedule. Describing a schedule asks the
 * server's own scheduler workflow, which a server that has just started (a restored cluster's first
 * minute) may not answer yet; and workers starting together race to update it.
 */
const SCHEDULE_PATIENCE: Patience = { forMs: 60_000, firstDelayMs: 250, maxDelayMs: 5_000 };
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
  await keepTrying(() => createOrUpdateSchedule(client, schedule), SCHEDULE_PATIENCE, {
    // An invalid spec is this code's mistake, which no wait cures.
    isFinal: (error) => error instanceof TypeError,
    onRetry: (error, delayMs) =>
      logger.warn(
        { schedule_id: CASE_RETENTION_SCHEDULE_ID, error: failureOf(error), retry_in_ms: delayMs },
        'case retention schedule not ensured yet; trying again',
      ),
  }).catch((error: unknown) => {
    logger.error(
      { schedule_id: CASE_RETENTION_SCHEDULE_ID, error: failureOf(error) },
      'case retention schedule not ensured',
    );
    throw error;
  });
  logger.info(
    { schedule_id: CASE_RETENTION_SCHEDULE_ID, retention_days: settings.retentionDays },
    'case retention schedule ensured',
  );
}

/** Creates the schedule, or brings the one a worker before created up to this configuration. */
async function createOrUpdateSchedule(
  client: Client,
  schedule: Omit<ScheduleOptions, 'scheduleId'>,
): Promise<void> {
  try {
    await client.schedule.create({ scheduleId: CASE_RETENTION_SCHEDULE_ID, ...schedule });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule
      .getHandle(CASE_RETENTION_SCHEDULE_ID)
      .update((previous) => ({ ...previous, ...schedule }));
  }
}

/** The client's message and the server's reason under it (a gRPC status), which carry no case data. */
function failureOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}
