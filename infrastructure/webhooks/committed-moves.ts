import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import { CASE_MEMO_KEY } from '../../domain/temporal/case-memo';
import { decodePayload, sealedByUs } from '../temporal/sealed-memos';

/**
 * The pauses between reads: a task commits within milliseconds of its activity on a quiet worker, so
 * the first come soon; a loaded one commits later, and the pauses double (up to `LONGEST_PAUSE_MS`) so
 * a burst's events do not each read the case dozens of times while their tasks wait.
 */
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 100;

const RUNNING = temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;

/**
 * Reads one worker has open against Temporal at once. In a burst over many cases a read finding the
 * limit reached counts as "not yet" and the event waits on, so Temporal, slowest exactly then, is never
 * asked more than this by the waits.
 */
export const MAX_COMMIT_READS_IN_FLIGHT = 16;

/**
 * A case workflow records its move, and publishes the move's event, from a local activity inside
 * the workflow task that carries the move's memo. GET reads that memo, which Temporal commits only
 * when the task completes, after the activity. A receiver that fetches the case the moment a
 * webhook arrives would otherwise read the status before the move. This waits, bounded, until the
 * case's committed memo is as new as the event (`updated_at` at least the event's moment), or the
 * case has closed, or cannot be read in time: the memo GET reads, so what GET shows next is at least
 * as new.
 */
const NOT_READ = Symbol('not read');

export class CommittedMoves {
  /** One read of a case at a time, shared by every event of that case waiting on it. */
  private readonly reads = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly temporalClient: Client,
    /** `WEBHOOK_COMMIT_WAIT_MS`. */
    private readonly waitMs: number,
  ) {}

  async reached(caseId: string, moment: string): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    // Called from inside the task itself, which cannot have committed yet: the first read waits too.
    for (let pauseMs = FIRST_PAUSE_MS; ; pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS)) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pauseMs, left)));
      const committed = await this.read(caseId, deadline);
      if (committed === NOT_READ) continue;
      if (committed === undefined || committed >= moment) return;
    }
  }

  /**
   * The case's committed moment; NOT_READ when no read could start, undefined when there is nothing
   * worth waiting for.
   */
  private read(caseId: string, deadline: number): Promise<string | typeof NOT_READ | undefined> {
    const shared = this.reads.get(caseId);
    if (shared) return shared;
    if (this.reads.size >= MAX_COMMIT_READS_IN_FLIGHT) return Promise.resolve(NOT_READ);
    const reading = this.committedMoment(caseId, deadline).finally(() => this.reads.delete(caseId));
    this.reads.set(caseId, reading);
    return reading;
  }

  /**
   * The `updated_at` of the case's committed memo; undefined where there is nothing to wait for (the
   * case closed, is gone, or is not ours) or no answer came by the deadline. Only the case's own memo
   * field is decoded, not the request kept beside it.
   */
  private async committedMoment(caseId: string, deadline: number): Promise<string | undefined> {
    const client = this.temporalClient;
    try {
      const { workflowExecutionInfo: execution } = await client.withDeadline(deadline, () =>
        client.workflowService.describeWorkflowExecution({
          namespace: client.options.namespace,
          execution: { workflowId: caseId },
        }),
      );
      const fields = execution?.memo?.fields;
      const payload = fields?.[CASE_MEMO_KEY];
      if (execution?.status !== RUNNING || !payload || !sealedByUs(fields)) return undefined;
      const memoCase = await decodePayload<{ updated_at?: string }>(
        client.options.loadedDataConverter,
        payload,
      );
      return memoCase.updated_at;
    } catch {
      // The wait only orders the send after the commit; a case it cannot read is sent as before.
      return undefined;
    }
  }
}
