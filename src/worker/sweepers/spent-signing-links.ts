import { DAY_MS } from '../../../domain/durations';
import { SigningLinksRepository } from '../../../infrastructure/provider-authorizations/signing-links.repository';
import { BatchSweeper } from './sweep-while-running';

/**
 * How long a signing or revoke link is kept once used or lapsed: long enough to tell a prescriber
 * who asks why their link no longer works whether it was used or had lapsed.
 */
export const SPENT_SIGNING_LINK_GRACE_DAYS = 30;

/**
 * Deletes the links mailed to prescribers that were used, or lapsed, more than the grace ago; sweeping
 * workers skip the rows another one holds.
 */
export class SpentSigningLinksSweeper extends BatchSweeper {
  readonly routine = {
    // Links are kept by the day; looking every hour keeps each pass small.
    intervalMs: 60 * 60_000,
    acted: 'spent signing links deleted',
    failed: 'spent signing links sweep failed',
  };

  constructor(
    private readonly links: SigningLinksRepository,
    batchSize?: number,
    private readonly clock: () => Date = () => new Date(),
  ) {
    super(batchSize);
  }

  protected startPass() {
    const cutoff = new Date(this.clock().getTime() - SPENT_SIGNING_LINK_GRACE_DAYS * DAY_MS);
    return (batchSize: number) => this.links.deleteSpent(cutoff, batchSize);
  }
}
