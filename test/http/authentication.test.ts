import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

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

  it('answers 401 to a key after it is revoked', async () => {
    const { key, secret } = await testApp.accounts.createApiKey({
      accountId: account.accountId,
      roles: ['provider'],
      label: 'soon revoked',
    });
    expect((await testApp.http().get('/status').set(bearer(secret))).status).toBe(200);
    await testApp.accounts.revokeApiKey(key.id);
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

  it("answers 404 when an admin revokes another account's key", async () => {
    const other = await testApp.createAccount('Other clinic');
    const [otherKey] = await testApp.accounts.listApiKeys(other.accountId);
    const response = await testApp.http().delete(`/api-keys/${otherKey!.id}`).set(bearer(account.keys.admin));
    expect(response.status).toBe(404);
    expect((await testApp.http().get('/status').set(bearer(other.keys.provider))).status).toBe(200);
  });
});
