import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { QuestionnaireFallbackReason } from '../../domain/dtr/questionnaire';
import { fetchQuestionnairePackage } from '../../infrastructure/connectors/dtr/dtr-client';
import type { FetchedQuestionnairePackage } from '../../infrastructure/connectors/dtr/dtr-client';
import { answerQuestionnairePackageOperation } from '../../infrastructure/connectors/dtr/simulated-dtr-service';
import { readQuestionnairePackage } from '../../infrastructure/dtr/questionnaire-package';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';

const loopbackAllowed = new WebhookTargetPolicy(['127.0.0.0/8']);
const REMICADE = 'http://sandbox.healthcare-access-api.example/fhir/Questionnaire/remicade';
const TOKEN = 'dtr-token-0123456789';
/** Short, so the slow service's test waits a fifth of a second. */
const TIME_LIMIT_MS = 200;

type Reply = (body: unknown, response: http.ServerResponse) => void;

interface Received {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** A payer's DTR service on the loopback interface: the sandbox's packages by default, or as the test says. */
class LoopbackDtrService {
  readonly received: Received[] = [];
  reply: Reply = (body, response) => {
    const answer = answerQuestionnairePackageOperation(body);
    fhir(response, answer.status, answer.body);
  };
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      this.received.push({ method: request.method, url: request.url, headers: request.headers, body });
      this.reply(body, response);
    });
  });

  /** Its FHIR base, with a trailing slash a payer's documentation might well give. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/fhir/`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function fhir(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'Content-Type': 'application/fhir+json' }).end(JSON.stringify(body));
}

const failed = (reason: QuestionnaireFallbackReason): FetchedQuestionnairePackage => ({
  kind: 'failed',
  reason,
});

describe("The DTR client against a payer's DTR service", () => {
  let service: LoopbackDtrService;
  let url: string;

  beforeEach(async () => {
    service = new LoopbackDtrService();
    url = await service.start();
  });
  afterEach(() => service.stop());

  const fetchPackage = (canonical = REMICADE, timeoutMs = 2000, policy = loopbackAllowed) =>
    fetchQuestionnairePackage({ url, auth: { type: 'bearer', token: TOKEN }, timeoutMs }, canonical, policy);

  it('posts the canonical as the operation’s Parameters, as FHIR JSON with the bearer token', async () => {
    await fetchPackage();
    const [call] = service.received;
    expect(call).toMatchObject({ method: 'POST', url: '/fhir/Questionnaire/$questionnaire-package' });
    expect(call!.headers['content-type']).toBe('application/fhir+json');
    expect(call!.headers.accept).toBe('application/fhir+json');
    expect(call!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(call!.body).toMatchObject({
      resourceType: 'Parameters',
      parameter: [{ name: 'questionnaire', valueCanonical: REMICADE }],
    });
  });

  it('answers the package the service sent, which readQuestionnairePackage reads', async () => {
    const fetched = await fetchPackage();
    expect(fetched.kind).toBe('fetched');
    const pkg = readQuestionnairePackage((fetched as { parameters: unknown }).parameters);
    expect(pkg.canonical).toMatch(new RegExp(`^${REMICADE}\\|`));
    expect(pkg.libraries.map((library) => library.name)).toContain('FHIRHelpers');
  });

  it('is dtr_unavailable when the service fails (500)', async () => {
    service.reply = (_body, response) => fhir(response, 500, { error: 'down' });
    await expect(fetchPackage()).resolves.toEqual(failed('dtr_unavailable'));
  });

  it('is dtr_unavailable when the service knows no such questionnaire (404 OperationOutcome)', async () => {
    const unknown = 'https://payer.example/fhir/Questionnaire/no-such-drug';
    await expect(fetchPackage(unknown)).resolves.toEqual(failed('dtr_unavailable'));
    expect(service.received).toHaveLength(1);
  });

  it('is dtr_unavailable when the service refuses the token (401)', async () => {
    service.reply = (_body, response) => fhir(response, 401, {});
    await expect(fetchPackage()).resolves.toEqual(failed('dtr_unavailable'));
  });

  it('is dtr_unavailable when nothing listens at the URL', async () => {
    await service.stop();
    await expect(fetchPackage()).resolves.toEqual(failed('dtr_unavailable'));
  });

  it('is dtr_unavailable, without a connection, when the SSRF policy refuses the address', async () => {
    await expect(fetchPackage(REMICADE, 2000, new WebhookTargetPolicy([]))).resolves.toEqual(
      failed('dtr_unavailable'),
    );
    expect(service.received).toHaveLength(0);
  });

  it('is dtr_timed_out when the service answers after the time limit, stopping at the limit', async () => {
    service.reply = (body, response) =>
      setTimeout(() => {
        if (!response.destroyed) fhir(response, 200, answerQuestionnairePackageOperation(body).body);
      }, 1_000);
    const started = Date.now();
    await expect(fetchPackage(REMICADE, TIME_LIMIT_MS)).resolves.toEqual(failed('dtr_timed_out'));
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('is dtr_answer_too_large when the package is larger than the 16 MB it reads', async () => {
    service.reply = (_body, response) =>
      response
        .writeHead(200, { 'Content-Type': 'application/fhir+json' })
        .end(`{"padding":"${'x'.repeat(17 * 1024 * 1024)}"}`);
    await expect(fetchPackage()).resolves.toEqual(failed('dtr_answer_too_large'));
  });

  it('is dtr_unavailable when the service fails with an error page larger than the 16 MB it reads (502)', async () => {
    service.reply = (_body, response) =>
      response
        .writeHead(502, { 'Content-Type': 'text/html' })
        .end(`<html>${'x'.repeat(17 * 1024 * 1024)}</html>`);
    await expect(fetchPackage()).resolves.toEqual(failed('dtr_unavailable'));
  });

  it('is dtr_invalid_package when the body is not JSON', async () => {
    service.reply = (_body, response) =>
      response.writeHead(200, { 'Content-Type': 'application/fhir+json' }).end('<html>Gateway</html>');
    await expect(fetchPackage()).resolves.toEqual(failed('dtr_invalid_package'));
  });

  it.each([
    ['a Bundle alone', { resourceType: 'Bundle', type: 'collection', entry: [] }],
    [
      'Parameters without a PackageBundle',
      { resourceType: 'Parameters', parameter: [{ name: 'operationOutcome', resource: {} }] },
    ],
    ['JSON that is no resource', [1, 2, 3]],
  ])('is dtr_invalid_package when the answer is %s', async (_case, body) => {
    service.reply = (_request, response) => fhir(response, 200, body);
    await expect(fetchPackage()).resolves.toEqual(failed('dtr_invalid_package'));
  });
});
