import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { sendNotification } from '../../infrastructure/webhooks/webhook-sender';
import { TestReceiver } from '../support/webhook-receiver';

describe('the webhook SSRF policy', () => {
  const production = new WebhookTargetPolicy([]);

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.5',
    '192.168.1.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('refuses %s', (address) => {
    expect(production.refusal(address)).toMatch(/not a public unicast address/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(production.refusal(address)).toBeUndefined();
  });

  it('lets the allow-list open loopback for local mode and tests only', () => {
    const local = new WebhookTargetPolicy(['127.0.0.0/8', '::1/128']);
    expect(local.refusal('127.0.0.1')).toBeUndefined();
    expect(local.refusal('::1')).toBeUndefined();
    expect(local.refusal('10.0.0.1')).toMatch(/not a public unicast address/);
  });

  describe('at connect time', () => {
    let receiver: TestReceiver;
    beforeAll(async () => {
      receiver = await new TestReceiver('whsec_ssrf_tests_000001').start();
    });
    afterAll(() => receiver.stop());

    const send = (url: string, policy: WebhookTargetPolicy) =>
      sendNotification(url, '{}', { 'Content-Type': 'application/json' }, { policy, timeoutMs: 2_000 });

    it('refuses a literal private address before connecting', async () => {
      const result = await send(receiver.url, production);
      expect(result.error).toBe('refused by the SSRF policy: 127.0.0.1 is not a public unicast address');
      expect(receiver.requests).toHaveLength(0);
    });

    it('refuses a host name that resolves to a private address, checking the addresses it connects to', async () => {
      const result = await send(receiver.url.replace('127.0.0.1', 'localhost'), production);
      expect(result.error).toMatch('refused by the SSRF policy: localhost resolves to a non-public address');
      expect(receiver.requests).toHaveLength(0);
    });

    it('connects when the allow-list permits the address', async () => {
      const result = await send(
        receiver.url.replace('127.0.0.1', 'localhost'),
        new WebhookTargetPolicy(['127.0.0.0/8', '::1/128']),
      );
      expect(result.httpStatus).toBe(401);
      expect(receiver.requests).toHaveLength(1);
    });
  });

  it('refuses at activation a URL whose host resolves to a private address', async () => {
    expect(await production.verify('http://localhost:8080/hooks')).toEqual({
      allowed: false,
      reason: 'localhost resolves to a non-public address',
    });
    expect(await production.verify('http://169.254.169.254/latest/meta-data')).toEqual({
      allowed: false,
      reason: '169.254.169.254 is not a public unicast address',
    });
  });
});
