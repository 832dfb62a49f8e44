import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';

import type { CdsHooksRequest } from '../../infrastructure/connectors/crd/cds-hooks';
import { answerOrderSign } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
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

/**
 * Issue 44: a prior authorization asks a CRD service before review, the sandbox payer's for a test key
 * and, for a live key, the account's (a loopback HTTP service here). One app and worker serve both.
 */
let testApp: TestApp;
let worker: TestWorker;
let crd: CrdService;
let account: TestAccount;
let liveKeys: Record<'provider' | 'reviewer' | 'admin', string>;
let receiver: TestReceiver;

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
  account = await testApp.createAccount();
  receiver = await subscribeReceiver(testApp, account.keys.provider);
  liveKeys = await testApp.createLiveKeys(account.accountId);
  const pas = await testApp
    .http()
    .put('/connectors/prior_authorization')
    .set(bearer(liveKeys.admin))
    .send({ url: 'http://127.0.0.1:9/fhir', auth: { type: 'bearer', token: 'pas-token-0123456789' } });
  expect(pas.status).toBe(200);
  const connector = await testApp
    .http()
    .put('/connectors/coverage_requirements')
    .set(bearer(liveKeys.admin))
    .send({ url: crd.url, client_id: CLIENT_ID, timeout_ms: 500 });
  expect(connector.status).toBe(200);
});
afterAll(async () => {
  await receiver.stop();
  await worker.stop();
  await testApp.close();
  await crd.stop();
});

describe("a prior authorization first asks the sandbox payer's CRD service what the order requires", () => {
  const submit = async (overrides: Record<string, unknown>) => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest(overrides));
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const settled = (id: string, status: string) =>
    waitForStatus(testApp, account.keys.provider, PATH, id, status);

  it('completes approved without review or submission when the payer needs no authorization', async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'no-auth' } });
    const done = await settled(id, 'completed');
    expect(done.outcome).toMatchObject({ result: 'approved', detail_code: 'prior_auth_not_required' });
    expect(done.coverage_requirements).toMatchObject({ source: 'crd', pa_needed: 'no-auth' });
    expect(done.review).toBeNull();
    expect(done.submission).toBeNull();
    expect((done.status_history as JsonObject[]).map((entry) => entry.status)).toEqual([
      'processing',
      'completed',
    ]);
  });

  it('sends the final webhook of a case the payer needs no authorization for', async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'no-auth' } });
    await settled(id, 'completed');
    const final = await eventually(async () =>
      eventsFor(receiver, id).find((event) => (event.data as JsonObject).status === 'completed'),
    );
    expect((final.data as JsonObject).outcome).toMatchObject({ detail_code: 'prior_auth_not_required' });
  });

  it("asks the sandbox's formulary when nothing is mocked: a drug the plan needs no authorization for completes", async () => {
    const { id } = await submit({
      prescription: { drug_name: 'Jardiance 10 mg tablet', quantity: 30, days_supply: 30 },
      mock_result: null,
    });
    const done = await settled(id, 'completed');
    expect(done.outcome).toMatchObject({ result: 'approved', detail_code: 'prior_auth_not_required' });
  });

  it("goes on to review with the payer's requirements and the questionnaire it names when authorization is needed", async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'auth-needed' } });
    const prepared = await settled(id, 'awaiting_review');
    const requirements = prepared.coverage_requirements as JsonObject;
    expect(requirements).toMatchObject({ source: 'crd', pa_needed: 'auth-needed', fallback_reason: null });
    expect((requirements.questionnaires as string[]).length).toBeGreaterThan(0);
  });

  it("goes on to review on the catalog's criteria, saying why, when the CRD service is unavailable", async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'unavailable' } });
    const prepared = await settled(id, 'awaiting_review');
    expect(prepared.coverage_requirements).toMatchObject({
      source: 'catalog',
      fallback_reason: 'crd_unavailable',
    });
    const moves = prepared.status_history as JsonObject[];
    expect(moves[moves.length - 1].reason).toContain('crd_unavailable');
    expect((prepared.criteria as unknown[]).length).toBeGreaterThan(0);
  });

  it('refuses a coverage requirements answer the sandbox cannot play, naming the field', async () => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest({ mock_result: { coverage_requirements: 'maybe' } }));
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toContain('coverage_requirements');
  });
});

describe("a live prior authorization asks the payer's CRD service first", () => {
  const submitted = async (reply: Reply, request: object = livePriorAuthorization()) => {
    crd.reply = reply;
    const response = await testApp.http().post(PATH).set(bearer(liveKeys.provider)).send(request);
    expect(response.status).toBe(201);
    return (response.body.data as JsonObject).id as string;
  };
  const settled = (id: string, status: string) => waitForStatus(testApp, liveKeys.provider, PATH, id, status);
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
      .set(bearer(liveKeys.admin));
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

  it('does not ask, so sends no patient, for a case whose plan was not resolved', async () => {
    const calls = crd.tokens.length;
    const unknownPlan = {
      ...livePriorAuthorization(),
      insurance_content: { payer: 'Zz Unlisted Health Plan', member_id: 'ZZUNL000000001' },
    };
    const prepared = await settled(
      await submitted({ kind: 'answer', pa: 'no-auth' }, unknownPlan),
      'awaiting_review',
    );
    expect(prepared.coverage_requirements ?? null).toBeNull();
    expect(crd.tokens.length).toBe(calls);
  });

  it('never sends the patient in the token the service receives', async () => {
    await eventually(async () => crd.tokens.length > 0);
    for (const token of crd.tokens)
      expect(Buffer.from(token.split('.')[1]!, 'base64url').toString()).not.toContain('Zzcrdsurname');
  });
});
