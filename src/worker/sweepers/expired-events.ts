import { EventsRepository } from '../../../infrastructure/webhooks/events.repository';
import { deleteInBatches, SWEEP_BATCH, Sweeper, SweepRoutine } from './sweep-while-running';

const EXPIRED_EVENTS_ROUTINE: SweepRoutine = {
  // Events expire by the day; looking every ten minutes keeps each pass small.
  intervalMs: 10 * 60_000,
  acted: 'expired webhook events deleted',
  failed: 'expired webhook events sweep failed',
};

/**
 * Deletes events past retention (30 days) with their deliveries and attempts, so the sealed
 * notifications (PHI) are not kept longer than the events API shows them. Sweeping workers skip the
 * rows another one holds.
 */
export class ExpiredEventsSweeper implements Sweeper {
  readonly routine = EXPIRED_EVENTS_ROUTINE;

  constructor(
    private readonly events: EventsRepository,
    private readonly batchSize = SWEEP_BATCH,
  ) {}

  /** One pass; returns how many events it deleted. */
  async sweep(): Promise<number> {
    return deleteInBatches((size) => this.events.deleteExpired(size), this.batchSize);
  }
}
