import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';

import type { CdsHooksRequest } from '../../infrastructure/connectors/crd/cds-hooks';
import { answerOrderSign } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';
const CLIENT_ID = 'https://clinic.example/crd-client';
const REMICADE = { drug_name: 'Remicade 100 mg vial', quantity: 4 };

/** How the loopback CRD service answers the next call. */
type Reply =
  | { kind: 'answer'; pa: 'no-auth' | 'auth-needed'; delayMs?: number }
  | { kind: 'status'; status: number }
  | { kind: 'body'; body: string };

/** A payer's CRD `order-sign` service on loopback: it keeps each call's bearer token and answers as told. */
class CrdService {
  readonly tokens: string[] = [];
  reply: Reply = { kind: 'answer', pa: 'auth-needed' };
  private constructor(private readonly server: Server) {}

  static async start(): Promise<CrdService> {
    const service: CrdService = new CrdService(createServer((req, res) => void service.answer(req, res)));
    await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
    return service;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/cds-services/crd-order-sign`;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.tokens.push((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    const reply = this.reply;
    if (reply.kind === 'status') return void res.writeHead(reply.status).end();
    if (reply.kind === 'body')
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(reply.body);
    const request = JSON.parse(Buffer.concat(chunks).toString()) as CdsHooksRequest;
    await new Promise((resolve) => setTimeout(resolve, reply.delayMs ?? 0));
    if (res.destroyed) return;
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify(answerOrderSign(request, reply.pa)));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A live request carries no mock_result: the payer's answer cannot be scripted. */
function livePriorAuthorization() {
  const { mock_result: _mockResult, ...request } = priorAuthorizationRequest({
    patient: syntheticPatient({ last_name: 'Zzcrdsurname' }),
    diagnoses: [{ code: 'K50.90' }],
    prescription: REMICADE,
  });
  return request;
}

/** Issue 44: a live prior authorization asks the payer's CRD service (loopback HTTP) before review. */
describe("a live prior authorization asks the payer's CRD service first", () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let crd: CrdService;
  let keys: Record<'provider' | 'reviewer' | 'admin', string>;

  beforeAll(async () => {
    crd = await CrdService.start();
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    // The CRD service fetches our JWKS over real HTTP, at the address PUBLIC_API_URL names.
    testApp = await startTestApp({ PUBLIC_API_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    worker = await testApp.startWorker();
    const account = await testApp.createAccount();
    keys = await testApp.createLiveKeys(account.accountId);
    const pas = await testApp
      .http()
      .put('/connectors/prior_authorization')
      .set(bearer(keys.admin))
      .send({ url: 'http://127.0.0.1:9/fhir', auth: { type: 'bearer', token: 'pas-token-0123456789' } });
    expect(pas.status).toBe(200);
    const connector = await testApp
      .http()
      .put('/connectors/coverage_requirements')
      .set(bearer(keys.admin))
      .send({ url: crd.url, client_id: CLIENT_ID, timeout_ms: 500 });
    expect(connector.status).toBe(200);
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
    await crd.stop();
  });

  const submitted = async (reply: Reply) => {
    crd.reply = reply;
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(keys.provider))
      .send(livePriorAuthorization());
    expect(response.status).toBe(201);
    return (response.body.data as JsonObject).id as string;
  };
  const settled = (id: string, status: string) => waitForStatus(testApp, keys.provider, PATH, id, status);
  /** As the payer's CDS service checks a call: against the JWKS fetched from the URL the token names. */
  const verified = (token: string) =>
    jwtVerify(token, createRemoteJWKSet(new URL(decodeProtectedHeader(token).jku!)), {
      issuer: CLIENT_ID,
      audience: crd.url,
      algorithms: ['ES384'],
    });

  it('completes approved, without review or a PAS call, when the payer needs no authorization', async () => {
    const id = await submitted({ kind: 'answer', pa: 'no-auth' });
    const done = await settled(id, 'completed');
    expect(done.outcome).toMatchObject({ result: 'approved', detail_code: 'prior_auth_not_required' });
    expect(done.coverage_requirements).toMatchObject({ source: 'crd', pa_needed: 'no-auth' });
    expect(done.submission).toBeNull();
  });

  it('authenticates with a JWT the service verifies against our JWKS, fetched over HTTP', async () => {
    const calls = crd.tokens.length;
    await settled(await submitted({ kind: 'answer', pa: 'auth-needed' }), 'awaiting_review');
    const { payload } = await verified(crd.tokens[calls]!);
    expect(payload).toMatchObject({ iss: CLIENT_ID, sub: CLIENT_ID, aud: crd.url });
  });

  it('signs with the new key after a rotation, while a token signed just before still verifies', async () => {
    const before = crd.tokens.length;
    await settled(await submitted({ kind: 'answer', pa: 'auth-needed' }), 'awaiting_review');
    const rotated = await testApp
      .http()
      .post('/connectors/coverage_requirements/rotate-signing-key')
      .set(bearer(keys.admin));
    expect(rotated.status).toBe(200);
    await settled(await submitted({ kind: 'answer', pa: 'auth-needed' }), 'awaiting_review');
    const [older, newer] = crd.tokens.slice(before, before + 2);
    expect((await verified(older!)).protectedHeader.kid).toBe(rotated.body.data.signing.previous_kid);
    expect((await verified(newer!)).protectedHeader.kid).toBe(rotated.body.data.signing.kid);
  });

  it("goes on to review with the payer's requirements when authorization is needed", async () => {
    const prepared = await settled(await submitted({ kind: 'answer', pa: 'auth-needed' }), 'awaiting_review');
    expect(prepared.coverage_requirements).toMatchObject({
      source: 'crd',
      pa_needed: 'auth-needed',
      fallback_reason: null,
    });
  });

  it.each<[string, Reply, string]>([
    ['answers 503', { kind: 'status', status: 503 }, 'crd_unavailable'],
    ['answers past its time limit', { kind: 'answer', pa: 'no-auth', delayMs: 1_500 }, 'crd_timed_out'],
    [
      'answers with what is not a CDS Hooks response',
      { kind: 'body', body: '{"cards": 7}' },
      'crd_invalid_answer',
    ],
  ])("goes on to review on the catalog's criteria when the service %s", async (_, reply, reason) => {
    const prepared = await settled(await submitted(reply), 'awaiting_review');
    expect(prepared.coverage_requirements).toMatchObject({ source: 'catalog', fallback_reason: reason });
    const moves = prepared.status_history as JsonObject[];
    expect(moves[moves.length - 1]!.reason).toContain(reason);
  });

  it('never sends the patient in the token the service receives', async () => {
    await eventually(async () => crd.tokens.length > 0);
    for (const token of crd.tokens)
      expect(Buffer.from(token.split('.')[1]!, 'base64url').toString()).not.toContain('Zzcrdsurname');
  });
});
