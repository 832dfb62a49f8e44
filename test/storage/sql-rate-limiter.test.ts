import { SqlRateLimiter } from '../../infrastructure/rate-limits/sql-rate-limiter';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('the shared rate limit');

/** A bucket that refills one token in about three hours: within a test, only the burst is spent. */
const NO_REFILL_PER_SECOND = 0.0001;

describe.each(engines)('the shared per-key rate limit on %s', (_engine, open) => {
  let db: Database;
  let bucketCount = 0;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
  });
  afterAll(() => db.close());

  const freshBucket = () => `key_rate_test_${bucketCount++}_${Date.now()}`;

  it('allows exactly the burst of many takes made at once, and tells the others to wait', async () => {
    const limiter = new SqlRateLimiter(db, NO_REFILL_PER_SECOND, 5);
    const bucket = freshBucket();
    const waits = await Promise.all(Array.from({ length: 12 }, () => limiter.take(bucket)));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(5);
    expect(waits.filter((wait) => wait > 0)).toHaveLength(7);
  });

  it('tells a take refused among others made at once how many seconds one token takes to refill', async () => {
    const limiter = new SqlRateLimiter(db, 0.25, 2);
    const bucket = freshBucket();
    const waits = await Promise.all(Array.from({ length: 3 }, () => limiter.take(bucket)));
    expect([...waits].sort()).toEqual([0, 0, 4]);
  });

  it('shares one bucket between two API processes taking at once', async () => {
    const replicas = [
      new SqlRateLimiter(db, NO_REFILL_PER_SECOND, 7),
      new SqlRateLimiter(db, NO_REFILL_PER_SECOND, 7),
    ];
    const bucket = freshBucket();
    const waits = await Promise.all(
      Array.from({ length: 30 }, (_, index) => replicas[index % 2]!.take(bucket)),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(7);
  });

  it('keeps buckets taken at once apart', async () => {
    const limiter = new SqlRateLimiter(db, NO_REFILL_PER_SECOND, 2);
    const [small, large] = [freshBucket(), freshBucket()];
    // Three takes from one bucket and five from the other, interleaved.
    const takes = [small, large, small, large, small, large, large, large];
    const waits = await Promise.all(takes.map((bucket) => limiter.take(bucket)));
    const allowedFrom = (bucket: string) =>
      takes.filter((taken, index) => taken === bucket && waits[index] === 0).length;
    expect([allowedFrom(small), allowedFrom(large)]).toEqual([2, 2]);
  });

  it('tells a refused take how many seconds one token takes to refill', async () => {
    const limiter = new SqlRateLimiter(db, 0.25, 1);
    const bucket = freshBucket();
    expect(await limiter.take(bucket)).toBe(0);
    // Four seconds, less whatever a loaded machine took between the two takes.
    expect(await limiter.take(bucket)).toBeGreaterThanOrEqual(3);
  });
});
