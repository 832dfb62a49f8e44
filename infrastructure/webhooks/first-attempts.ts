import type { Logger } from 'pino';

import type { WebhookSettings } from '../config/config';
import { DeliveryAttempts } from './delivery-attempt';
import { DurableDeliveries, intervalAfter } from './durable-deliveries';

/**
 * First attempts one process holds open at once. Beyond it a delivery goes straight to the durable
 * path, so a burst to a slow or dead receiver cannot hold a socket per notification in one worker.
 */
export const MAX_FIRST_ATTEMPTS_IN_FLIGHT = 64;

/**
 * First attempts, made at once by the process that recorded the delivery, outside Temporal: a
 * delivery the receiver acknowledges costs Temporal nothing. Only a failed first attempt goes to
 * the durable path, whose first retry keeps the published schedule. Nobody awaits these attempts
 * (publishing must never wait for a receiver); a process that dies during one leaves the delivery
 * to the sweeper (`StalledDeliverySweeper`).
 */
export class FirstAttempts {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly attempts: DeliveryAttempts,
    private readonly durable: DurableDeliveries,
    private readonly settings: WebhookSettings,
    private readonly logger?: Logger,
  ) {}

  /**
   * How long a recorded delivery belongs to its first attempt before the sweeper may hand it on: the
   * receiver's time limit, and room (`handOffMs`) for the attempt to log itself and hand a failure on;
   * past it, the sweeper takes the delivery as abandoned by a dead process.
   */
  get ownershipMs(): number {
    return this.settings.timeoutMs + this.settings.handOffMs;
  }

  /**
   * Returns at once; an attempt that cannot finish is logged and left to the sweeper. Each attempt
   * sends once `ready` settles (a case event's move committed, `CommittedMoves`); a delivery handed
   * straight on waits a retry interval anyway.
   */
  start(deliveryIds: string[], ready?: Promise<void>): void {
    for (const deliveryId of deliveryIds) {
      if (this.inFlight.size >= MAX_FIRST_ATTEMPTS_IN_FLIGHT) {
        void this.handOn(deliveryId);
        continue;
      }
      const attempt = this.attempt(deliveryId, ready).finally(() => this.inFlight.delete(attempt));
      this.inFlight.add(attempt);
    }
  }

  /** Lets the attempts in flight finish (each within the receiver's time limit) before the worker exits. */
  async settle(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  private async handOn(deliveryId: string): Promise<void> {
    await this.durable.start(deliveryId).catch((error: Error) => this.leaveToSweeper(deliveryId, error));
  }

  private async attempt(deliveryId: string, ready?: Promise<void>): Promise<void> {
    const { retry, timeoutMs } = this.settings;
    const delayMs = intervalAfter(retry, 1);
    try {
      await ready;
      const outcome = await this.attempts.attempt(deliveryId, {
        attempt: 1,
        timeoutMs,
        asFirstAttempt: true,
        nextAttemptAt: () => new Date(Date.now() + delayMs).toISOString(),
      });
      if (outcome.kind === 'failed') await this.durable.start(deliveryId, { attemptsMade: 1, delayMs });
    } catch (error) {
      this.leaveToSweeper(deliveryId, error as Error);
    }
  }

  private leaveToSweeper(deliveryId: string, error: Error): void {
    // Ids and the error's class only: a driver's message may quote the data it failed on.
    this.logger?.warn(
      { delivery_id: deliveryId, error: error.name },
      'first webhook attempt could not finish; the sweeper hands the delivery on',
    );
  }
}
