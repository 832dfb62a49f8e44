import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { Database } from '../../infrastructure/storage/database';
import { openMigratedMemoryDatabase } from '../support/migrated-database';
import { bearer, eventually, startTestApp, testConfig, TestAccount, TestApp } from '../support/test-app';

describe('authentication', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  it('answers 401 on /status without an Authorization header', async () => {
    const response = await testApp.http().get('/status');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });

  it('answers 401 to an unknown key', async () => {
    const response = await testApp
      .http()
      .get('/status')
      .set(bearer('hak_thisKeyWasNeverIssuedByTheService000'));
    expect(response.status).toBe(401);
  });

  it('answers 401 to a malformed Authorization header', async () => {
    const response = await testApp
      .http()
      .get('/status')
      .set('Authorization', `Basic ${account.keys.provider}`);
    expect(response.status).toBe(401);
  });

  it('answers 401 to a key from the request after an admin revokes it', async () => {
    const { key, secret } = await testApp.accounts.createApiKey({
      accountId: account.accountId,
      roles: ['provider'],
      label: 'soon revoked',
    });
    expect((await testApp.http().get('/status').set(bearer(secret))).status).toBe(200);
    const revoked = await testApp.http().delete(`/api-keys/${key.id}`).set(bearer(account.keys.admin));
    expect(revoked.status).toBe(200);
    expect((await testApp.http().get('/status').set(bearer(secret))).status).toBe(401);
  });

  it('stores only a digest of each key, never the key itself', async () => {
    const rows = await testApp.db.query<Record<string, unknown>>('SELECT * FROM api_keys');
    const stored = JSON.stringify(rows);
    for (const secret of Object.values(account.keys)) expect(stored).not.toContain(secret);
  });

  it('answers 403 forbidden when the key lacks the role the route needs', async () => {
    const response = await testApp.http().get('/api-keys').set(bearer(account.keys.provider));
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('forbidden');
  });

  it('lets an admin create a key whose secret is shown once and works at once', async () => {
    const created = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .send({ label: 'pharmacy integration', roles: ['provider'] });
    expect(created.status).toBe(201);
    expect(created.body.data.secret).toMatch(/^hak_/);
    expect((await testApp.http().get('/status').set(bearer(created.body.data.secret))).status).toBe(200);

    const listed = await testApp.http().get('/api-keys').set(bearer(account.keys.admin));
    const listedKey = listed.body.data.data.find((key: { id: string }) => key.id === created.body.data.id);
    expect(listedKey).toMatchObject({ label: 'pharmacy integration', roles: ['provider'] });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.data.secret);
  });

  it('refuses to let an account admin grant the platform-wide operator role', async () => {
    const response = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .send({ label: 'codec access', roles: ['operator'] });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'roles', issue: expect.stringContaining('platform admin CLI') }],
    });
    const listed = await testApp.http().get('/api-keys').set(bearer(account.keys.admin));
    expect(listed.body.data.data.map((key: { label: string }) => key.label)).not.toContain('codec access');
  });

  it("answers 404 when an admin revokes another account's key", async () => {
    const other = await testApp.createAccount('Other clinic');
    const [otherKey] = await testApp.accounts.listApiKeys(other.accountId);
    const response = await testApp.http().delete(`/api-keys/${otherKey!.id}`).set(bearer(account.keys.admin));
    expect(response.status).toBe(404);
    expect((await testApp.http().get('/status').set(bearer(other.keys.provider))).status).toBe(200);
  });
});

describe('authentication before the body is read', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  it('answers 401 to a keyless request without parsing its body', async () => {
    const response = await testApp
      .http()
      .post('/webhooks')
      .set('Content-Type', 'application/json')
      .send('{"this is": not json');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });

  it('answers 401, not 413, to a keyless request with an oversized body', async () => {
    const response = await testApp
      .http()
      .post('/prior-authorization')
      .send({ padding: 'x'.repeat(2 * 1024 * 1024) });
    expect(response.status).toBe(401);
  });

  it('still reads the body of an authenticated request', async () => {
    const response = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .set('Content-Type', 'application/json')
      .send('{"this is": not json');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it('keeps the documentation public', async () => {
    expect((await testApp.http().get('/openapi.json')).status).toBe(200);
    expect((await testApp.http().get('/docs/')).status).toBe(200);
  });
});

describe('requests without a usable key', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let queries: string[];

  beforeAll(async () => {
    const config = testConfig({
      KEYLESS_RATE_LIMIT_PER_SECOND: '1',
      KEYLESS_RATE_LIMIT_BURST: '3',
      API_KEY_CACHE_TTL_MS: '30000',
    });
    const db = await openMigratedMemoryDatabase();
    queries = [];
    const countingDb: Database = {
      engine: db.engine,
      query: (sql, params) => {
        queries.push(sql);
        return db.query(sql, params);
      },
      transaction: (work) => db.transaction(work),
      close: () => db.close(),
    };
    testApp = await startTestApp({}, { config, db: countingDb });
    account = await testApp.createAccount();
    // Used once, so this process knows the key before the address is refused.
    await testApp.http().get('/status').set(bearer(account.keys.provider));
  });
  afterAll(() => testApp.close());

  it('cost no database query when they carry no key or a malformed one', async () => {
    queries.length = 0;
    await testApp.http().get('/status');
    await testApp.http().get('/status').set('Authorization', 'Basic dXNlcjpwYXNzd29yZA==');
    await testApp.http().get('/status').set('Authorization', 'Bearer short');
    expect(queries).toEqual([]);
  });

  it('answer 429 with Retry-After once an address spends its burst', async () => {
    const statuses: number[] = [];
    let last;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      last = await testApp.http().get('/status');
      statuses.push(last.status);
    }
    expect(statuses.slice(-1)).toEqual([429]);
    expect(last!.body.error.code).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('include unknown keys: once an address is refused, guesses stop costing lookups', async () => {
    let refused;
    do refused = await testApp.http().get('/status');
    while (refused.status !== 429);
    queries.length = 0;
    const response = await testApp.http().get('/status').set(bearer('hak_aGuessThatWasNeverIssued000000000'));
    expect(response.status).toBe(429);
    expect(queries).toEqual([]);
  });

  it('leave a key the process already knows working from a refused address', async () => {
    let refused;
    do refused = await testApp.http().get('/status');
    while (refused.status !== 429);
    expect((await testApp.http().get('/status').set(bearer(account.keys.provider))).status).toBe(200);
  });
});

describe('key lookups from one client address', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let keyLookups: number;

  beforeAll(async () => {
    const config = testConfig({
      KEYLESS_RATE_LIMIT_PER_SECOND: '1',
      KEYLESS_RATE_LIMIT_BURST: '3',
      TRUSTED_PROXY_HOPS: '1',
    });
    const db = await openMigratedMemoryDatabase();
    keyLookups = 0;
    const countingDb: Database = {
      engine: db.engine,
      query: (sql, params) => {
        if (sql.includes('WHERE k.key_digest = $1')) keyLookups += 1;
        return db.query(sql, params);
      },
      transaction: (work) => db.transaction(work),
      close: () => db.close(),
    };
    testApp = await startTestApp({}, { config, db: countingDb });
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  const from = (client: string) => ({ 'X-Forwarded-For': client });

  it('cost at most the burst in lookups when many unknown keys arrive at once', async () => {
    keyLookups = 0;
    const guesses = Array.from({ length: 12 }, (_, index) =>
      testApp
        .http()
        .get('/status')
        .set(from('203.0.113.7'))
        .set(bearer(`hak_concurrentGuess${String(index).padStart(20, '0')}`)),
    );
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    expect(keyLookups).toBeLessThanOrEqual(3);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(9);
  });

  it('let valid keys the process has not cached through however many arrive from one address', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { secret } = await testApp.accounts.createApiKey({
        accountId: account.accountId,
        roles: ['provider'],
        label: `fresh key ${attempt}`,
      });
      expect((await testApp.http().get('/status').set(from('203.0.113.8')).set(bearer(secret))).status).toBe(
        200,
      );
    }
  });

  it('are limited per client behind a trusted proxy, not per proxy', async () => {
    let refused;
    do refused = await testApp.http().get('/status').set(from('198.51.100.1'));
    while (refused.status !== 429);
    expect((await testApp.http().get('/status').set(from('198.51.100.2'))).status).toBe(401);
  });
});

describe('the API key cache', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp({ API_KEY_CACHE_TTL_MS: '1000' });
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  it('refuses a key revoked by another process within the cache lifetime', async () => {
    const { key, secret } = await testApp.accounts.createApiKey({
      accountId: account.accountId,
      roles: ['provider'],
      label: 'revoked elsewhere',
    });
    expect((await testApp.http().get('/status').set(bearer(secret))).status).toBe(200);
    // Another repository on the same database: what the admin CLI or another API replica does.
    await new AccountsRepository(testApp.db).revokeApiKey(key.id);
    await eventually(
      async () => (await testApp.http().get('/status').set(bearer(secret))).status === 401,
      10_000,
    );
  });
  it('refuses the keys of an account suspended by another process within the cache lifetime, saying why', async () => {
    const suspended = await testApp.createAccount('Suspended elsewhere');
    expect((await testApp.http().get('/status').set(bearer(suspended.keys.provider))).status).toBe(200);
    await new AccountsRepository(testApp.db).setAccountStatus(suspended.accountId, 'suspended');
    const refused = await eventually(async () => {
      const response = await testApp.http().get('/status').set(bearer(suspended.keys.provider));
      return response.status === 401 ? response : undefined;
    }, 10_000);
    expect(refused.body.error.message).toContain('This account is suspended');
  });

  it("shows when each key was last used in the account's key list", async () => {
    const fresh = await testApp.createAccount('Last use clinic');
    const before = await testApp.http().get('/api-keys').set(bearer(fresh.keys.admin));
    const providerKeyHint = `…${fresh.keys.provider.slice(-4)}`;
    const providerKey = (keys: Array<{ key_hint: string; last_used_at: string | null }>) =>
      keys.find((key) => key.key_hint === providerKeyHint)!;
    expect(providerKey(before.body.data.data).last_used_at).toBeNull();

    await testApp.http().get('/status').set(bearer(fresh.keys.provider));

    const after = await testApp.http().get('/api-keys').set(bearer(fresh.keys.admin));
    expect(Date.parse(providerKey(after.body.data.data).last_used_at!)).toBeGreaterThanOrEqual(
      Date.parse(before.headers.date) - 1_000,
    );
  });
});
