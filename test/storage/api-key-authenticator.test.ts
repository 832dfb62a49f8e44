import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { AccountsRepository } from '../../src/auth/accounts.repository';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator';

describe('the API key cache of one process', () => {
  let db: Database;
  let accounts: AccountsRepository;
  let authenticator: ApiKeyAuthenticator;

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: 'memory://' });
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
});
