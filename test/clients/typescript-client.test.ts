import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  ApiClient,
  createClient,
  idempotent,
  Notification,
  paginate,
  Schemas,
  verifyWebhook,
} from '../../clients/typescript/src';
import {
  benefitVerificationRequest,
  clinicalEligibilityRequest,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
} from '../support/case-requests';
import { schemaCompiler } from '../support/published-answers';
import { eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import type { TestWorker } from '../support/workers';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SECRET = 'whsec_typescript_client_0001';

type CaseEvent = Schemas['CreateWebhook']['events'][number];
type Creation = (client: ApiClient) => Promise<string>;

/** One sandbox case of each type, created with the client; each answers with its id. */
const CREATE_EACH_TYPE: Partial<Record<CaseEvent, Creation>> = {
  'benefit_verification.updated': async (client) =>
    (
      await client.POST('/benefit-verification', {
        body: benefitVerificationRequest() as Schemas['CreateBenefitVerification'],
      })
    ).data!.data.id,
  'prior_authorization.updated': async (client) =>
    (
      await client.POST('/prior-authorization', {
        body: priorAuthorizationRequest() as Schemas['CreatePriorAuthorization'],
      })
    ).data!.data.id,
  'clinical_eligibility.updated': async (client) =>
    (
      await client.POST('/clinical-eligibility', {
        body: clinicalEligibilityRequest() as Schemas['CreateClinicalEligibility'],
      })
    ).data!.clinical_elgibility_id,
  'patient_enrollment.updated': async (client) =>
    (
      await client.POST('/patient-enrollment', {
        body: patientEnrollmentRequest() as Schemas['CreatePatientEnrollment'],
      })
    ).data!.data.id,
};

/** A receiver on loopback that accepts only what verifyWebhook accepts, as an integrator's would. */
class VerifyingReceiver {
  readonly notifications: Notification[] = [];
  readonly received: Array<{ headers: IncomingHttpHeaders; rawBody: Buffer }> = [];
  endpointId = '';
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      this.received.push({ headers: req.headers, rawBody });
      const verified = verifyWebhook({ endpointId: this.endpointId, secret: SECRET }, req.headers, rawBody);
      if (verified.ok) this.notifications.push(verified.notification as Notification);
      res.writeHead(verified.ok ? 200 : 401).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('the TypeScript client against the running service', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let baseUrl: string;
  let provider: ApiClient;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    const server = testApp.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = createClient({ baseUrl, apiKey: account.keys.provider });
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  /** A started receiver and the (inactive) endpoint created for it, with the client. */
  async function receiverWithEndpoint(
    events: CaseEvent[] = ['benefit_verification.updated'],
  ): Promise<VerifyingReceiver> {
    const receiver = new VerifyingReceiver();
    const url = await receiver.start();
    const endpoint = await provider.POST('/webhooks', {
      body: { name: 'client test', url, secret: SECRET, events },
    });
    receiver.endpointId = endpoint.data!.data.id;
    return receiver;
  }

  it('creates a benefit verification in the sandbox and reads it back, typed', async () => {
    const created = await provider.POST('/benefit-verification', {
      body: benefitVerificationRequest() as Schemas['CreateBenefitVerification'],
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.data.id;

    const completed = await eventually(async () => {
      const read = await provider.GET('/benefit-verification/{id}', { params: { path: { id } } });
      return read.data?.data.status === 'completed' ? read.data.data : undefined;
    });
    const coverage: Schemas['BenefitVerification']['outcome'] = completed.outcome;
    expect(coverage?.coverage_status).toBe('covered');
    expect(completed.request.drugs.map((drug) => drug.name)).toEqual(['Ozempic']);
  });

  it('creates a prior authorization, a clinical eligibility check and an enrollment, each read back by its id', async () => {
    const [prior, clinical, enrollment] = await Promise.all(
      (
        ['prior_authorization.updated', 'clinical_eligibility.updated', 'patient_enrollment.updated'] as const
      ).map((event) => CREATE_EACH_TYPE[event]!(provider)),
    );
    const path = (id: string) => ({ params: { path: { id } } });

    const read = await Promise.all([
      provider.GET('/prior-authorization/{id}', path(prior!)),
      provider.GET('/clinical-eligibility/{id}', path(clinical!)),
      provider.GET('/patient-enrollment/{id}', path(enrollment!)),
    ]);
    expect(read.map(({ data }) => data?.data.object)).toEqual([
      'prior_authorization',
      'clinical_eligibility',
      'patient_enrollment',
    ]);
  });

  it("receives each case type's notification, verified by verifyWebhook and described by the document's webhooks", async () => {
    const receiver = await receiverWithEndpoint(Object.keys(CREATE_EACH_TYPE) as CaseEvent[]);
    try {
      await provider.PATCH('/webhooks/{id}', {
        params: { path: { id: receiver.endpointId } },
        body: { active: true },
      });
      await eventually(async () => {
        const read = await provider.GET('/webhooks/{id}', { params: { path: { id: receiver.endpointId } } });
        return read.data?.data.status === 'active' ? true : undefined;
      });
      const document = (await fetch(`${baseUrl}/openapi.json`).then((answer) => answer.json())) as Json;
      const compile = schemaCompiler(document.components);

      for (const [event, create] of Object.entries(CREATE_EACH_TYPE) as Array<[CaseEvent, Creation]>) {
        const id = await create(provider);
        const notification = await eventually(async () =>
          receiver.notifications.find(({ type, data }) => type === event && data.id === id),
        );
        const body = document.webhooks[event].post.requestBody.content['application/json'];
        const describedBody = compile(body.schema);
        expect({ event, described: describedBody(notification) }).toEqual({ event, described: true });
      }
    } finally {
      await receiver.stop();
    }
  });

  it('refuses, with verifyWebhook, a notification whose body changed, or that was meant for another endpoint', async () => {
    const receiver = await receiverWithEndpoint();
    try {
      await provider.POST('/webhooks/{id}/test', { params: { path: { id: receiver.endpointId } } });
      const { headers, rawBody } = await eventually(async () => receiver.received[0]);
      const own = { endpointId: receiver.endpointId, secret: SECRET };

      expect(verifyWebhook(own, headers, rawBody)).toMatchObject({ ok: true });
      expect(verifyWebhook(own, headers, Buffer.from(`${rawBody.toString()} `))).toEqual({
        ok: false,
        reason: 'body does not match body_sha256',
      });
      expect(verifyWebhook({ ...own, endpointId: 'wh_another' }, headers, rawBody)).toEqual({
        ok: false,
        reason: 'token issued for another endpoint',
      });
      expect(verifyWebhook({ ...own, secret: 'whsec_not_this_one' }, headers, rawBody)).toEqual({
        ok: false,
        reason: 'bad signature',
      });
      const later = new Date(Date.now() + 60 * 60_000);
      expect(verifyWebhook(own, headers, rawBody, { now: later })).toEqual({
        ok: false,
        reason: 'token expired',
      });
    } finally {
      await receiver.stop();
    }
  });

  it('reads every item of a list across pages with paginate', async () => {
    const other = await testApp.createAccount();
    const client = createClient({ baseUrl, apiKey: other.keys.provider });
    const created: string[] = [];
    for (let made = 0; made < 3; made++) {
      const answer = await client.POST('/benefit-verification', {
        body: benefitVerificationRequest() as Schemas['CreateBenefitVerification'],
      });
      created.push(answer.data!.data.id);
    }

    const listed: string[] = [];
    for await (const verification of paginate((cursor) =>
      client.GET('/benefit-verification', { params: { query: { limit: 2, cursor } } }),
    )) {
      listed.push(verification.id);
    }
    expect(listed.sort()).toEqual(created.sort());
  });

  it('retries a POST under the same Idempotency-Key without creating a second case', async () => {
    const retry = idempotent();
    const body = benefitVerificationRequest() as Schemas['CreateBenefitVerification'];
    const first = await provider.POST('/benefit-verification', { body, params: { header: retry } });
    const second = await provider.POST('/benefit-verification', { body, params: { header: retry } });

    expect(second.data!.data.id).toBe(first.data!.data.id);
    expect(second.response.headers.get('Idempotent-Replayed')).toBe('true');
  });
});
