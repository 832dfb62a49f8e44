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
  private readonly waiting = new Set<Promise<void>>();
  private readonly handingOn = new Set<Promise<void>>();

  constructor(
    private readonly attempts: DeliveryAttempts,
    private readonly durable: DurableDeliveries,
    private readonly settings: WebhookSettings,
    private readonly logger?: Logger,
  ) {}

  /**
   * How long a recorded delivery belongs to its first attempt before the sweeper may hand it on: the
   * wait for a case event's move to commit (`commitWaitMs`), the receiver's time limit, and room
   * (`handOffMs`) for the attempt to log itself and hand a failure on; past it, the sweeper takes the
   * delivery as abandoned by a dead process.
   */
  get ownershipMs(): number {
    const { commitWaitMs, timeoutMs, handOffMs } = this.settings;
    return commitWaitMs + timeoutMs + handOffMs;
  }

  /**
   * Returns at once; an attempt that cannot finish is logged and left to the sweeper. Attempts given
   * `ready` (a case event's move committed, `CommittedMoves`) start once it settles: waiting holds no
   * socket, so only sending attempts count against `MAX_FIRST_ATTEMPTS_IN_FLIGHT`.
   */
  start(deliveryIds: string[], ready?: Promise<void>): void {
    if (ready === undefined) {
      this.startAttempts(deliveryIds);
      return;
    }
    // A wait that failed only loses its ordering: the attempts still go.
    const waiting = ready
      .catch(() => undefined)
      .then(() => this.startAttempts(deliveryIds))
      .finally(() => this.waiting.delete(waiting));
    this.waiting.add(waiting);
  }

  private startAttempts(deliveryIds: string[]): void {
    for (const deliveryId of deliveryIds) {
      if (this.inFlight.size >= MAX_FIRST_ATTEMPTS_IN_FLIGHT) {
        this.handOn(deliveryId);
        continue;
      }
      const attempt = this.attempt(deliveryId).finally(() => this.inFlight.delete(attempt));
      this.inFlight.add(attempt);
    }
  }

  /** Lets the attempts in flight finish (each within the receiver's time limit) before the worker exits. */
  async settle(): Promise<void> {
    // A wait that ends starts attempts or hands them on: settled once all three sets stay empty.
    while (this.waiting.size + this.inFlight.size + this.handingOn.size > 0)
      await Promise.allSettled([...this.waiting, ...this.inFlight, ...this.handingOn]);
  }

  private handOn(deliveryId: string): void {
    const handing = this.durable
      .start(deliveryId)
      .catch((error: Error) => this.leaveToSweeper(deliveryId, error))
      .finally(() => this.handingOn.delete(handing));
    this.handingOn.add(handing);
  }

  private async attempt(deliveryId: string): Promise<void> {
    const { retry, timeoutMs } = this.settings;
    const delayMs = intervalAfter(retry, 1);
    try {
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
