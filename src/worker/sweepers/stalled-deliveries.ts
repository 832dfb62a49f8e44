import { DurableDeliveries } from '../../../infrastructure/webhooks/durable-deliveries';
import { WebhookDeliveriesRepository } from '../../../infrastructure/webhooks/webhook-deliveries.repository';
import { SWEEP_BATCH, Sweeper, SweepRoutine } from './sweep-while-running';

/**
 * Hands to the durable path every pending delivery whose first attempt ran out of time without
 * finishing or handing it on: its process died. Workers sweep concurrently; each claims a batch for
 * a while (so normally one worker hands each delivery on), and the workflow id is the delivery id,
 * so a second hand-off starts nothing twice. Each worker sweeps every `handOffMs` (WEBHOOK_HANDOFF_MS),
 * so a delivery is handed on at most `timeoutMs + 2 × handOffMs` after it was recorded.
 */
export class StalledDeliverySweeper implements Sweeper {
  readonly routine: SweepRoutine;
  private readonly claimMs: number;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly durable: DurableDeliveries,
    settings: { timeoutMs: number; handOffMs: number },
  ) {
    this.routine = {
      intervalMs: settings.handOffMs,
      acted: 'stalled webhook deliveries handed to Temporal',
      failed: 'webhook delivery sweep failed',
    };
    this.claimMs = settings.timeoutMs + settings.handOffMs;
  }

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
