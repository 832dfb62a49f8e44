/**
 * A token bucket per API key: `burst` requests at once, refilled at `perSecond`. It lives in the API
 * process, so N API replicas allow N times the rate; docs/architecture.md says so.
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
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, refilledAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.refilledAt) / 1000) * this.perSecond);
    bucket.refilledAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}
