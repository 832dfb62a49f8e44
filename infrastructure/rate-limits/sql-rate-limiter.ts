import type { Database } from '../storage/database';

/**
 * The refilled level of the bucket: what was left plus the time since the last take at the
 * configured rate, capped at the burst. The database's clock measures the time, so replicas whose
 * clocks differ still agree; a take that waited on another's row lock may start earlier than the
 * last refill, hence the floor at zero.
 */
const REFILLED = `LEAST($2::double precision, bucket.tokens +
  GREATEST(0, EXTRACT(EPOCH FROM (now() - bucket.refilled_at))) * $3::double precision)`;

/**
 * The token bucket of each API key, in the SQL database every API process shares. Each take is one
 * atomic upsert, so concurrent requests on different replicas cannot both spend the last token.
 */
export class SqlRateLimiter {
  constructor(
    private readonly db: Database,
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes one token; returns 0 when allowed, else the whole seconds to wait before retrying. */
  async take(key: string): Promise<number> {
    const [bucket] = await this.db.query<{ tokens: number; last_take_allowed: boolean }>(
      `INSERT INTO rate_limit_buckets AS bucket (bucket_key, tokens, refilled_at, last_take_allowed)
       VALUES ($1, $2::double precision - 1, now(), true)
       ON CONFLICT (bucket_key) DO UPDATE SET
         tokens = CASE WHEN ${REFILLED} >= 1 THEN ${REFILLED} - 1 ELSE ${REFILLED} END,
         last_take_allowed = ${REFILLED} >= 1,
         refilled_at = GREATEST(bucket.refilled_at, now())
       RETURNING tokens, last_take_allowed`,
      [key, this.burst, this.perSecond],
    );
    if (bucket!.last_take_allowed) return 0;
    return Math.max(1, Math.ceil((1 - Number(bucket!.tokens)) / this.perSecond));
  }

  /** Returns one token to the bucket, up to the burst: the take it paid for should not count. */
  async giveBack(key: string): Promise<void> {
    await this.db.query(
      'UPDATE rate_limit_buckets SET tokens = LEAST($2::double precision, tokens + 1) WHERE bucket_key = $1',
      [key, this.burst],
    );
  }
}
