import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { AccountSettingsRepository } from '../../infrastructure/provider-authorizations/account-settings.repository';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';

/** Both engines, as in accounts-repository.test.ts: PGlite always, PostgreSQL when TEST_DATABASE_URL names one. */
const engines: Array<[string, () => Promise<Database>]> = [
  ['PGlite', () => openDatabase({ pgliteDir: 'memory://' })],
];
if (process.env.TEST_DATABASE_URL) {
  engines.push(['PostgreSQL', () => openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL })]);
} else {
  test.todo('account settings on PostgreSQL (set TEST_DATABASE_URL to run it; CI does)');
}

const ACCOUNTS = 10;

describe.each(engines)('account settings on %s', (_engine, open) => {
  let db: Database;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    accounts = new AccountsRepository(db);
  });
  afterAll(() => db.close());

  it('keeps every setting of changes made at the same time, each naming another', async () => {
    const settings = new AccountSettingsRepository(db);
    const accountIds = await Promise.all(
      Array.from({ length: ACCOUNTS }, async () => (await accounts.createAccount('Settings clinic')).id),
    );

    await Promise.all(
      accountIds.flatMap((accountId) => [
        settings.update(accountId, { require_provider_authorization: { test: true } }),
        settings.update(accountId, { require_provider_authorization: { live: false } }),
        settings.update(accountId, { provider_authorization_period_days: 90 }),
      ]),
    );

    const stored = new AccountSettingsRepository(db);
    for (const accountId of accountIds)
      expect(await stored.get(accountId)).toEqual({
        require_provider_authorization: { test: true, live: false },
        provider_authorization_period_days: 90,
      });
  });

  it('answers a change with every setting as stored, the ones it left alone included', async () => {
    const settings = new AccountSettingsRepository(db);
    const { id: accountId } = await accounts.createAccount('Settings clinic');
    await new AccountSettingsRepository(db).update(accountId, { provider_authorization_period_days: 30 });

    expect(await settings.update(accountId, { require_provider_authorization: { test: true } })).toEqual({
      require_provider_authorization: { test: true, live: true },
      provider_authorization_period_days: 30,
    });
  });
});
