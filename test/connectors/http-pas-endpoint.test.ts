import { ConnectorError } from '../../domain/failures';
import { HttpPasEndpoint } from '../../infrastructure/connectors/pas/pas-endpoint';
import { PasPriorAuthorizationChannel } from '../../infrastructure/connectors/pas/pas-channel';
import { MalformedPasResponseError } from '../../infrastructure/connectors/pas/pas-errors';
import { writeInquiryBundle, writeSubmitBundle } from '../../infrastructure/connectors/pas/pas-request';
import { SimulatedPasEndpoint } from '../../infrastructure/connectors/pas/simulated-pas-endpoint';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { ClearinghouseServer } from '../support/clearinghouse-server';
import { EVERY_KIND_OF_ANSWER, remicadeExchange, remicadeInquiry } from '../support/pas-exchanges';

const loopbackAllowed = new WebhookTargetPolicy(['127.0.0.0/8']);
const PAYER_TOKEN = 'pas-token-0001';

describe('A payer PAS endpoint over HTTP', () => {
  let server: ClearinghouseServer;
  let url: string;
  let payer: SimulatedPasEndpoint;

  beforeEach(async () => {
    payer = new SimulatedPasEndpoint(EVERY_KIND_OF_ANSWER.approved!);
    // A payer that reads the PAS request it is sent and answers with its ClaimResponse Bundle.
    server = new ClearinghouseServer(() => ({ status: 200, body: '' }));
    url = (await server.start()).replace(/\/eligibility$/, '/fhir');
  });
  afterEach(() => server.stop());

  async function answering(body: Promise<string>, wrapInParameters = false) {
    const bundle = await body;
    const resource = JSON.parse(bundle) as object;
    server.script.push({
      status: 200,
      headers: { 'Content-Type': 'application/fhir+json' },
      body: wrapInParameters
        ? JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'responseBundle', resource }] })
        : bundle,
    });
  }

  const channel = (overrides: Partial<ConstructorParameters<typeof HttpPasEndpoint>[0]> = {}) =>
    new PasPriorAuthorizationChannel(
      new HttpPasEndpoint(
        { url, auth: { type: 'bearer', token: PAYER_TOKEN }, timeoutMs: 2000, ...overrides },
        loopbackAllowed,
      ),
    );

  async function failureOf(call: Promise<unknown>): Promise<ConnectorError> {
    const error: unknown = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConnectorError);
    return error as ConnectorError;
  }

  it('submits the request Bundle to Claim/$submit as FHIR JSON with the connector credentials', async () => {
    await answering(payer.submit(writeSubmitBundle(remicadeExchange(), { sentAt: new Date() })));
    await expect(channel().submit(remicadeExchange())).resolves.toEqual(EVERY_KIND_OF_ANSWER.approved);
    const [request] = server.requests;
    expect(request!.url).toBe('/fhir/Claim/$submit');
    expect(request!.headers['content-type']).toBe('application/fhir+json');
    expect(request!.headers.authorization).toBe(`Bearer ${PAYER_TOKEN}`);
    expect(JSON.parse(request!.body)).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
  });

  it('inquires at Claim/$inquire and reads the ClaimResponse inside the Parameters it answers', async () => {
    payer = new SimulatedPasEndpoint(EVERY_KIND_OF_ANSWER.pended!);
    await answering(payer.inquire(writeInquiryBundle(remicadeInquiry(), { sentAt: new Date() })), true);
    await expect(channel().inquire(remicadeInquiry())).resolves.toEqual(EVERY_KIND_OF_ANSWER.pended);
    expect(server.requests[0]!.url).toBe('/fhir/Claim/$inquire');
  });

  it('treats throttling as worth retrying after the time the payer asks', async () => {
    server.script.push({ status: 429, headers: { 'Retry-After': '12' } });
    const error = await failureOf(channel().submit(remicadeExchange()));
    expect(error).toMatchObject({ transient: true, retryAfterMs: 12_000 });
    expect(error.message).toBe('The PAS endpoint answered HTTP 429.');
  });

  it('treats a refused request (400) as permanent and refused credentials as such', async () => {
    server.script.push({ status: 400, body: '{"resourceType":"OperationOutcome"}' }, { status: 403 });
    expect(await failureOf(channel().submit(remicadeExchange()))).toMatchObject({
      transient: false,
      message: 'The PAS endpoint answered HTTP 400.',
    });
    expect((await failureOf(channel().submit(remicadeExchange()))).message).toMatch(/credentials/);
  });

  it('gives up on a payer that does not answer in time, as worth retrying', async () => {
    server.script.push('hang');
    const error = await failureOf(channel({ timeoutMs: 300 }).submit(remicadeExchange()));
    expect(error).toMatchObject({ transient: true });
    expect(error.message).toMatch(/within 300 ms/);
  });

  it('reads a 4xx OperationOutcome refusing the request on its merits as the payer not taking it', async () => {
    server.script.push({
      status: 422,
      body: JSON.stringify({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'business-rule', diagnostics: 'Member JANE DOE not found' }],
      }),
    });
    await expect(channel().submit(remicadeExchange())).resolves.toEqual({
      kind: 'not_submitted',
      payer_reference: null,
      reason_code: 'fhir_business-rule',
      reason: "The payer's PAS endpoint refused to process the request (FHIR issue type business-rule).",
    });
  });

  it('keeps a 409 duplicate to a submission the payer already took a refusal of the call, not of the request', async () => {
    server.script.push({
      status: 409,
      body: JSON.stringify({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'duplicate' }],
      }),
    });
    const error = await failureOf(channel().submit(remicadeExchange()));
    expect(error).toMatchObject({ transient: false });
    expect(error.message).toMatch(/HTTP 409/);
  });

  it('never reads a refused inquiry as the payer not taking the request it holds', async () => {
    server.script.push({
      status: 422,
      body: JSON.stringify({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'business-rule' }],
      }),
    });
    const error = await failureOf(channel().inquire(remicadeInquiry()));
    expect(error.message).toMatch(/HTTP 422/);
  });

  it('names a submission answer that is not a ClaimResponse Bundle, without quoting it, as permanent and unreadable', async () => {
    server.script.push({ status: 200, body: '{"resourceType":"Patient","name":[{"family":"DOE"}]}' });
    const error = await failureOf(channel().submit(remicadeExchange()));
    expect(error).toBeInstanceOf(MalformedPasResponseError);
    expect(error).toMatchObject({ transient: false, answerUnreadable: true });
    expect(error.message).toBe('Expected a Bundle, Parameters or OperationOutcome (at $.resourceType).');
  });

  it('retries an inquiry answer it cannot read, since the payer still holds the request', async () => {
    server.script.push({ status: 200, body: '{"resourceType":"Patient","name":[{"family":"DOE"}]}' });
    const error = await failureOf(channel().inquire(remicadeInquiry()));
    expect(error).toMatchObject({ transient: true, answerUnreadable: true });
    expect(error.message).toBe('Expected a Bundle, Parameters or OperationOutcome (at $.resourceType).');
  });

  it('never connects to a loopback payer unless the SSRF policy allows it', async () => {
    const strict = new PasPriorAuthorizationChannel(
      new HttpPasEndpoint({ url, auth: { type: 'none' }, timeoutMs: 2000 }, new WebhookTargetPolicy([])),
    );
    const error = await failureOf(strict.submit(remicadeExchange()));
    expect(error.message).toMatch(/SSRF policy/);
    expect(server.requests).toHaveLength(0);
  });
});
