import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { AccountSettingsRepository } from '../../infrastructure/provider-authorizations/account-settings.repository';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('account settings');

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
