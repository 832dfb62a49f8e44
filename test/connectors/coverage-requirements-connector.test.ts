import { createServer } from 'node:net';

import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';

import { CoverageRequirementsConnectorSettings } from '../../domain/connectors/connector-settings';
import {
  ConnectorSettingsRepository,
  NoPublicApiUrlError,
} from '../../infrastructure/connectors/connector-settings.repository';
import { signCdsHooksJwt } from '../../infrastructure/connectors/crd/cds-hooks-jwt';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const ORDER_SIGN_URL = 'http://127.0.0.1:9/cds-services/order-sign-crd';
const CLIENT_ID = 'https://clinic.example/crd-client';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('the coverage requirements (Da Vinci CRD) connector and its signing keys', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let publicApiUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    publicApiUrl = `http://127.0.0.1:${port}`;
    testApp = await startTestApp({ PUBLIC_API_URL: publicApiUrl });
    // The payer fetches the JWKS over real HTTP, at the address PUBLIC_API_URL names.
    await testApp.app.listen(port, '127.0.0.1');
    account = await testApp.createAccountWithLiveAdmin('CRD clinic');
  });
  afterAll(() => testApp.close());

  const repository = () =>
    new ConnectorSettingsRepository(testApp.db, new SecretBox(testApp.config.encryption!), publicApiUrl);
  const put = (body: object, key = account.keys.admin) =>
    testApp.http().put('/connectors/coverage_requirements').set(bearer(key)).send(body);
  const rotate = (key = account.keys.admin) =>
    testApp.http().post('/connectors/coverage_requirements/rotate-signing-key').set(bearer(key));
  const settingsForUse = async (accountId = account.accountId) =>
    (await repository().readCoverageRequirementsForUse(accountId))!;
  const signedBy = (settings: CoverageRequirementsConnectorSettings) =>
    signCdsHooksJwt(settings.signingKey, {
      issuer: settings.clientId,
      audience: settings.url,
      jwksUrl: settings.jwksUrl,
    });
  /** As a payer's CDS service checks a call: against the JWKS fetched afresh from the URL the JWT names. */
  const verifiedAsThePayerDoes = (token: string) => {
    const { jku } = decodeProtectedHeader(token);
    return jwtVerify(token, createRemoteJWKSet(new URL(jku!)), {
      issuer: CLIENT_ID,
      subject: CLIENT_ID,
      audience: ORDER_SIGN_URL,
      algorithms: ['ES384'],
    });
  };

  it('creates the connector with a key it generated, answering its JWKS URL and key id but never the key', async () => {
    const response = await put({ url: ORDER_SIGN_URL, client_id: CLIENT_ID });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^conn_/),
      object: 'connector',
      kind: 'coverage_requirements',
      mail: null,
      url: ORDER_SIGN_URL,
      format: null,
      auth: null,
      submitter_id: null,
      receiver_id: null,
      usage: null,
      client_id: CLIENT_ID,
      signing: {
        jwks_url: expect.stringMatching(new RegExp(`^${publicApiUrl}/jwks/jwks_[A-Za-z0-9_-]{24}$`)),
        kid: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
        previous_kid: null,
        rotated_at: null,
      },
      timeout_ms: 3000,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(response.body.data.signing.jwks_url).not.toContain(account.accountId);
    const fetched = await testApp
      .http()
      .get('/connectors/coverage_requirements')
      .set(bearer(account.keys.admin));
    expect(fetched.body.data).toEqual(response.body.data);
    const { d } = (await settingsForUse()).signingKey.privateJwk;
    const listed = await testApp.http().get('/connectors').set(bearer(account.keys.admin));
    for (const body of [response.body, fetched.body, listed.body])
      expect(JSON.stringify(body)).not.toContain(d);
  });

  it('serves the public key at the JWKS URL to anyone, cacheable for a minute, without its private part', async () => {
    const { signing } = (await put({ url: ORDER_SIGN_URL, client_id: CLIENT_ID })).body.data;
    const response = await fetch(signing.jwks_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      keys: [
        {
          kty: 'EC',
          crv: 'P-384',
          x: expect.any(String),
          y: expect.any(String),
          kid: signing.kid,
          alg: 'ES384',
          use: 'sig',
        },
      ],
    });
  });

  it("signs a CDS Hooks JWT that verifies against the JWKS fetched over HTTP, with the spec's header and claims", async () => {
    const settings = await settingsForUse();
    const token = await signedBy(settings);
    const { payload, protectedHeader } = await verifiedAsThePayerDoes(token);
    expect(protectedHeader).toEqual({
      alg: 'ES384',
      typ: 'JWT',
      kid: settings.signingKey.kid,
      jku: settings.jwksUrl,
    });
    expect(payload).toEqual({
      iss: CLIENT_ID,
      sub: CLIENT_ID,
      aud: ORDER_SIGN_URL,
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(300);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);
    expect((await verifiedAsThePayerDoes(await signedBy(settings))).payload.jti).not.toBe(payload.jti);
  });

  it('rotates the key: the new one signs, a JWT signed just before still verifies, and the one before is dropped', async () => {
    const first = await settingsForUse();
    const signedBeforeRotation = await signedBy(first);

    const rotated = await rotate();
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.signing).toEqual({
      jwks_url: first.jwksUrl,
      kid: expect.not.stringMatching(first.signingKey.kid),
      previous_kid: first.signingKey.kid,
      rotated_at: expect.any(String),
    });
    const second = await settingsForUse();
    expect(second.signingKey.kid).toBe(rotated.body.data.signing.kid);
    expect(decodeProtectedHeader(await signedBy(second)).kid).toBe(second.signingKey.kid);
    await expect(verifiedAsThePayerDoes(signedBeforeRotation)).resolves.toBeDefined();
    await expect(verifiedAsThePayerDoes(await signedBy(second))).resolves.toBeDefined();
    const published = (await (await fetch(first.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    expect(published.keys.map((key) => key.kid)).toEqual([second.signingKey.kid, first.signingKey.kid]);

    await rotate();
    const third = await settingsForUse();
    const afterTwo = (await (await fetch(first.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    expect(afterTwo.keys.map((key) => key.kid)).toEqual([third.signingKey.kid, second.signingKey.kid]);
    await expect(verifiedAsThePayerDoes(signedBeforeRotation)).rejects.toBeInstanceOf(
      errors.JWKSNoMatchingKey,
    );

    const trail = await testApp
      .http()
      .get(`/audit-events?target_id=${rotated.body.data.id}`)
      .set(bearer(account.keys.admin));
    const actions = (trail.body.data.data as Array<{ action: string }>).map((event) => event.action);
    expect(actions.filter((action) => action === 'connector.signing_key_rotated')).toHaveLength(2);
  });

  it('rotates once for a retried request with the same Idempotency-Key, keeping the previous key published', async () => {
    const retried = () => rotate().set('Idempotency-Key', 'rotate-crd-key-once');
    const first = await retried();
    const again = await retried();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.signing).toEqual(first.body.data.signing);
    expect((await settingsForUse()).signingKey.kid).toBe(first.body.data.signing.kid);
  });

  it('keeps the key and the JWKS URL when the settings are replaced', async () => {
    const before = (
      await testApp.http().get('/connectors/coverage_requirements').set(bearer(account.keys.admin))
    ).body.data;
    const replaced = await put({ url: `${ORDER_SIGN_URL}-v2`, client_id: 'clinic-0042', timeout_ms: 500 });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({
      id: before.id,
      url: `${ORDER_SIGN_URL}-v2`,
      client_id: 'clinic-0042',
      timeout_ms: 500,
      signing: before.signing,
    });
  });

  it('keeps the private key sealed in SQL: no row holds it in plaintext', async () => {
    const { signingKey } = await settingsForUse();
    const [row] = await testApp.db.query<Record<string, unknown>>(
      `SELECT * FROM connector_settings WHERE account_id = $1 AND kind = 'coverage_requirements'`,
      [account.accountId],
    );
    expect(row!.signing_key_sealed).toMatch(/^test-key:[A-Za-z0-9+/=]+$/);
    expect(JSON.stringify(row)).not.toContain(signingKey.privateJwk.d);
    expect(row!.signing_public_jwk).not.toHaveProperty('d');
  });

  it.each([
    [
      'a client id with a space, a timeout over 10 seconds and an auth object',
      { url: ORDER_SIGN_URL, client_id: 'two words', timeout_ms: 20000, auth: { type: 'none' } },
      ['auth', 'client_id', 'timeout_ms'],
    ],
    [
      'no client id and a timeout under half a second',
      { url: ORDER_SIGN_URL, timeout_ms: 100 },
      ['client_id', 'timeout_ms'],
    ],
    ['a private address', { url: 'https://10.1.2.3/order-sign', client_id: CLIENT_ID }, ['url']],
  ])("refuses %s with the contract's 400, naming each field", async (_case, body, fields) => {
    const response = await put(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 'error', error: { code: 'validation_error' } });
    const named = (response.body.error.details as Array<{ field: string }>).map((detail) => detail.field);
    expect([...new Set(named)].sort()).toEqual(fields);
  });

  it('lets only live admin keys rotate, and answers 404 without a connector', async () => {
    expect((await rotate(account.keys.provider)).status).toBe(403);
    const testModeAdmin = (await testApp.createAccount('CRD test keys')).keys.admin;
    expect((await rotate(testModeAdmin)).status).toBe(403);
    const other = await testApp.createAccountWithLiveAdmin('CRD-less clinic');
    const missing = await rotate(other.keys.admin);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it("removes the connector with its keys: its JWKS URL answers the contract's 404, like an id never issued", async () => {
    const { jwks_url: jwksUrl } = (
      await testApp.http().get('/connectors/coverage_requirements').set(bearer(account.keys.admin))
    ).body.data.signing;
    const removed = await testApp
      .http()
      .delete('/connectors/coverage_requirements')
      .set(bearer(account.keys.admin));
    expect(removed.body.data).toMatchObject({ kind: 'coverage_requirements', deleted: true });
    expect(await repository().readCoverageRequirementsForUse(account.accountId)).toBeUndefined();
    for (const url of [jwksUrl, `${publicApiUrl}/jwks/jwks_neverIssuedAnywhere0000000`]) {
      const response = await fetch(url);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    }
    const again = (await put({ url: ORDER_SIGN_URL, client_id: CLIENT_ID })).body.data;
    expect(again.signing.jwks_url).not.toBe(jwksUrl);
  });

  it('refuses to set the connector where the service has no public address to publish its keys at', async () => {
    const withoutAddress = new ConnectorSettingsRepository(
      testApp.db,
      new SecretBox(testApp.config.encryption!),
    );
    await expect(
      withoutAddress.put(account.accountId, {
        kind: 'coverage_requirements',
        url: ORDER_SIGN_URL,
        clientId: CLIENT_ID,
        timeoutMs: 3000,
      }),
    ).rejects.toBeInstanceOf(NoPublicApiUrlError);
  });

  // Last: it empties this address's bucket of requests without a key.
  it('limits JWKS fetches per address as it limits requests without a key, so ids cannot be guessed quickly', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 30; attempt++) {
      statuses.push((await fetch(`${publicApiUrl}/jwks/jwks_guess${attempt}`)).status);
    }
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses).toContain(429);
  });
});
