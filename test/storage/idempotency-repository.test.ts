import { AccountsRepository, Principal } from '../../infrastructure/accounts/accounts.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import {
  IdempotencyRepository,
  IdempotentRequest,
} from '../../infrastructure/idempotency/idempotency.repository';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { testConfig } from '../support/test-app';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('Idempotency-Key store');

const LOCK_MS = 30_000;

describe.each(engines)('the Idempotency-Key store on %s', (_engine, open) => {
  let db: Database;
  let keys: IdempotencyRepository;
  let principal: Principal;
  let count = 0;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    keys = new IdempotencyRepository(db, new SecretBox(testConfig().encryption!));
    const account = await new AccountsRepository(db).createAccount('Idempotent clinic');
    principal = { accountId: account.id, livemode: false } as Principal;
  });
  afterAll(() => db.close());

  const request = (overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
    accountId: principal.accountId,
    livemode: false,
    key: `key-${count++}`,
    endpoint: 'POST /webhooks',
    requestSha256: 'a'.repeat(64),
    candidateId: `bound-${count}`,
    ...overrides,
  });

  it('binds the first request and tells a retry it is still in flight, for how long', async () => {
    const first = request();
    expect(await keys.begin(first, LOCK_MS)).toEqual({ kind: 'first', boundId: first.candidateId });

    const retry = await keys.begin({ ...first, candidateId: 'another' }, LOCK_MS);
    expect(retry).toEqual({ kind: 'in_flight', retryAfterSeconds: expect.any(Number) });
    expect((retry as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(30);
  });

  it('replays the answer it keeps, sealed', async () => {
    const first = request();
    await keys.begin(first, LOCK_MS);
    await keys.answer(principal, first.key, 201, { data: { secret: 'hak_test_secret' } });

    expect(await keys.begin(first, LOCK_MS)).toEqual({
      kind: 'answered',
      status: 201,
      body: { data: { secret: 'hak_test_secret' } },
    });
    const [row] = await db.query<{ answer_sealed: string }>(
      'SELECT answer_sealed FROM idempotency_keys WHERE idempotency_key = $1',
      [first.key],
    );
    expect(row!.answer_sealed).not.toContain('hak_test_secret');
  });

  it('hands an unlocked request without an answer to its retry as interrupted, under the same bound id', async () => {
    const first = request();
    await keys.begin(first, LOCK_MS);
    await keys.unlock(principal, first.key);

    expect(await keys.begin({ ...first, candidateId: 'another' }, LOCK_MS)).toEqual({
      kind: 'interrupted',
      boundId: first.candidateId,
    });
  });

  it('refuses the same key with another body or another route', async () => {
    const first = request();
    await keys.begin(first, LOCK_MS);

    await expect(keys.begin({ ...first, requestSha256: 'b'.repeat(64) }, LOCK_MS)).rejects.toMatchObject({
      code: 'idempotency_conflict',
    });
    await expect(keys.begin({ ...first, endpoint: 'POST /api-keys' }, LOCK_MS)).rejects.toMatchObject({
      code: 'idempotency_conflict',
    });
  });

  it('frees a key past the replay window, and deletes it with its answer', async () => {
    const first = request();
    await keys.begin(first, LOCK_MS);
    await keys.answer(principal, first.key, 201, { data: {} });
    await db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE idempotency_key = $1`,
      [first.key],
    );

    expect(await keys.deleteExpired()).toBeGreaterThanOrEqual(1);
    expect(await keys.begin({ ...first, requestSha256: 'c'.repeat(64) }, LOCK_MS)).toEqual({
      kind: 'first',
      boundId: first.candidateId,
    });
  });
});
