import { BadRequestException } from '@nestjs/common';

import { mailServerOf, mailServerUrl } from '../../domain/connectors/connector-settings';
import { MailConnectorSettingsDto, validatedConnectorSettings } from '../../src/connectors/connectors.dto';
import { selfSignedCertificate } from '../support/loopback-smtp';

const valid = {
  host: 'smtp.clinic.example',
  port: 587,
  security: 'starttls',
  username: 'clinic-mailer',
  password: 'relay-password-2231',
  from: 'prior-auth@clinic.example',
};

/** The API's sentences for a body, or none when it is taken. */
async function refusals(body: object): Promise<string[]> {
  try {
    await validatedConnectorSettings('mail', body);
    return [];
  } catch (error) {
    if (!(error instanceof BadRequestException)) throw error;
    return (error.getResponse() as { message: string[] }).message;
  }
}

describe("the mail connector's settings", () => {
  it('take a server, its security, credentials and a sender', async () => {
    const settings = await validatedConnectorSettings('mail', valid);
    expect(settings).toBeInstanceOf(MailConnectorSettingsDto);
    expect(settings).toMatchObject({ host: 'smtp.clinic.example', port: 587, security: 'starttls' });
  });

  it('take a relay without credentials, an IP address, and a certificate to trust', async () => {
    const { cert } = selfSignedCertificate();
    const body = { host: '203.0.113.25', port: 465, security: 'tls', from: valid.from, ca_certificate: cert };
    expect(await refusals(body)).toEqual([]);
    expect(await refusals({ ...body, host: '2001:db8::25' })).toEqual([]);
  });

  it.each([
    ['no encryption', { security: 'none' }, 'security: must be one of the following values: tls, starttls'],
    ['port 0', { port: 0 }, 'port: must not be less than 1'],
    ['a port as text', { port: '587' }, 'port: must be an integer number'],
    ['a host with a space', { host: 'smtp clinic.example' }, 'host: must be a host name or an IP address'],
    [
      'a host with a scheme',
      { host: 'smtp://smtp.clinic.example' },
      'host: must be a host name or an IP address',
    ],
    [
      'a sender with a display name',
      { from: 'Clinic <prior-auth@clinic.example>' },
      'from: must be an email',
    ],
    [
      'a sender with a line break',
      { from: 'prior-auth@clinic.example\r\nBcc: x@y.example' },
      'from: must be an email',
    ],
    ['a password without a user', { username: undefined }, 'password: is only with a username'],
    ['an empty password', { password: '' }, 'password: must be a string of 1 to 1024 characters'],
    [
      'a line break in the user',
      { username: 'clinic\nmailer' },
      'username: must not contain control characters',
    ],
    [
      'a certificate that is not one',
      { ca_certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
      'ca_certificate: must be a PEM certificate',
    ],
    ['a time limit under a second', { timeout_ms: 500 }, 'timeout_ms: must not be less than 1000'],
    ['a time limit over 30 s', { timeout_ms: 30_001 }, 'timeout_ms: must not be greater than 30000'],
  ])('refuse %s', async (_case, overrides, refusal) => {
    const messages = await refusals({ ...valid, ...overrides });
    expect(messages.some((message) => message.startsWith(refusal))).toBe(true);
  });

  it('keep the server as an SMTP URL whose scheme says how the session is secured', () => {
    expect(mailServerUrl('smtp.clinic.example', 465, 'tls')).toBe('smtps://smtp.clinic.example:465');
    expect(mailServerUrl('2001:db8::25', 587, 'starttls')).toBe('smtp://[2001:db8::25]:587');
    expect(mailServerOf('smtp://[2001:db8::25]:587')).toEqual({
      host: '2001:db8::25',
      port: 587,
      security: 'starttls',
    });
    expect(mailServerOf('smtps://smtp.clinic.example:465')).toEqual({
      host: 'smtp.clinic.example',
      port: 465,
      security: 'tls',
    });
  });
});
