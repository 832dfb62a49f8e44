import { EventsRepository } from '../../../infrastructure/webhooks/events.repository';
import { BatchSweeper } from './sweep-while-running';

/**
 * Deletes events past retention (30 days) with their deliveries and attempts, so the sealed
 * notifications (PHI) are not kept longer than the events API shows them. Sweeping workers skip the
 * rows another one holds.
 */
export class ExpiredEventsSweeper extends BatchSweeper {
  readonly routine = {
    // Events expire by the day; looking every ten minutes keeps each pass small.
    intervalMs: 10 * 60_000,
    acted: 'expired webhook events deleted',
    failed: 'expired webhook events sweep failed',
  };

  constructor(
    private readonly events: EventsRepository,
    batchSize?: number,
  ) {
    super(batchSize);
  }

  protected startPass() {
    return (batchSize: number) => this.events.deleteExpired(batchSize);
  }
}
