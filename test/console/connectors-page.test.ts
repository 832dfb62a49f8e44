import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { ConsoleBrowser } from '../support/console-session';
import { consoleBrowserWithRoles, getPage, postForm } from '../support/console-admin';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const PASSWORD = 'console-password-4321-abcd';

describe('the Connectors page of the console', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp({ PUBLIC_API_URL: 'https://api.clinic.example' });
    account = await testApp.createAccount('Clinic Connectors');
    admin = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
  });
  afterAll(() => testApp.close());

  const valid = (overrides: Record<string, string> = {}) => ({
    url: 'http://127.0.0.1:9/270',
    auth_type: 'basic',
    username: 'clinic-0001',
    header_name: '',
    secret: PASSWORD,
    timeout_ms: '12000',
    format: 'json',
    submitter_id: 'CLINIC0001',
    receiver_id: 'CLEARINGHOUSE',
    usage: 'test',
    ...overrides,
  });

  const readForUse = () =>
    new ConnectorSettingsRepository(testApp.db, new SecretBox(testApp.config.encryption!)).readForUse(
      account.accountId,
      'eligibility',
    );

  it('lists every kind, each not configured at first, and is in the navigation', async () => {
    const page = await getPage(testApp, admin, '/console/connectors');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/href="\/console\/connectors"\s+aria-current="page"\s+>Connectors<\/a/);
    for (const kind of [
      'eligibility',
      'prior_authorization',
      'program_enrollment',
      'coverage_requirements',
      'questionnaire',
      'mail',
    ]) {
      expect(page.text).toContain(`href="/console/connectors/${kind}"`);
    }
    expect(page.text.match(/not configured/g)).toHaveLength(6);
  });

  it('sets the eligibility connector, showing only the hint of its password afterwards', async () => {
    const saved = await postForm(testApp, admin, '/console/connectors/eligibility', valid());
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/console/connectors/eligibility?done=saved');
    const page = await getPage(testApp, admin, saved.headers.location!);
    expect(page.text).toContain('The connector was saved.');
    expect(page.text).toContain('value="http://127.0.0.1:9/270"');
    expect(page.text).toContain('ends in …abcd');
    expect(page.text).not.toContain(PASSWORD);
    expect(await readForUse()).toMatchObject({
      auth: { type: 'basic', username: 'clinic-0001', password: PASSWORD },
      format: 'json',
      usage: 'test',
      timeoutMs: 12000,
    });
    const list = await getPage(testApp, admin, '/console/connectors');
    expect(list.text).toContain('<code>http://127.0.0.1:9/270</code>');
    expect(list.text).toContain('basic (…abcd)');
  });

  it('keeps the stored password when its field is left empty', async () => {
    await postForm(testApp, admin, '/console/connectors/eligibility', valid());
    const saved = await postForm(
      testApp,
      admin,
      '/console/connectors/eligibility',
      valid({ secret: '', usage: 'production' }),
    );
    expect(saved.status).toBe(303);
    expect(await readForUse()).toMatchObject({ usage: 'production', auth: { password: PASSWORD } });
  });

  it.each([
    [
      'a lowercase submitter id',
      { submitter_id: 'clinic' },
      'submitter_id: must be 1 to 15 uppercase letters',
    ],
    [
      'a private address',
      { url: 'https://192.168.1.10/270' },
      'url: is refused by the SSRF policy: 192.168.1.10',
    ],
    ['a timeout over 30 seconds', { timeout_ms: '60000' }, 'timeout_ms: must not be greater than 30000'],
  ])(
    "re-renders the form with the API's message and 400 for %s, keeping the input but not the secret",
    async (_case, override, message) => {
      const answer = await postForm(
        testApp,
        admin,
        '/console/connectors/eligibility',
        valid({ receiver_id: 'KEPTRECEIVER', ...override }),
      );
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(message);
      expect(answer.text).toContain('value="KEPTRECEIVER"');
      expect(answer.text).not.toContain(PASSWORD);
    },
  );

  it('shows the X12 settings only for the eligibility connector', async () => {
    const page = await getPage(testApp, admin, '/console/connectors/program_enrollment');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="submitter_id"');
    const saved = await postForm(testApp, admin, '/console/connectors/program_enrollment', {
      url: 'http://127.0.0.1:9/enroll',
      auth_type: 'header',
      header_name: 'X-Api-Key',
      secret: 'hub-key-0000',
    });
    expect(saved.status).toBe(303);
    const { body } = await testApp
      .http()
      .get('/connectors/program_enrollment')
      .set(bearer(account.keys.admin));
    expect(body.data.auth).toEqual({ type: 'header', header_name: 'X-Api-Key', hint: '…0000' });
  });

  it('removes a connector and records the changes in the audit trail with the person as the actor', async () => {
    await postForm(testApp, admin, '/console/connectors/eligibility', valid());
    const { id } = (await testApp.http().get('/connectors/eligibility').set(bearer(account.keys.admin))).body
      .data;
    const removed = await postForm(testApp, admin, '/console/connectors/eligibility/delete');
    expect(removed.headers.location).toBe('/console/connectors?done=deleted');
    expect(await readForUse()).toBeUndefined();
    const trail = await testApp.http().get(`/audit-events?target_id=${id}`).set(bearer(account.keys.admin));
    const events = trail.body.data.data as Array<{ action: string; actor: { type: string } }>;
    expect(new Set(events.map((event) => event.action))).toEqual(
      new Set(['connector.configured', 'connector.deleted']),
    );
    expect(new Set(events.map((event) => event.actor.type))).toEqual(new Set(['user']));
    expect(JSON.stringify(trail.body)).not.toContain(PASSWORD);
  });

  it('sets the CRD connector without credentials, shows its JWKS URL and key ids, and rotates its key', async () => {
    const page = await getPage(testApp, admin, '/console/connectors/coverage_requirements');
    expect(page.text).toContain('name="client_id"');
    expect(page.text).not.toContain('name="auth_type"');
    expect(page.text).toContain('value="3000"');
    const saved = await postForm(testApp, admin, '/console/connectors/coverage_requirements', {
      url: 'http://127.0.0.1:9/cds-services/order-sign-crd',
      client_id: 'clinic-crd-0001',
      timeout_ms: '2000',
    });
    expect(saved.headers.location).toBe('/console/connectors/coverage_requirements?done=saved');
    const { signing } = (
      await testApp.http().get('/connectors/coverage_requirements').set(bearer(account.keys.admin))
    ).body.data;
    const shown = await getPage(testApp, admin, saved.headers.location!);
    expect(shown.text).toContain(`<code>${signing.jwks_url}</code>`);
    expect(shown.text).toContain(`<code>${signing.kid}</code>`);

    expect(shown.text).toContain(`name="from_kid" value="${signing.kid}"`);
    const rotate = () =>
      postForm(testApp, admin, '/console/connectors/coverage_requirements/rotate-signing-key', {
        from_kid: signing.kid,
      });
    const rotated = await rotate();
    expect(rotated.headers.location).toBe('/console/connectors/coverage_requirements?done=rotated');
    // Pressed again (a double click, a resent form), the form names a key no longer current: no change.
    await rotate();
    const after = await getPage(testApp, admin, rotated.headers.location!);
    expect(after.text).toContain('A new signing key signs from now on');
    expect(after.text).toMatch(
      new RegExp(`Previous key \\(still published\\)</dt>\\s*<dd><code>${signing.kid}</code>`),
    );
    const list = await getPage(testApp, admin, '/console/connectors');
    expect(list.text).toContain('signed JWT (key ');
  });

  it("re-renders the CRD form with the API's message and 400 for a time limit past 10 seconds", async () => {
    const answer = await postForm(testApp, admin, '/console/connectors/coverage_requirements', {
      url: 'http://127.0.0.1:9/cds-services/order-sign-crd',
      client_id: 'kept-client-id',
      timeout_ms: '20000',
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('timeout_ms: must not be greater than 10000');
    expect(answer.text).toContain('value="kept-client-id"');
  });

  it('sets the DTR connector with its FHIR base, a bearer token and the interactive time limit', async () => {
    const page = await getPage(testApp, admin, '/console/connectors/questionnaire');
    expect(page.text).toContain('FHIR base URL');
    expect(page.text).toContain('Timeout in milliseconds (500–10000)');
    expect(page.text).toContain('value="3000"');
    const token = 'console-dtr-token-0123456789';
    const saved = await postForm(testApp, admin, '/console/connectors/questionnaire', {
      url: 'http://127.0.0.1:9/fhir',
      auth_type: 'bearer',
      secret: token,
      timeout_ms: '800',
    });
    expect(saved.headers.location).toBe('/console/connectors/questionnaire?done=saved');
    const shown = await getPage(testApp, admin, saved.headers.location!);
    expect(shown.text).toContain('ends in …6789');
    expect(shown.text).not.toContain(token);
    const tooLong = await postForm(testApp, admin, '/console/connectors/questionnaire', {
      url: 'http://127.0.0.1:9/fhir',
      auth_type: 'bearer',
      timeout_ms: '12000',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('timeout_ms: must not be greater than 10000');
  });

  it('sets the mail connector with its server, sender and password, keeping the password when left empty, and refuses plain SMTP', async () => {
    const password = 'console-smtp-password-9876';
    const form = {
      host: '127.0.0.1',
      port: '2587',
      security: 'starttls',
      username: 'clinic-mailer',
      secret: password,
      from: 'prior-auth@clinic.example',
      ca_certificate: '',
      timeout_ms: '10000',
    };
    const page = await getPage(testApp, admin, '/console/connectors/mail');
    expect(page.text).toContain('SMTP server host');
    expect(page.text).toContain('value="starttls" selected');
    const saved = await postForm(testApp, admin, '/console/connectors/mail', form);
    expect(saved.headers.location).toBe('/console/connectors/mail?done=saved');
    const shown = await getPage(testApp, admin, saved.headers.location!);
    expect(shown.text).toContain('value="prior-auth@clinic.example"');
    expect(shown.text).toContain('ends in …9876');
    expect(shown.text).not.toContain(password);
    const kept = await postForm(testApp, admin, '/console/connectors/mail', {
      ...form,
      secret: '',
      port: '2525',
    });
    expect(kept.status).toBe(400);
    expect(kept.text).toContain('password: is required');
    const sameServer = await postForm(testApp, admin, '/console/connectors/mail', { ...form, secret: '' });
    expect(sameServer.status).toBe(303);
    const mail = await new ConnectorSettingsRepository(
      testApp.db,
      new SecretBox(testApp.config.encryption!),
    ).readMailForUse(account.accountId);
    expect(mail).toMatchObject({ host: '127.0.0.1', port: 2587, auth: { password } });
    const plain = await postForm(testApp, admin, '/console/connectors/mail', { ...form, security: 'none' });
    expect(plain.status).toBe(400);
    expect(plain.text).toContain('security: must be one of the following values: tls, starttls');
  });

  it('answers 404 for an unknown kind', async () => {
    expect((await getPage(testApp, admin, '/console/connectors/fax')).status).toBe(404);
  });

  it('refuses a form without its CSRF token', async () => {
    const answer = await testApp
      .http()
      .post('/console/connectors/eligibility')
      .set('Cookie', admin.cookie)
      .type('form')
      .send(valid());
    expect(answer.status).toBe(403);
  });

  it('shows a provider the 403 page', async () => {
    const provider = await consoleBrowserWithRoles(testApp, account.accountId, ['provider']);
    const page = await getPage(testApp, provider, '/console/connectors');
    expect(page.status).toBe(403);
    expect(page.text).not.toContain('href="/console/connectors"');
  });
});
