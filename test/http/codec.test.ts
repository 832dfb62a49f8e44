import { defaultPayloadConverter } from '@temporalio/common';

import { AppConfig, loadConfig } from '../../infrastructure/config/config';
import { EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';
import { bearer, startTestApp, testConfig, TestAccount, TestApp } from '../support/test-app';
import { openMigratedMemoryDatabase } from '../support/migrated-database';

const toJson = (payload: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});

describe('the codec endpoint for Temporal Web', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let operatorKey: string;
  const patient = { first_name: 'Marisol', last_name: 'Achterberg' };

  beforeAll(async () => {
    testApp = await startTestApp({ CODEC_CORS_ORIGINS: 'http://localhost:8233' });
    account = await testApp.createAccount();
    const platform = await testApp.accounts.createAccount('Platform operators');
    operatorKey = (
      await testApp.accounts.createApiKey({ accountId: platform.id, roles: ['operator'], label: 'operator' })
    ).secret;
  });
  afterAll(() => testApp.close());

  async function encryptedPayload() {
    const [encrypted] = await new EncryptionCodec(testApp.config.encryption!).encode([
      defaultPayloadConverter.toPayload(patient),
    ]);
    return toJson(encrypted!);
  }

  it('decodes an encrypted payload for a platform operator', async () => {
    const response = await testApp
      .http()
      .post('/codec/decode')
      .set(bearer(operatorKey))
      .send({ payloads: [await encryptedPayload()] });
    expect(response.status).toBe(200);
    const decoded = response.body.payloads[0];
    expect(JSON.parse(Buffer.from(decoded.data, 'base64').toString())).toEqual(patient);
  });

  it('encodes a payload that the decoder reads back', async () => {
    const plain = toJson(defaultPayloadConverter.toPayload(patient));
    const encoded = await testApp
      .http()
      .post('/codec/encode')
      .set(bearer(operatorKey))
      .send({ payloads: [plain] });
    expect(Buffer.from(encoded.body.payloads[0].data, 'base64').toString('latin1')).not.toContain(
      'Achterberg',
    );
    const decoded = await testApp.http().post('/codec/decode').set(bearer(operatorKey)).send(encoded.body);
    expect(decoded.body.payloads[0]).toEqual(plain);
  });

  it('refuses to decode without a key, even from this machine, outside local mode', async () => {
    const response = await testApp
      .http()
      .post('/codec/decode')
      .send({ payloads: [await encryptedPayload()] });
    expect(response.status).toBe(401);
  });

  it.each(['provider', 'reviewer', 'admin'] as const)(
    'refuses to decode for an account’s %s key: decoding reveals every account’s PHI',
    async (role) => {
      const response = await testApp
        .http()
        .post('/codec/decode')
        .set(bearer(account.keys[role]))
        .send({ payloads: [await encryptedPayload()] });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    },
  );

  it('answers the CORS preflight of Temporal Web’s origin and no other', async () => {
    const allowed = await testApp
      .http()
      .options('/codec/decode')
      .set('Origin', 'http://localhost:8233')
      .set('Access-Control-Request-Method', 'POST');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:8233');
    expect(allowed.headers['access-control-allow-headers']).toContain('X-Namespace');

    const other = await testApp.http().options('/codec/decode').set('Origin', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the codec endpoint in local mode', () => {
  let testApp: TestApp;
  const plain = toJson(defaultPayloadConverter.toPayload({ note: 'x' }));

  beforeAll(async () => {
    // Local mode's own configuration, on this run's Temporal server and a private database.
    const scaleMode = testConfig();
    const config: AppConfig = {
      ...loadConfig('local', { LOG_LEVEL: 'silent' }),
      temporal: scaleMode.temporal,
      encryption: scaleMode.encryption,
      cases: scaleMode.cases,
    };
    expect(config.codec.trustLoopback).toBe(true);
    testApp = await startTestApp({}, { config, db: await openMigratedMemoryDatabase() });
  });
  afterAll(() => testApp.close());

  it('serves Temporal Web in a browser on this machine without a key', async () => {
    const response = await testApp
      .http()
      .post('/codec/encode')
      .set('Host', 'localhost:8233')
      .send({ payloads: [plain] });
    expect(response.status).toBe(200);
  });

  it('answers 401 to a DNS-rebinding page: a loopback socket but another site’s Host', async () => {
    const response = await testApp
      .http()
      .post('/codec/encode')
      .set('Host', 'evil.example')
      .send({ payloads: [plain] });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });

  it.each([
    ['X-Forwarded-For', '203.0.113.7'],
    ['Forwarded', 'for=203.0.113.7'],
    ['X-Real-IP', '203.0.113.7'],
  ])('answers 401 to a keyless request a local proxy forwarded (%s)', async (header, value) => {
    const response = await testApp
      .http()
      .post('/codec/encode')
      .set('Host', '127.0.0.1:3000')
      .set(header, value)
      .send({ payloads: [plain] });
    expect(response.status).toBe(401);
  });

  it('trusts loopback on the codec only, never on account data', async () => {
    const response = await testApp.http().get('/prior-authorization').set('Host', 'localhost');
    expect(response.status).toBe(401);
  });
});

describe('loopback trust outside local mode', () => {
  it('is refused at boot, naming the way Temporal Web reaches the codec instead', () => {
    expect(() => testConfig({ CODEC_TRUST_LOOPBACK: 'true' })).toThrow(
      /CODEC_TRUST_LOOPBACK is for local mode only: elsewhere Temporal Web reaches the codec with an operator key/,
    );
  });
});
