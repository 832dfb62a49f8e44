import type { Database } from '../storage/database';
import { GroupCommit } from '../storage/group-commit';

/** Takes per batch at most: each is a slot in a map, not a parameter, so the bound only keeps batches small. */
const TAKES_PER_BATCH = 500;

interface TakenTokens {
  /** Tokens the statement took, at most the count it asked for. */
  granted: number;
  /** The tokens left in the bucket after the take. */
  tokens: number;
}

/**
 * The refilled level of the bucket: what was left plus the time since the last take at the
 * configured rate, capped at the burst. The database's clock measures the time, so replicas whose
 * clocks differ still agree; a take that waited on another's row lock may start earlier than the
 * last refill, hence the floor at zero.
 */
const REFILLED = `LEAST($2::double precision, bucket.tokens +
  GREATEST(0, EXTRACT(EPOCH FROM (now() - bucket.refilled_at))) * $3::double precision)`;

/**
 * The token bucket of each API key, in the SQL database every API process shares. Takes are atomic
 * per bucket, so concurrent requests on different replicas cannot both spend the last token. Takes
 * made while an earlier one is being written go together: one statement per bucket (two the first
 * time) takes as many tokens as the bucket holds for them, and answers that bucket's takes.
 */
export class SqlRateLimiter {
  private readonly takes = new GroupCommit<string, number>((keys) => this.takeAll(keys), TAKES_PER_BATCH);

  constructor(
    private readonly db: Database,
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes one token; returns 0 when allowed, else the whole seconds to wait before retrying. */
  take(key: string): Promise<number> {
    return this.takes.submit(key);
  }

  private takeAll(keys: string[]): Array<Promise<number>> {
    const wanted = new Map<string, number>();
    for (const key of keys) wanted.set(key, (wanted.get(key) ?? 0) + 1);
    const taken = new Map([...wanted].map(([key, count]) => [key, this.takeFrom(key, count)] as const));
    // Within a batch the earliest takes of a bucket get its tokens; the rest wait until one refills.
    const handedOut = new Map<string, number>();
    return keys.map((key) => {
      const position = handedOut.get(key) ?? 0;
      handedOut.set(key, position + 1);
      return taken
        .get(key)!
        .then((bucket) =>
          position < bucket.granted ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)),
        );
    });
  }

  /**
   * Takes up to `count` tokens from the bucket: its row is locked, refilled and spent in one
   * statement; a bucket seen for the first time is created full, then spent.
   */
  private async takeFrom(key: string, count: number): Promise<TakenTokens> {
    const taken = (await this.spend(key, count)) ?? (await this.create(key, count));
    if (taken) return taken;
    // Another statement created the bucket between the two (another replica, or this process's next
    // batch): rows are never deleted, so it is there now.
    const spent = await this.spend(key, count);
    if (!spent) throw new Error('The rate-limit bucket was neither found nor created');
    return spent;
  }

  private async spend(key: string, count: number): Promise<TakenTokens | undefined> {
    const [bucket] = await this.db.query<TakenTokens>(
      `WITH current AS (
         SELECT ${REFILLED} AS level FROM rate_limit_buckets AS bucket WHERE bucket_key = $1 FOR UPDATE
       )
       UPDATE rate_limit_buckets AS bucket SET
         tokens = current.level - LEAST($4::int, FLOOR(current.level)),
         refilled_at = GREATEST(bucket.refilled_at, now())
       FROM current WHERE bucket.bucket_key = $1
       RETURNING LEAST($4::int, FLOOR(current.level))::int AS granted, bucket.tokens`,
      [key, this.burst, this.perSecond, count],
    );
    return bucket && { granted: bucket.granted, tokens: Number(bucket.tokens) };
  }

  /** Creates the bucket with `count` tokens already taken; undefined when it exists already. */
  private async create(key: string, count: number): Promise<TakenTokens | undefined> {
    // `last_take_allowed` is read by nothing now; the column is NOT NULL, so a new row still sets it.
    const [bucket] = await this.db.query<TakenTokens>(
      `INSERT INTO rate_limit_buckets (bucket_key, tokens, refilled_at, last_take_allowed)
       VALUES ($1, $2::double precision - LEAST($3::int, FLOOR($2::double precision)), now(), true)
       ON CONFLICT (bucket_key) DO NOTHING
       RETURNING LEAST($3::int, FLOOR($2::double precision))::int AS granted, tokens`,
      [key, this.burst, count],
    );
    return bucket && { granted: bucket.granted, tokens: Number(bucket.tokens) };
  }

  /** Returns one token to the bucket, up to the burst: the take it paid for should not count. */
  async giveBack(key: string): Promise<void> {
    await this.db.query(
      'UPDATE rate_limit_buckets SET tokens = LEAST($2::double precision, tokens + 1) WHERE bucket_key = $1',
      [key, this.burst],
    );
  }
}
