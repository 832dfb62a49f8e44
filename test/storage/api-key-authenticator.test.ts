import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator';
import { openMigratedMemoryDatabase } from '../support/migrated-database';

describe('the API key cache of one process', () => {
  let db: Database;
  let accounts: AccountsRepository;
  let authenticator: ApiKeyAuthenticator;

  beforeAll(async () => {
    db = await openMigratedMemoryDatabase();
    await migrate(db);
    accounts = new AccountsRepository(db);
    authenticator = new ApiKeyAuthenticator(accounts, 30_000);
  });
  afterAll(() => db.close());

  async function newKey() {
    const account = await accounts.createAccount('Clinic');
    return accounts.createApiKey({ accountId: account.id, roles: ['provider'], label: 'front desk' });
  }

  it('refuses a key revoked here from the next request on, once revoked', async () => {
    const { key, secret } = await newKey();
    expect(await authenticator.principalFor(secret)).toBeDefined();

    await accounts.revokeApiKey(key.id);
    authenticator.forget(key.id);

    expect(await authenticator.principalFor(secret)).toBeUndefined();
  });

  it('does not cache what a lookup read before a revocation that happened while it ran', async () => {
    const { key, secret } = await newKey();

    const lookupUnderway = authenticator.principalFor(secret);
    const revocation = accounts.revokeApiKey(key.id);
    authenticator.forget(key.id);
    await Promise.all([lookupUnderway, revocation]);

    expect(await authenticator.principalFor(secret)).toBeUndefined();
  });

  it("refuses a suspended account's key with the suspended message once the cached lookup expires", async () => {
    let now = 1_000_000;
    const clocked = new ApiKeyAuthenticator(accounts, 5_000, () => now);
    const { key, secret } = await newKey();
    expect(await clocked.principalFor(secret)).toBeDefined();

    await accounts.setAccountStatus(key.account_id, 'suspended');
    now += 5_000;

    await expect(clocked.principalFor(secret)).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining('suspended'),
    });
  });

  it('does not extend a cached lookup on each hit, so a busy key of a suspended account is refused within the TTL', async () => {
    let now = 2_000_000;
    const clocked = new ApiKeyAuthenticator(accounts, 5_000, () => now);
    const { key, secret } = await newKey();
    await clocked.principalFor(secret);
    await accounts.setAccountStatus(key.account_id, 'suspended');

    for (let second = 1; second < 5; second += 1) {
      now += 1_000;
      expect(await clocked.principalFor(secret)).toBeDefined();
    }
    now += 1_000;

    await expect(clocked.principalFor(secret)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it("records a key's last use on its first request and not again within the minute", async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const clocked = new ApiKeyAuthenticator(accounts, 5_000, () => now);
    const { key, secret } = await newKey();
    const lastUsed = async () => (await accounts.listApiKeys(key.account_id))[0]!.last_used_at;

    await clocked.principalFor(secret);
    const first = await lastUsed();
    expect(first).toEqual(expect.any(String));

    now += 30_000;
    await clocked.principalFor(secret);
    expect(await lastUsed()).toBe(first);
  });
});
