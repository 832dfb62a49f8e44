import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const PASSWORD = 'clearinghouse-password-7731';
const MAIL_PASSWORD = 'smtp-relay-password-4410';

describe('connector settings through the admin API', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccountWithLiveAdmin('Connector clinic');
  });
  afterAll(() => testApp.close());

  const put = (kind: string, body: unknown, key = account.keys.admin) =>
    testApp
      .http()
      .put(`/connectors/${kind}`)
      .set(bearer(key))
      .send(body as object);
  const get = (path: string, key = account.keys.admin) => testApp.http().get(path).set(bearer(key));

  const eligibility = (overrides: Record<string, unknown> = {}) => ({
    url: 'http://127.0.0.1:9/x12/270',
    format: 'x12',
    auth: { type: 'basic', username: 'clinic-0001', password: PASSWORD },
    submitter_id: 'CLINIC0001',
    receiver_id: 'CLEARINGHOUSE',
    usage: 'test',
    timeout_ms: 8000,
    ...overrides,
  });

  it('creates the eligibility connector and answers its settings with a hint instead of the password', async () => {
    const response = await put('eligibility', eligibility());
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^conn_/),
      object: 'connector',
      kind: 'eligibility',
      url: 'http://127.0.0.1:9/x12/270',
      format: 'x12',
      auth: { type: 'basic', username: 'clinic-0001', hint: '…7731' },
      submitter_id: 'CLINIC0001',
      receiver_id: 'CLEARINGHOUSE',
      usage: 'test',
      client_id: null,
      signing: null,
      mail: null,
      timeout_ms: 8000,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = await get('/connectors');
    const fetched = await get('/connectors/eligibility');
    expect(listed.body.data).toMatchObject({ object: 'list', data: [response.body.data], has_more: false });
    expect(fetched.body.data).toEqual(response.body.data);
    for (const body of [response.body, listed.body, fetched.body])
      expect(JSON.stringify(body)).not.toContain(PASSWORD);
  });

  it('fills in the defaults: raw X12, production usage and a 10 second timeout', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Defaults clinic');
    const response = await put(
      'eligibility',
      { ...eligibility(), format: undefined, usage: undefined, timeout_ms: undefined },
      fresh.keys.admin,
    );
    expect(response.body.data).toMatchObject({ format: 'x12', usage: 'production', timeout_ms: 10000 });
  });

  it('stores a PAS endpoint and a program hub with only an address, credentials and a timeout', async () => {
    const pas = await put('prior_authorization', {
      url: 'http://127.0.0.1:9/fhir/Claim/$submit',
      auth: { type: 'bearer', token: 'pas-token-0123456789abcdef' },
    });
    expect(pas.status).toBe(200);
    expect(pas.body.data).toMatchObject({
      kind: 'prior_authorization',
      format: null,
      submitter_id: null,
      receiver_id: null,
      usage: null,
      auth: { type: 'bearer', hint: '…cdef' },
      timeout_ms: 10000,
    });
    const hub = await put('program_enrollment', {
      url: 'http://127.0.0.1:9/enroll',
      auth: { type: 'header', name: 'X-Api-Key', value: 'hub-key-abcdefgh-4242' },
    });
    expect(hub.body.data.auth).toEqual({ type: 'header', header_name: 'X-Api-Key', hint: '…4242' });
    const kinds = (await get('/connectors')).body.data.data.map(
      (connector: { kind: string }) => connector.kind,
    );
    expect(kinds).toEqual(['eligibility', 'prior_authorization', 'program_enrollment']);
  });

  it('replaces the settings and keeps the stored password when the replacement leaves it out', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Replacing clinic');
    const first = (await put('eligibility', eligibility(), fresh.keys.admin)).body.data;
    const { password: _password, ...authWithoutPassword } = eligibility().auth;
    const replaced = await put(
      'eligibility',
      eligibility({ url: 'http://127.0.0.1:9/v2/270', auth: authWithoutPassword }),
      fresh.keys.admin,
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({
      id: first.id,
      url: 'http://127.0.0.1:9/v2/270',
      auth: { type: 'basic', hint: '…7731' },
      created_at: first.created_at,
    });
  });

  it('asks for the secret when the auth type changes and none of the new type is stored', async () => {
    const response = await put('eligibility', eligibility({ auth: { type: 'bearer' } }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { field: 'auth.token', issue: expect.stringMatching(/^is required/) },
    ]);
  });

  it('asks for the password again when the URL moves to another origin, so no stored secret follows it', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Moving clinic');
    await put('eligibility', eligibility(), fresh.keys.admin);
    const { password: _password, ...authWithoutPassword } = eligibility().auth;
    const moved = await put(
      'eligibility',
      eligibility({ url: 'http://127.0.0.2:9/x12/270', auth: authWithoutPassword }),
      fresh.keys.admin,
    );
    expect(moved.status).toBe(400);
    expect(moved.body.error.details).toEqual([
      {
        field: 'auth.password',
        issue: expect.stringMatching(/same auth type, user or header name and URL origin/),
      },
    ]);
  });

  it('asks for the password again when the user changes', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Renaming clinic');
    await put('eligibility', eligibility(), fresh.keys.admin);
    const moved = await put(
      'eligibility',
      eligibility({ auth: { type: 'basic', username: 'someone-else' } }),
      fresh.keys.admin,
    );
    expect(moved.status).toBe(400);
  });

  it.each([
    ['an ftp URL', { url: 'ftp://clearinghouse.example/270' }, 'url'],
    ['credentials in the URL', { url: 'https://user:pass@clearinghouse.example/270' }, 'url'],
    ['an unknown format', { format: 'xml' }, 'format'],
    ['a lowercase submitter id', { submitter_id: 'clinic01' }, 'submitter_id'],
    ['a receiver id of 16 characters', { receiver_id: 'ABCDEFGHIJKLMNOP' }, 'receiver_id'],
    ['an unknown usage', { usage: 'staging' }, 'usage'],
    ['a timeout under a second', { timeout_ms: 999 }, 'timeout_ms'],
    ['a timeout over the 30 second cap', { timeout_ms: 30001 }, 'timeout_ms'],
    ['an unknown auth type', { auth: { type: 'oauth' } }, 'auth.type'],
    ['basic auth without a user name', { auth: { type: 'basic', password: PASSWORD } }, 'auth.username'],
    [
      'a colon in the user name',
      { auth: { type: 'basic', username: 'a:b', password: PASSWORD } },
      'auth.username',
    ],
    ['a token beside basic auth', { auth: { type: 'basic', username: 'a', token: 'x' } }, 'auth.token'],
    ['a header that frames the message', { auth: { type: 'header', name: 'Host', value: 'x' } }, 'auth.name'],
    [
      'a line break in a header value',
      { auth: { type: 'header', name: 'X-Key', value: 'a\r\nb' } },
      'auth.value',
    ],
    ['an unknown field', { colour: 'blue' }, 'colour'],
  ])('refuses %s with 400 naming the field', async (_case, override, field) => {
    const response = await put('eligibility', eligibility(override));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  });

  it("refuses the X12 envelope's settings on a connector that does not speak X12", async () => {
    const response = await put('program_enrollment', {
      url: 'http://127.0.0.1:9/enroll',
      auth: { type: 'none' },
      submitter_id: 'CLINIC0001',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: 'submitter_id', issue: 'is not a known field' }]);
  });

  it.each([
    [
      'the cloud metadata address',
      'http://169.254.169.254/latest/meta-data',
      /169\.254\.169\.254 is not a public unicast address/,
    ],
    ['a private network address', 'https://10.1.2.3/270', /10\.1\.2\.3 is not a public unicast address/],
    [
      'a host that does not resolve',
      'https://no-such-host.invalid/270',
      /no-such-host\.invalid does not resolve/,
    ],
  ])('refuses %s by the SSRF policy', async (_case, url, reason) => {
    const response = await put('eligibility', eligibility({ url }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: 'url', issue: expect.stringMatching(reason) }]);
  });

  it('refuses plain http to a target the allow-list does not name, since connectors carry PHI and credentials', async () => {
    const response = await put('eligibility', eligibility({ url: 'http://8.8.8.8/270' }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { field: 'url', issue: 'is refused by the SSRF policy: the URL must use https' },
    ]);
  });

  const mail = (overrides: Record<string, unknown> = {}) => ({
    host: '127.0.0.1',
    port: 2587,
    security: 'starttls',
    username: 'clinic-mailer',
    password: MAIL_PASSWORD,
    from: 'prior-auth@clinic.example',
    ...overrides,
  });

  it('creates the mail connector and answers its server and sender, with a hint instead of the password', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Mail clinic');
    const response = await put('mail', mail(), fresh.keys.admin);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      kind: 'mail',
      url: 'smtp://127.0.0.1:2587',
      auth: { type: 'basic', username: 'clinic-mailer', hint: '…4410' },
      mail: {
        host: '127.0.0.1',
        port: 2587,
        security: 'starttls',
        from: 'prior-auth@clinic.example',
        ca_certificate: null,
      },
      timeout_ms: 10000,
    });
    const fetched = await get('/connectors/mail', fresh.keys.admin);
    expect(fetched.body.data).toEqual(response.body.data);
    for (const body of [response.body, fetched.body])
      expect(JSON.stringify(body)).not.toContain(MAIL_PASSWORD);
  });

  it('keeps the stored mail password for the same user and server, and asks for it when the server moves', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Mail moving clinic');
    await put('mail', mail(), fresh.keys.admin);
    const kept = await put('mail', mail({ password: undefined, timeout_ms: 20000 }), fresh.keys.admin);
    expect(kept.status).toBe(200);
    expect(kept.body.data.auth.hint).toBe('…4410');
    for (const moved of [{ port: 2465 }, { security: 'tls' }, { username: 'someone-else' }]) {
      const response = await put('mail', mail({ password: undefined, ...moved }), fresh.keys.admin);
      expect(response.status).toBe(400);
      expect(response.body.error.details).toEqual([
        {
          field: 'password',
          issue: 'is required: a stored one is kept only for the same user, host, port and security',
        },
      ]);
    }
  });

  it('takes a mail server without credentials', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Relay clinic');
    const response = await put(
      'mail',
      mail({ username: undefined, password: undefined, security: 'tls', port: 2465 }),
      fresh.keys.admin,
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      url: 'smtps://127.0.0.1:2465',
      auth: { type: 'none', hint: null },
    });
  });

  it.each([
    ['plain SMTP', { security: 'none' }, 'security', /must be one of the following values: tls, starttls/],
    ['a port out of range', { port: 70000 }, 'port', /must not be greater than 65535/],
    [
      'a host that is not a name',
      { host: 'smtp server.example' },
      'host',
      /must be a host name or an IP address/,
    ],
    ['a sender that is not an address', { from: 'Prior auth team' }, 'from', /must be an email/],
    ['a password without a user', { username: undefined }, 'password', /is only with a username/],
    [
      'a certificate that is not PEM',
      { ca_certificate: 'not a certificate' },
      'ca_certificate',
      /must be a PEM certificate/,
    ],
    ['a time limit past 30 s', { timeout_ms: 60000 }, 'timeout_ms', /must not be greater than 30000/],
    ['a URL instead of a host', { url: 'smtp://127.0.0.1:2587' }, 'url', /is not a known field/],
  ])('refuses a mail connector with %s', async (_case, overrides, field, issue) => {
    const response = await put('mail', mail(overrides));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toContainEqual({ field, issue: expect.stringMatching(issue) });
  });

  it('refuses a mail server the SSRF policy refuses', async () => {
    const response = await put('mail', mail({ host: '10.1.2.3' }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { field: 'host', issue: 'is refused by the SSRF policy: 10.1.2.3 is not a public unicast address' },
    ]);
  });

  it('refuses a body that is not an object', async () => {
    const response = await put('eligibility', [eligibility()]);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
  });

  it('answers 404 for an unknown kind and for a kind that is not configured', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Empty clinic');
    const unknown = await put('fax', eligibility(), fresh.keys.admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('eligibility, prior_authorization, program_enrollment');
    const missing = await get('/connectors/eligibility', fresh.keys.admin);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('No eligibility connector is configured for your account.');
  });

  it("keeps each account's connectors to itself", async () => {
    const other = await testApp.createAccountWithLiveAdmin('Other clinic');
    expect((await get('/connectors', other.keys.admin)).body.data.data).toEqual([]);
    expect((await get('/connectors/eligibility', other.keys.admin)).status).toBe(404);
  });

  it('deletes a connector, which is then not found', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Deleting clinic');
    const { id } = (await put('eligibility', eligibility(), fresh.keys.admin)).body.data;
    const deleted = await testApp.http().delete('/connectors/eligibility').set(bearer(fresh.keys.admin));
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id, object: 'connector', kind: 'eligibility', deleted: true });
    expect((await get('/connectors/eligibility', fresh.keys.admin)).status).toBe(404);
    expect(
      (await testApp.http().delete('/connectors/eligibility').set(bearer(fresh.keys.admin))).status,
    ).toBe(404);
  });

  it('refuses providers and reviewers with 403', async () => {
    for (const key of [account.keys.provider, account.keys.reviewer]) {
      expect((await get('/connectors', key)).status).toBe(403);
      expect((await put('eligibility', eligibility(), key)).status).toBe(403);
    }
  });

  it('records every change in the audit trail, without the secret', async () => {
    const fresh = await testApp.createAccountWithLiveAdmin('Audited clinic');
    const { id } = (await put('eligibility', eligibility(), fresh.keys.admin)).body.data;
    await testApp.http().delete('/connectors/eligibility').set(bearer(fresh.keys.admin));
    const trail = await get(`/audit-events?target_id=${id}`, fresh.keys.admin);
    const events = trail.body.data.data as Array<{ action: string; target: unknown }>;
    expect(events.map((event) => event.action).sort()).toEqual(['connector.configured', 'connector.deleted']);
    expect(events[0]!.target).toEqual({ object: 'connector', id });
    expect(JSON.stringify(trail.body)).not.toContain(PASSWORD);
  });

  it("documents the body of each kind in the OpenAPI document, with the validators' rules", async () => {
    const document = (await testApp.http().get('/openapi.json')).body;
    expect(document.paths['/connectors/{kind}'].put.requestBody.content['application/json'].schema).toEqual({
      oneOf: [
        { $ref: '#/components/schemas/EligibilityConnectorSettings' },
        { $ref: '#/components/schemas/ConnectorSettings' },
        { $ref: '#/components/schemas/CoverageRequirementsConnectorSettings' },
        { $ref: '#/components/schemas/QuestionnaireConnectorSettings' },
        { $ref: '#/components/schemas/MailConnectorSettings' },
      ],
    });
    expect(document.components.schemas.MailConnectorSettings).toMatchObject({
      required: ['host', 'port', 'security', 'from'],
      properties: { security: { enum: ['tls', 'starttls'] }, port: { minimum: 1, maximum: 65535 } },
    });
    expect(document.components.schemas.QuestionnaireConnectorSettings).toMatchObject({
      required: ['url', 'auth'],
      properties: {
        timeout_ms: { anyOf: [{ minimum: 500, maximum: 10000, default: 3000 }, { type: 'null' }] },
      },
    });
    expect(document.components.schemas.CoverageRequirementsConnectorSettings.required).toEqual([
      'url',
      'client_id',
    ]);
    const eligibility = document.components.schemas.EligibilityConnectorSettings;
    expect(eligibility.required).toEqual(['url', 'auth', 'submitter_id', 'receiver_id']);
    expect(eligibility.additionalProperties).toBe(false);
    expect(document.components.schemas.ConnectorAuth.properties.name).toMatchObject({ maxLength: 100 });
  });
});
