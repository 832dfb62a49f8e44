import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { digestApiKey } from '../../infrastructure/accounts/api-key-secret';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate, readMigrations } from '../../infrastructure/storage/migrations';
import { databaseEngines } from '../support/database-engines';
import { openMigratedMemoryDatabase } from '../support/migrated-database';

const engines = databaseEngines('accounts repository');

describe.each(engines)('accounts and API keys on %s', (_engine, open) => {
  let db: Database;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    accounts = new AccountsRepository(db);
  });
  afterAll(() => db.close());

  it('records every migration once, so a second run applies nothing', async () => {
    expect(await migrate(db)).toEqual([]);
    const recorded = await db.query<{ version: string }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(recorded.map((row) => row.version)).toEqual(
      readMigrations().map((migration) => migration.version),
    );
  });

  it('creates accounts with opaque acct_ ids', async () => {
    const account = await accounts.createAccount('Riverside Infusion Center');
    expect(account.id).toMatch(/^acct_[0-9a-z]{26}$/);
    expect(await accounts.findAccount(account.id)).toEqual(account);
  });

  it('creates accounts active, and suspends and reactivates them', async () => {
    const account = await accounts.createAccount('Harbor Oncology');
    expect(account).toMatchObject({ status: 'active', suspended_at: null });

    const suspended = await accounts.setAccountStatus(account.id, 'suspended');
    expect(suspended).toMatchObject({ status: 'suspended', suspended_at: expect.any(String) });
    expect(await accounts.setAccountStatus(account.id, 'suspended')).toBeUndefined();
    expect(await accounts.findAccount(account.id)).toEqual(suspended);

    expect(await accounts.setAccountStatus(account.id, 'active')).toMatchObject({
      status: 'active',
      suspended_at: null,
    });
  });

  it('authenticates a key by its secret and returns its account, roles and account status', async () => {
    const account = await accounts.createAccount('Clinic A');
    const { key, secret } = await accounts.createApiKey({
      accountId: account.id,
      roles: ['provider', 'reviewer'],
      label: 'x',
    });
    expect(await accounts.findActiveKeyBySecret(secret)).toEqual({
      principal: {
        accountId: account.id,
        roles: ['provider', 'reviewer'],
        credential: { type: 'api_key', id: key.id },
        livemode: false,
      },
      accountStatus: 'active',
      lastUsedAt: null,
    });
    expect(key.key_hint).toBe(`…${secret.slice(-4)}`);
  });

  it("still finds a suspended account's key, saying the account is suspended", async () => {
    const account = await accounts.createAccount('Clinic S');
    const { secret } = await accounts.createApiKey({
      accountId: account.id,
      roles: ['provider'],
      label: 'x',
    });
    await accounts.setAccountStatus(account.id, 'suspended');
    expect(await accounts.findActiveKeyBySecret(secret)).toMatchObject({ accountStatus: 'suspended' });
  });

  it("records a key's use at most once a minute", async () => {
    const account = await accounts.createAccount('Clinic U');
    const { key } = await accounts.createApiKey({ accountId: account.id, roles: ['provider'], label: 'x' });
    await accounts.recordKeyUse(key.id);
    const [first] = await accounts.listApiKeys(account.id);
    expect(first!.last_used_at).toEqual(expect.any(String));

    await accounts.recordKeyUse(key.id);
    const [second] = await accounts.listApiKeys(account.id);
    expect(second!.last_used_at).toBe(first!.last_used_at);
  });

  it('stops authenticating a key the moment it is revoked', async () => {
    const account = await accounts.createAccount('Clinic B');
    const { key, secret } = await accounts.createApiKey({
      accountId: account.id,
      roles: ['provider'],
      label: 'x',
    });
    const revoked = await accounts.revokeApiKey(key.id);
    expect(revoked?.revoked_at).toEqual(expect.any(String));
    expect(await accounts.findActiveKeyBySecret(secret)).toBeUndefined();
    expect(await accounts.revokeApiKey(key.id)).toBeUndefined();
  });

  it('refuses a role the service does not know', async () => {
    const account = await accounts.createAccount('Clinic C');
    await expect(
      db.query(
        "INSERT INTO api_keys (id, account_id, key_digest, key_hint, label, roles) VALUES ('key_x', $1, 'd', 'h', 'l', ARRAY['root'])",
        [account.id],
      ),
    ).rejects.toThrow(/api_keys_roles_known/);
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO accounts (id, name) VALUES ('acct_rolled_back', 'Half written')");
        throw new Error('crash mid-way');
      }),
    ).rejects.toThrow('crash mid-way');
    expect(await accounts.findAccount('acct_rolled_back')).toBeUndefined();
  });
});

describe('keys issued before test and live modes', () => {
  it('keep working after migration 0014, as test keys that list as such', async () => {
    const db = await openDatabase({ pgliteDir: 'memory://' });
    try {
      await migrate(
        db,
        readMigrations().filter((migration) => migration.version < '0014'),
      );
      const accounts = new AccountsRepository(db);
      const account = await accounts.createAccount('Clinic from before modes');
      // The row exactly as the service wrote it before modes: a `hak_` secret that names no mode.
      const oldSecret = 'hak_issuedBeforeModes0000000000000000000000000';
      await db.query(
        `INSERT INTO api_keys (id, account_id, key_digest, key_hint, label, roles)
         VALUES ('key_before_modes', $1, $2, '…0000', 'old key', ARRAY['provider'])`,
        [account.id, digestApiKey(oldSecret)],
      );

      expect(await migrate(db)).toContain('0014_modes');

      const found = await accounts.findActiveKeyBySecret(oldSecret);
      expect(found?.principal).toMatchObject({ accountId: account.id, livemode: false });
      expect(await accounts.listApiKeys(account.id)).toEqual([
        expect.objectContaining({ id: 'key_before_modes', livemode: false }),
      ]);
    } finally {
      await db.close();
    }
  });

  it('are joined by new keys whose prefix names their mode', async () => {
    const db = await openMigratedMemoryDatabase();
    try {
      await migrate(db);
      const accounts = new AccountsRepository(db);
      const { id: accountId } = await accounts.createAccount('Clinic with both modes');
      const test = await accounts.createApiKey({ accountId, roles: ['provider'], label: 'test' });
      const live = await accounts.createApiKey({
        accountId,
        roles: ['provider'],
        label: 'live',
        mode: 'live',
      });
      expect(test.secret).toMatch(/^hak_test_[A-Za-z0-9_-]{43}$/);
      expect(live.secret).toMatch(/^hak_live_[A-Za-z0-9_-]{43}$/);
      expect((await accounts.findActiveKeyBySecret(test.secret))?.principal.livemode).toBe(false);
      expect((await accounts.findActiveKeyBySecret(live.secret))?.principal.livemode).toBe(true);
    } finally {
      await db.close();
    }
  });
});
