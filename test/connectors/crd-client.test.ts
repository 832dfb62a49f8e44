import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { catalogFallback } from '../../domain/payers/coverage-requirements';
import { discoverCoverageRequirements } from '../../infrastructure/connectors/crd/crd-client';
import type { CdsHooksRequest } from '../../infrastructure/connectors/crd/cds-hooks';
import { answerOrderSign } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import type { PrescriberRegistryCheck } from '../../domain/providers/prescriber-registry';
import { crdQuery } from '../fixtures/crd/crd-fixtures';
import { REGISTRY_MATCH } from '../fixtures/prescriber-registry-match';

const loopbackAllowed = new WebhookTargetPolicy(['127.0.0.0/8']);
const JWT = 'header.payload.signature';
const bearer = () => Promise.resolve(JWT);
/** Short, so the slow service's test waits a fifth of a second. */
const TIME_LIMIT_MS = 200;

type Reply = (request: CdsHooksRequest, response: http.ServerResponse) => void;

interface Received {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: CdsHooksRequest;
}

/** A payer's CRD service on the loopback interface, answering each call as the test says. */
class LoopbackCrdService {
  readonly received: Received[] = [];
  reply: Reply = (request, response) => json(response, 200, answerOrderSign(request, null));
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CdsHooksRequest;
      this.received.push({ method: request.method, url: request.url, headers: request.headers, body });
      this.reply(body, response);
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/cds-services/crd-order-sign`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function json(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

describe("The CRD client against a payer's CRD service", () => {
  let service: LoopbackCrdService;
  let url: string;

  beforeEach(async () => {
    service = new LoopbackCrdService();
    url = await service.start();
  });
  afterEach(() => service.stop());

  const discover = (timeoutMs = 2000) =>
    discoverCoverageRequirements({ url, timeoutMs }, bearer, crdQuery(), loopbackAllowed);

  it("posts the order-sign request as JSON to the service's URL with the JWT as bearer", async () => {
    await discover();
    const [call] = service.received;
    expect(call).toMatchObject({ method: 'POST', url: '/cds-services/crd-order-sign' });
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(call!.body).toMatchObject({
      hook: 'order-sign',
      context: { draftOrders: { resourceType: 'Bundle' } },
    });
  });

  const prescriberSent = async (prescriber: PrescriberRegistryCheck) => {
    await discoverCoverageRequirements(
      { url, timeoutMs: 2000 },
      bearer,
      crdQuery({ prescriber }),
      loopbackAllowed,
    );
    return service.received[0]!.body.prefetch.user as Record<string, unknown>;
  };

  it("names the prescriber at the practice address of the NPI registry's matching record, where the request gives none", async () => {
    const practitioner = await prescriberSent(REGISTRY_MATCH);
    expect(practitioner).toMatchObject({
      resourceType: 'Practitioner',
      identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }],
      address: [
        { line: ['1 Registry Way'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      ],
    });
  });

  it('names the prescriber at no address when the registry found no record of the name', async () => {
    const practitioner = await prescriberSent({
      outcome: 'not_found',
      checked_at: REGISTRY_MATCH.checked_at,
      practice_address: null,
      taxonomy: null,
    });
    expect(practitioner).toMatchObject({ resourceType: 'Practitioner', name: [{ family: 'Reviewsworth' }] });
    expect(practitioner).not.toHaveProperty('address');
  });

  it("reads the service's answer into the case's coverage requirements", async () => {
    await expect(discover()).resolves.toEqual({
      kind: 'answered',
      requirements: expect.objectContaining({
        source: 'crd',
        covered: 'covered',
        pa_needed: 'auth-needed',
        questionnaires: ['http://sandbox.healthcare-access-api.example/fhir/Questionnaire/remicade'],
        fallback_reason: null,
      }) as object,
    });
  });

  it('falls back to the catalog as crd_unavailable when the service fails (500)', async () => {
    service.reply = (_request, response) => json(response, 500, { error: 'down' });
    await expect(discover()).resolves.toEqual({
      kind: 'fallback',
      requirements: catalogFallback('crd_unavailable'),
    });
  });

  it('falls back as crd_unavailable when the service refuses the JWT (401)', async () => {
    service.reply = (_request, response) => json(response, 401, {});
    await expect(discover()).resolves.toEqual({
      kind: 'fallback',
      requirements: catalogFallback('crd_unavailable'),
    });
  });

  it('falls back as crd_unavailable when nothing listens at the URL', async () => {
    const closed = new LoopbackCrdService();
    const closedUrl = await closed.start();
    await closed.stop();
    await expect(
      discoverCoverageRequirements({ url: closedUrl, timeoutMs: 2000 }, bearer, crdQuery(), loopbackAllowed),
    ).resolves.toEqual({ kind: 'fallback', requirements: catalogFallback('crd_unavailable') });
  });

  it('falls back as crd_timed_out when the service answers after the time limit', async () => {
    service.reply = () => undefined;
    const started = Date.now();
    await expect(discover(TIME_LIMIT_MS)).resolves.toEqual({
      kind: 'fallback',
      requirements: catalogFallback('crd_timed_out'),
    });
    expect(Date.now() - started).toBeLessThan(TIME_LIMIT_MS + 1000);
  });

  it('falls back as crd_invalid_answer when the answer is not JSON', async () => {
    service.reply = (_request, response) => response.writeHead(200).end('{"cards": [');
    await expect(discover()).resolves.toEqual({
      kind: 'fallback',
      requirements: catalogFallback('crd_invalid_answer'),
    });
  });

  it('falls back as crd_invalid_answer when the answer breaks CRD', async () => {
    service.reply = (request, response) => {
      const answer = answerOrderSign(request, null);
      answer.systemActions![0]!.resource!.extension = [
        {
          url: 'http://hl7.org/fhir/us/davinci-crd/StructureDefinition/ext-coverage-information',
          extension: [],
        },
      ];
      json(response, 200, answer);
    };
    await expect(discover()).resolves.toEqual({
      kind: 'fallback',
      requirements: catalogFallback('crd_invalid_answer'),
    });
  });

  it("falls back as crd_no_coverage_information when the answer says nothing of the order, keeping the payer's cards", async () => {
    service.reply = (_request, response) =>
      json(response, 200, { cards: [{ summary: 'Call us', indicator: 'info', source: { label: 'Payer' } }] });
    await expect(discover()).resolves.toEqual({
      kind: 'fallback',
      requirements: {
        ...catalogFallback('crd_no_coverage_information'),
        instructions: [{ summary: 'Call us', detail: null }],
      },
    });
  });

  it('refuses a URL the SSRF policy forbids without calling it', async () => {
    const answer = await discoverCoverageRequirements(
      { url, timeoutMs: 2000 },
      bearer,
      crdQuery(),
      new WebhookTargetPolicy([]),
    );
    expect(answer).toEqual({ kind: 'fallback', requirements: catalogFallback('crd_unavailable') });
    expect(service.received).toHaveLength(0);
  });
});
