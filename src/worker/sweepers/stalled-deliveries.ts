import { DurableDeliveries } from '../../../infrastructure/webhooks/durable-deliveries';
import { WebhookDeliveriesRepository } from '../../../infrastructure/webhooks/webhook-deliveries.repository';
import { SWEEP_BATCH, Sweeper, SweepRoutine } from './sweep-while-running';

/** How often each worker looks for deliveries whose first attempt died with its process. */
export const SWEEP_INTERVAL_MS = 5_000;

const STALLED_DELIVERIES_ROUTINE: SweepRoutine = {
  intervalMs: SWEEP_INTERVAL_MS,
  acted: 'stalled webhook deliveries handed to Temporal',
  failed: 'webhook delivery sweep failed',
};

/**
 * Hands to the durable path every pending delivery whose first attempt ran out of time without
 * finishing or handing it on: its process died. Workers sweep concurrently; each claims a batch for
 * a while (so normally one worker hands each delivery on), and the workflow id is the delivery id,
 * so a second hand-off starts nothing twice. A delivery is handed on at most
 * `timeoutMs + 5 s + SWEEP_INTERVAL_MS` after it was recorded.
 */
export class StalledDeliverySweeper implements Sweeper {
  readonly routine = STALLED_DELIVERIES_ROUTINE;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly durable: DurableDeliveries,
    private readonly claimMs: number,
  ) {}

  /** One pass; returns how many deliveries it handed on. */
  async sweep(): Promise<number> {
    const stalled = await this.deliveries.claimStalled(SWEEP_BATCH, this.claimMs);
    for (const { deliveryId, attemptsMade } of stalled) {
      // Overdue already: the next attempt is made at once, numbered after those logged.
      await this.durable.start(deliveryId, { attemptsMade, delayMs: 0 });
    }
    return stalled.length;
  }
}
