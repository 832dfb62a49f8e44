import { ConnectorError } from '../../domain/failures';
import { HttpClearinghouse } from '../../infrastructure/connectors/http-clearinghouse';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { ClearinghouseServer } from '../support/clearinghouse-server';

const INQUIRY = 'ISA*00*          *00*          *ZZ*SENDER~';
const ANSWER = 'ISA*00*          *00*          *ZZ*RECEIVER~';
const loopbackAllowed = new WebhookTargetPolicy(['127.0.0.0/8']);

describe('The live clearinghouse over HTTP', () => {
  let server: ClearinghouseServer;
  let url: string;

  beforeEach(async () => {
    server = new ClearinghouseServer(() => ({ status: 200, body: ANSWER }));
    url = await server.start();
  });
  afterEach(() => server.stop());

  const clearinghouse = (overrides: Partial<ConstructorParameters<typeof HttpClearinghouse>[0]> = {}) =>
    new HttpClearinghouse(
      { url, format: 'x12', auth: { type: 'none' }, timeoutMs: 2000, ...overrides },
      loopbackAllowed,
    );

  async function failureOf(exchange: Promise<unknown>): Promise<ConnectorError> {
    const error: unknown = await exchange.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ConnectorError);
    return error as ConnectorError;
  }

  it('posts the raw interchange as application/EDI-X12 and returns the raw answer', async () => {
    await expect(clearinghouse().exchange(INQUIRY)).resolves.toBe(ANSWER);
    expect(server.requests[0]!.body).toBe(INQUIRY);
    expect(server.requests[0]!.headers['content-type']).toBe('application/EDI-X12');
  });

  it('wraps the interchange as {"x12": …} for a JSON clearinghouse and unwraps its answer', async () => {
    server.script.push({ status: 200, body: JSON.stringify({ x12: ANSWER }) });
    await expect(clearinghouse({ format: 'json' }).exchange(INQUIRY)).resolves.toBe(ANSWER);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ x12: INQUIRY });
  });

  it('sends basic credentials when the connector has them', async () => {
    await clearinghouse({ auth: { type: 'basic', username: 'clinic', password: 's3cret' } }).exchange(
      INQUIRY,
    );
    expect(server.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('clinic:s3cret').toString('base64')}`,
    );
  });

  it('sends a bearer token or a named header when the connector has one', async () => {
    await clearinghouse({ auth: { type: 'bearer', token: 'tok' } }).exchange(INQUIRY);
    await clearinghouse({ auth: { type: 'header', name: 'X-Api-Key', value: 'key' } }).exchange(INQUIRY);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok');
    expect(server.requests[1]!.headers['x-api-key']).toBe('key');
  });

  it('treats a 503 as worth retrying after the time the clearinghouse asks', async () => {
    server.script.push({ status: 503, headers: { 'Retry-After': '7' } });
    const error = await failureOf(clearinghouse().exchange(INQUIRY));
    expect(error).toMatchObject({ transient: true, retryAfterMs: 7000 });
  });

  it('treats a 502 whose error page is past the 1 MB it reads as worth retrying, as any 502', async () => {
    server.script.push({ status: 502, body: `<html>${'x'.repeat(2 * 1024 * 1024)}</html>` });
    const error = await failureOf(clearinghouse().exchange(INQUIRY));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(/HTTP 502/);
  });

  it('treats a 200 past the 1 MB it reads as a permanent failure', async () => {
    server.script.push({ status: 200, body: 'x'.repeat(2 * 1024 * 1024) });
    const error = await failureOf(clearinghouse().exchange(INQUIRY));
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/larger than 1048576 bytes/);
  });

  it('treats refused credentials as a permanent failure that says so', async () => {
    server.script.push({ status: 401 });
    const error = await failureOf(clearinghouse().exchange(INQUIRY));
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/credentials/);
  });

  it('gives up on a clearinghouse that does not answer in time, as worth retrying', async () => {
    server.script.push('hang');
    const error = await failureOf(clearinghouse({ timeoutMs: 300 }).exchange(INQUIRY));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(/within 300 ms/);
  });

  it('refuses a JSON answer without an x12 string, without echoing it', async () => {
    server.script.push({ status: 200, body: JSON.stringify({ member: 'JANE DOE' }) });
    const error = await failureOf(clearinghouse({ format: 'json' }).exchange(INQUIRY));
    expect(error.transient).toBe(false);
    expect(error.message).not.toContain('JANE');
  });

  it('never connects to a loopback clearinghouse unless the SSRF policy allows it', async () => {
    const strict = new HttpClearinghouse(
      { url, format: 'x12', auth: { type: 'none' }, timeoutMs: 2000 },
      new WebhookTargetPolicy([]),
    );
    const error = await failureOf(strict.exchange(INQUIRY));
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/SSRF policy/);
    expect(server.requests).toHaveLength(0);
  });
});
