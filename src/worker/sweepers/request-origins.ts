import { DAY_MS } from '../../../domain/durations';
import { ProviderAuthorizationsRepository } from '../../../infrastructure/provider-authorizations/provider-authorizations.repository';
import { BatchSweeper } from './sweep-while-running';

/**
 * Clears where provider authorizations were asked from and signed from once past the retention
 * (docs/providers.md, "Retention"): the keyed network of those started before it, and the signing
 * address and user agent of those that ended before it. The rows stay; a batch clears those
 * values. Sweeping workers skip the rows another one holds.
 */
export class RequestOriginsSweeper extends BatchSweeper {
  readonly routine = {
    // Retention is counted in days; looking every hour keeps each pass small.
    intervalMs: 60 * 60_000,
    acted: 'provider authorization request origins cleared',
    failed: 'provider authorization request origins sweep failed',
  };

  constructor(
    private readonly authorizations: ProviderAuthorizationsRepository,
    private readonly retentionDays: number,
    batchSize?: number,
    private readonly clock: () => Date = () => new Date(),
  ) {
    super(batchSize);
  }

  protected startPass() {
    const cutoff = new Date(this.clock().getTime() - this.retentionDays * DAY_MS);
    return (batchSize: number) => this.authorizations.forgetOrigins(cutoff, batchSize);
  }
}
