import { Context } from '@temporalio/activity';

/** Time left, after the deadline, for a failure to travel back before Temporal gives up on the attempt. */
const REPORTING_MARGIN_MS = 2_000;

/**
 * When the running activity attempt should stop waiting on the clinical evaluation pool: its
 * start-to-close timeout, counted from now (call it first thing in the activity), less a margin.
 */
export function attemptDeadline(): number {
  return Date.now() + Context.current().info.startToCloseTimeoutMs - REPORTING_MARGIN_MS;
}
