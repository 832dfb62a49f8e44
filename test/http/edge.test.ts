import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('the HTTP edge', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp({ MAX_BODY_BYTES: String(64 * 1024) });
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  it('reports the health of the API, database, Temporal and worker pollers on /status', async () => {
    const response = await testApp.http().get('/status').set(bearer(account.keys.provider));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      error: null,
      data: { message: expect.any(String) },
    });
    expect(response.body.data.components).toMatchObject({
      api: { status: 'ok' },
      database: { status: 'ok' },
      temporal: { status: 'ok' },
      // No worker polls this test's task queue, and /status says so rather than failing.
      worker: { status: 'degraded', pollers: 0 },
    });
  });

  it('puts X-Request-Id and API-Version on every response, errors included', async () => {
    for (const response of [
      await testApp.http().get('/status').set(bearer(account.keys.provider)),
      await testApp.http().get('/status'),
      await testApp.http().get('/no-such-endpoint').set(bearer(account.keys.provider)),
    ]) {
      expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-z]{26}$/);
      expect(response.headers['api-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('repeats the request id in every error body', async () => {
    const response = await testApp.http().get('/status');
    expect(response.body.error.request_id).toBe(response.headers['x-request-id']);
  });

  it('answers an unknown path with 404 not_found in the contract error shape', async () => {
    const response = await testApp.http().get('/no-such-endpoint').set(bearer(account.keys.provider));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      status: 'error',
      data: null,
      error: {
        code: 'not_found',
        message: expect.any(String),
        details: [],
        request_id: expect.stringMatching(/^req_/),
      },
    });
  });

  it('answers a known path with the wrong method with 405 and an Allow header', async () => {
    const response = await testApp.http().delete('/status').set(bearer(account.keys.provider));
    expect(response.status).toBe(405);
    expect(response.body.error.code).toBe('method_not_allowed');
    expect(response.headers.allow).toBe('GET');
  });

  it('answers a body that is not JSON with 400 invalid_json', async () => {
    const response = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .set('Content-Type', 'application/json')
      .send('{"label": "broken",');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it('answers a body of another content type with 415 unsupported_media_type', async () => {
    const response = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .set('Content-Type', 'text/plain')
      .send('label=x');
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
  });

  it.each(['utf-16', 'utf-16be', 'utf-32', 'latin1'])(
    'answers a JSON body in charset %s with 415 unsupported_media_type',
    async (charset) => {
      const response = await testApp
        .http()
        .post('/api-keys')
        .set(bearer(account.keys.admin))
        .set('Content-Type', `application/json; charset=${charset}`)
        .send(Buffer.from('{"label":"x","roles":["provider"]}'));
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
    },
  );

  it('answers an API key label holding a NUL character with 400, naming the field', async () => {
    const response = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .send({ label: 'front\u0000desk', roles: ['provider'] });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      expect.objectContaining({ field: 'label', issue: expect.stringContaining('control characters') }),
    ]);
  });

  it('answers a body over the size limit with 413 payload_too_large', async () => {
    const response = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .send({ label: 'x'.repeat(70 * 1024), roles: ['provider'] });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it('lists every validation problem with its field path in one 400', async () => {
    const response = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .send({ label: '', roles: ['superuser'], colour: 'blue' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
    expect(response.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'label', issue: expect.any(String) },
        { field: 'roles', issue: expect.stringContaining('provider, reviewer, admin') },
        { field: 'colour', issue: 'is not a known field' },
      ]),
    );
  });

  it('serves the OpenAPI 3.1 document and the docs page from local assets', async () => {
    const openApi = await testApp.http().get('/openapi.json');
    expect(openApi.status).toBe(200);
    expect(openApi.body.openapi).toBe('3.1.0');
    expect(Object.keys(openApi.body.paths)).toEqual(expect.arrayContaining(['/status', '/codec/decode']));

    const docs = await testApp.http().get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui');
    const assetPath = /src="\.?\/?([^"]*swagger-ui-bundle\.js)"/.exec(docs.text)?.[1];
    expect(assetPath).toBeDefined();
    expect((await testApp.http().get(`/docs/${assetPath!.replace(/^docs\//, '')}`)).status).toBe(200);
  });
});

describe('the per-key rate limit', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' });
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  it('answers 429 rate_limited with Retry-After once a key exceeds its burst', async () => {
    const statuses: number[] = [];
    let limited;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await testApp.http().get('/status').set(bearer(account.keys.provider));
      statuses.push(response.status);
      limited = response;
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(limited!.body.error.code).toBe('rate_limited');
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts each key separately', async () => {
    const response = await testApp.http().get('/status').set(bearer(account.keys.reviewer));
    expect(response.status).toBe(200);
  });
});

describe('body limits by route', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  const overOneMegabyte = 'x'.repeat(1024 * 1024 + 1);

  it('answers 413 to a body over 1 MB on a route that carries no documents', async () => {
    const response = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({ name: overOneMegabyte, url: 'https://example.com/hook', secret: 's'.repeat(32), events: [] });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it('reads a body over 1 MB on a route whose requests carry base64 documents', async () => {
    const response = await testApp
      .http()
      .post('/prior-authorization')
      .set(bearer(account.keys.provider))
      .send({ metadata: { padding: overOneMegabyte } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
  });
});

describe('the JSON depth limit', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('answers 400 validation_error naming the field where the body nests deeper than 32 levels', async () => {
    const response = await testApp
      .http()
      .post('/prior-authorization')
      .set(bearer(account.keys.provider))
      .set('Content-Type', 'application/json')
      .send(`{"evidence":[{"content":${nested(40)}}]}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: `evidence[0].content${'.a'.repeat(29)}`, issue: 'nests deeper than 32 levels' }],
    });
  });

  it('answers a body nested a million levels deep with the same 400, and keeps serving', async () => {
    const response = await testApp
      .http()
      .post('/prior-authorization')
      .set(bearer(account.keys.provider))
      .set('Content-Type', 'application/json')
      .send(`{"metadata":${nested(1_000_000)}}`);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].issue).toBe('nests deeper than 32 levels');
    expect((await testApp.http().get('/status').set(bearer(account.keys.provider))).status).toBe(200);
  });

  it('accepts nesting up to the limit', async () => {
    const response = await testApp
      .http()
      .post('/prior-authorization')
      .set(bearer(account.keys.provider))
      .set('Content-Type', 'application/json')
      .send(`{"metadata":${nested(31)}}`);
    expect(response.body.error.details).not.toContainEqual(
      expect.objectContaining({ issue: 'nests deeper than 32 levels' }),
    );
  });
});
