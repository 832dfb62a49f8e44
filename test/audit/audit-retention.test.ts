import { newId } from '../../domain/ids';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import { ConfigError } from '../../infrastructure/config/config';
import { migrate } from '../../infrastructure/storage/migrations';
import { AuditRetention } from '../../src/audit/audit-retention';
import { bearer, eventually, startTestApp, TestAccount, TestApp, testConfig } from '../support/test-app';
import { openMigratedMemoryDatabase } from '../support/migrated-database';

const HOUR_MS = 3_600_000;

describe('audit retention', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp({ AUDIT_RETENTION_DAYS: '1' });
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  const visibleEvents = async () =>
    (await testApp.http().get('/audit-events').set(bearer(account.keys.admin))).body.data.data as unknown[];

  it('keeps events younger than the retention and purges older ones', async () => {
    for (const label of ['first', 'second']) {
      await testApp
        .http()
        .post('/api-keys')
        .set(bearer(account.keys.admin))
        .send({ label, roles: ['provider'] });
    }
    expect(await visibleEvents()).toHaveLength(2);
    const retention = testApp.app.get(AuditRetention);

    expect(await retention.purge(new Date(Date.now() + 12 * HOUR_MS))).toBe(0);
    expect(await visibleEvents()).toHaveLength(2);

    expect(await retention.purge(new Date(Date.now() + 36 * HOUR_MS))).toBe(2);
    expect(await visibleEvents()).toEqual([]);
  });

  it('purges on its own when the API starts', async () => {
    const config = testConfig({ AUDIT_RETENTION_DAYS: '1' });
    const db = await openMigratedMemoryDatabase();
    await migrate(db);
    const clinic = await new AccountsRepository(db).createAccount('Clinic with old events');
    const aged = new Date(Date.now() - 48 * HOUR_MS);
    await new AuditRepository(db).record(
      [
        {
          accountId: clinic.id,
          actor: { type: 'api_key', id: 'key_old' },
          action: 'case.read',
          target: { object: 'prior_authorization', id: newId('priorAuthorization') },
          requestId: newId('request'),
        },
      ],
      aged,
    );
    const restarted = await startTestApp({}, { config, db });
    try {
      const admin = await restarted.accounts.createApiKey({
        accountId: clinic.id,
        roles: ['admin'],
        label: 'a',
      });
      await eventually(async () => {
        const response = await restarted.http().get('/audit-events').set(bearer(admin.secret));
        return response.body.data.data.length === 0;
      });
    } finally {
      await restarted.close();
    }
  });

  it('keeps six years of events unless configured otherwise', () => {
    expect(testConfig().audit.retentionDays).toBe(2190);
  });

  it('refuses a retention that is not a whole number of days', () => {
    expect(() => testConfig({ AUDIT_RETENTION_DAYS: '0.5' })).toThrow(ConfigError);
    expect(() => testConfig({ AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
