import { Client } from '@temporalio/client';

import { CASE_MEMO_KEY } from '../../domain/temporal/case-memo';
import { decodePayload, sealedByUs } from '../temporal/sealed-memos';

/**
 * The pauses between reads: a task commits within milliseconds of its activity on a quiet worker, so
 * the first come soon; a loaded one commits later, and the pauses double (up to `LONGEST_PAUSE_MS`) so
 * a burst's events do not each read the case dozens of times while their tasks wait.
 */
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 100;

/**
 * A case workflow records its move, and publishes the move's event, from a local activity inside
 * the workflow task that carries the move's memo. GET reads that memo, which Temporal commits only
 * when the task completes, after the activity. A receiver that fetches the case the moment a
 * webhook arrives would otherwise read the status before the move. This waits, bounded, until the
 * case's described memo is as new as the event (`updated_at` at least the event's moment), or the
 * case has closed, or cannot be read: the same read GET makes, so what GET shows next is at least as
 * new.
 */
export class CommittedMoves {
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
      if (await this.committed(caseId, moment)) return;
    }
  }

  private async committed(caseId: string, moment: string): Promise<boolean> {
    try {
      const { status, raw } = await this.temporalClient.workflow.getHandle(caseId).describe();
      if (status.name !== 'RUNNING') return true;
      const fields = raw.workflowExecutionInfo?.memo?.fields;
      const payload = fields?.[CASE_MEMO_KEY];
      if (!payload || !sealedByUs(fields)) return true;
      const converter = this.temporalClient.options.loadedDataConverter;
      const { updated_at: updatedAt } = await decodePayload<{ updated_at?: string }>(converter, payload);
      return updatedAt === undefined || updatedAt >= moment;
    } catch {
      // The wait only orders the send after the commit; a case it cannot read is sent as before.
      return true;
    }
  }
}
