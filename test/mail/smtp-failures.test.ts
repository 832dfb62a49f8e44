import { MailNotSentError } from '../../domain/mail/outgoing-mail';
import { classifiedSmtpFailure } from '../../infrastructure/mail/smtp-sending';

/** Failures a loopback server cannot easily stage: certificates out of date, codes nested in a cause. */
describe('a failed SMTP send', () => {
  const certificateError = (code: string) => Object.assign(new Error('certificate verify failed'), { code });

  it.each([
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  ])('is a connector to fix, not a retry, when the certificate does not verify (%s)', (code) => {
    const failure = classifiedSmtpFailure(certificateError(code));

    expect(failure).toBeInstanceOf(MailNotSentError);
    expect(failure).toMatchObject({ reason: 'not_configured' });
    expect(failure.message).toContain(`(${code}): fix the connector's`);
  });

  it('is a connector to fix when the certificate failure is the cause of a wrapping error', () => {
    const wrapped = new Error('Connection failed', { cause: certificateError('CERT_HAS_EXPIRED') });

    expect(classifiedSmtpFailure(wrapped)).toMatchObject({ reason: 'not_configured' });
  });

  it('is retried when the connection fails for any other reason, naming no server words', () => {
    const reset = Object.assign(new Error('read ECONNRESET from mx.practice.example'), {
      code: 'ECONNRESET',
    });

    const failure = classifiedSmtpFailure(reset);

    expect(failure).not.toBeInstanceOf(MailNotSentError);
    expect(failure.message).toBe('The SMTP server could not take the message now (ECONNRESET)');
  });
});
