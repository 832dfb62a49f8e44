import { defaultPayloadConverter } from '@temporalio/common';

import { EncryptionCodec } from '../../src/temporal/encryption-codec';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const toJson = (payload: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});

describe('the codec endpoint for Temporal Web', () => {
  let testApp: TestApp;
  let account: TestAccount;
  const patient = { first_name: 'Marisol', last_name: 'Achterberg' };

  beforeAll(async () => {
    testApp = await startTestApp({ CODEC_CORS_ORIGINS: 'http://localhost:8233' });
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  async function encryptedPayload() {
    const [encrypted] = await new EncryptionCodec(testApp.config.encryption!).encode([
      defaultPayloadConverter.toPayload(patient),
    ]);
    return toJson(encrypted!);
  }

  it('decodes an encrypted payload for a reviewer', async () => {
    const response = await testApp
      .http()
      .post('/codec/decode')
      .set(bearer(account.keys.reviewer))
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
      .set(bearer(account.keys.reviewer))
      .send({ payloads: [plain] });
    expect(Buffer.from(encoded.body.payloads[0].data, 'base64').toString('latin1')).not.toContain(
      'Achterberg',
    );
    const decoded = await testApp
      .http()
      .post('/codec/decode')
      .set(bearer(account.keys.reviewer))
      .send(encoded.body);
    expect(decoded.body.payloads[0]).toEqual(plain);
  });

  it('refuses to decode without a key, even from this machine, outside local mode', async () => {
    const response = await testApp
      .http()
      .post('/codec/decode')
      .send({ payloads: [await encryptedPayload()] });
    expect(response.status).toBe(401);
  });

  it('refuses to decode for a provider key: decoding reveals every account’s PHI', async () => {
    const response = await testApp
      .http()
      .post('/codec/decode')
      .set(bearer(account.keys.provider))
      .send({ payloads: [await encryptedPayload()] });
    expect(response.status).toBe(403);
  });

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

  beforeAll(async () => {
    testApp = await startTestApp({ CODEC_TRUST_LOOPBACK: 'true' });
  });
  afterAll(() => testApp.close());

  it('serves Temporal Web in a browser on this machine without a key', async () => {
    const plain = toJson(defaultPayloadConverter.toPayload({ note: 'x' }));
    const response = await testApp
      .http()
      .post('/codec/encode')
      .send({ payloads: [plain] });
    expect(response.status).toBe(200);
  });
});
