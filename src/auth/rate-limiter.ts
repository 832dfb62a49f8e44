/** Buckets kept before idle (full) ones are dropped, so many client addresses cannot grow memory without end. */
const MAX_BUCKETS = 10_000;

/**
 * A token bucket per key, in this process: `burst` requests at once, refilled at `perSecond`. It
 * limits requests that carry no usable key, per client address, so they cost neither a database
 * lookup nor a shared-bucket write; keyed limits are shared across replicas (SqlRateLimiter).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; refilledAt: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Takes one token; returns 0 when allowed, else the whole seconds to wait before retrying. */
  take(key: string): number {
    const bucket = this.refill(key);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return this.retryAfterSeconds(bucket.tokens);
  }

  /** Gives back a token taken for a request that turned out to deserve none. */
  refund(key: string): void {
    const bucket = this.refill(key);
    bucket.tokens = Math.min(this.burst, bucket.tokens + 1);
  }

  private refill(key: string): { tokens: number; refilledAt: number } {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.dropFullBuckets(now);
      bucket = { tokens: this.burst, refilledAt: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.refilledAt) / 1000) * this.perSecond);
    bucket.refilledAt = now;
    return bucket;
  }

  private dropFullBuckets(now: number): void {
    const refillMs = (this.burst / this.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.refilledAt >= refillMs) this.buckets.delete(key);
    }
    // Every bucket is in use: forgetting them all errs towards letting clients through, never locking them out.
    if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
  }

  private retryAfterSeconds(tokens: number): number {
    return Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
  }
}
