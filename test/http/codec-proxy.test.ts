import { request } from 'node:http';
import type { AddressInfo } from 'node:net';

import { defaultPayloadConverter } from '@temporalio/common';

import { RunningCodecProxy, startCodecProxy } from '../../src/admin/codec-proxy';
import { startTestApp, TestApp } from '../support/test-app';

const TEMPORAL_WEB = 'http://localhost:8080';

describe('the codec proxy an operator runs beside Temporal Web', () => {
  let testApp: TestApp;
  let proxy: RunningCodecProxy;
  const payload = defaultPayloadConverter.toPayload({ note: 'through the proxy' });
  const plain = {
    metadata: { encoding: Buffer.from(payload.metadata!.encoding!).toString('base64') },
    data: Buffer.from(payload.data!).toString('base64'),
  };

  beforeAll(async () => {
    testApp = await startTestApp();
    const platform = await testApp.accounts.createAccount('Platform operators');
    const { secret } = await testApp.accounts.createApiKey({
      accountId: platform.id,
      roles: ['operator'],
      label: 'proxy',
    });
    await testApp.app.listen(0, '127.0.0.1');
    const apiPort = (testApp.app.getHttpServer().address() as AddressInfo).port;
    proxy = await startCodecProxy({
      apiUrl: `http://127.0.0.1:${apiPort}`,
      operatorKey: secret,
      corsOrigins: [TEMPORAL_WEB],
      port: 0,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await testApp.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${proxy.endpoint}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: TEMPORAL_WEB, ...headers },
      body: JSON.stringify(body),
    });

  it('encodes and decodes for Temporal Web with the operator key it adds', async () => {
    const encoded = await post('/encode', { payloads: [plain] });
    expect(encoded.status).toBe(200);
    expect(encoded.headers.get('access-control-allow-origin')).toBe(TEMPORAL_WEB);
    const decoded = await post('/decode', await encoded.json());
    expect(decoded.status).toBe(200);
    expect(((await decoded.json()) as { payloads: unknown[] }).payloads[0]).toEqual(plain);
  });

  it('answers Temporal Web’s CORS preflight', async () => {
    const response = await fetch(`${proxy.endpoint}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: TEMPORAL_WEB, 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('X-Namespace');
  });

  it('refuses a local process that does not know the path secret of this run', async () => {
    const response = await fetch(`http://127.0.0.1:${proxy.port}/decode`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ payloads: [plain] }),
    });
    expect(response.status).toBe(404);
  });

  it('refuses a page of another origin', async () => {
    const response = await post('/decode', { payloads: [plain] }, { Origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a DNS-rebinding page: the right socket but another site’s Host', async () => {
    const response = await new Promise<number>((resolve, reject) => {
      // fetch sets Host itself; a raw request shows what a rebound browser sends.
      const rebound = request(
        {
          host: '127.0.0.1',
          port: proxy.port,
          path: `${new URL(proxy.endpoint).pathname}/decode`,
          method: 'POST',
          headers: { Host: `evil.example:${proxy.port}`, 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      rebound.on('error', reject);
      rebound.end(JSON.stringify({ payloads: [plain] }));
    });
    expect(response).toBe(403);
  });
});
