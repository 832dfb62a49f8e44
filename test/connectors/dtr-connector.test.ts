import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const TOKEN = 'dtr-bearer-token-0123456789-qrst';
const BASE = 'http://127.0.0.1:9/fhir';

/** The `questionnaire` connector: the payer's Da Vinci DTR service, through the admin API. */
describe('the questionnaire (Da Vinci DTR) connector through the admin API', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccountWithLiveAdmin('DTR clinic');
  });
  afterAll(() => testApp.close());

  const put = (body: object, key = account.keys.admin) =>
    testApp.http().put('/connectors/questionnaire').set(bearer(key)).send(body);
  const get = (key = account.keys.admin) => testApp.http().get('/connectors/questionnaire').set(bearer(key));

  it('stores the FHIR base with its bearer token sealed, answering only a hint of it', async () => {
    const response = await put({ url: BASE, auth: { type: 'bearer', token: TOKEN } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^conn_/),
      object: 'connector',
      kind: 'questionnaire',
      mail: null,
      url: BASE,
      format: null,
      auth: { type: 'bearer', hint: '…qrst' },
      submitter_id: null,
      receiver_id: null,
      usage: null,
      client_id: null,
      signing: null,
      timeout_ms: 3000,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const fetched = await get();
    expect(fetched.body.data).toEqual(response.body.data);
    for (const body of [response.body, fetched.body]) expect(JSON.stringify(body)).not.toContain(TOKEN);
    const [row] = await testApp.db.query<{ auth_secret_sealed: string }>(
      `SELECT auth_secret_sealed FROM connector_settings WHERE id = $1`,
      [response.body.data.id],
    );
    expect(row!.auth_secret_sealed).not.toContain(TOKEN);
  });

  it('opens the token for the worker only', async () => {
    const settings = new ConnectorSettingsRepository(testApp.db, new SecretBox(testApp.config.encryption!));
    await expect(settings.readForUse(account.accountId, 'questionnaire')).resolves.toEqual({
      kind: 'questionnaire',
      url: BASE,
      auth: { type: 'bearer', token: TOKEN },
      timeoutMs: 3000,
    });
  });

  it("keeps the token when a replacement leaves it out, and takes CRD's time limits", async () => {
    const response = await put({ url: BASE, auth: { type: 'bearer' }, timeout_ms: 500 });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ auth: { type: 'bearer', hint: '…qrst' }, timeout_ms: 500 });
  });

  it.each([
    [{ timeout_ms: 499 }, 'timeout_ms', 'must not be less than 500'],
    [{ timeout_ms: 10_001 }, 'timeout_ms', 'must not be greater than 10000'],
    [{ url: 'ftp://payer.example/fhir' }, 'url', expect.stringContaining('https')],
    [{ client_id: 'clinic' }, 'client_id', 'is not a known field'],
  ])("refuses %o with the contract's 400 naming the field", async (override, field, issue) => {
    const response = await put({ url: BASE, auth: { type: 'bearer', token: TOKEN }, ...override });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field, issue }]);
  });

  it('refuses a private address by the SSRF policy', async () => {
    const response = await put({ url: 'https://10.1.2.3/fhir', auth: { type: 'none' } });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { field: 'url', issue: expect.stringMatching(/10\.1\.2\.3 is not a public unicast address/) },
    ]);
  });

  it('lets only live admin keys change it', async () => {
    expect((await put({ url: BASE, auth: { type: 'none' } }, account.keys.provider)).status).toBe(403);
    const testKeys = await testApp.createAccount();
    expect((await put({ url: BASE, auth: { type: 'none' } }, testKeys.keys.admin)).status).toBe(403);
  });

  it('is removed with its token, and both changes are audited without it', async () => {
    const { id } = (await get()).body.data;
    const removed = await testApp.http().delete('/connectors/questionnaire').set(bearer(account.keys.admin));
    expect(removed.body.data).toEqual({ id, object: 'connector', kind: 'questionnaire', deleted: true });
    expect((await get()).status).toBe(404);
    const trail = await testApp.http().get(`/audit-events?target_id=${id}`).set(bearer(account.keys.admin));
    const actions = (trail.body.data.data as Array<{ action: string }>).map((event) => event.action);
    expect(new Set(actions)).toEqual(new Set(['connector.configured', 'connector.deleted']));
    expect(JSON.stringify(trail.body)).not.toContain(TOKEN);
  });
});
