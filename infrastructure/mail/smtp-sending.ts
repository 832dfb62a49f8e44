import { createHash } from 'node:crypto';
import { isIP } from 'node:net';

import nodemailer from 'nodemailer';

import type { MailConnectorSettings } from '../../domain/connectors/connector-settings';
import { MailNotSentError, OutgoingMail } from '../../domain/mail/outgoing-mail';
import { TargetRefusedError, WebhookTargetPolicy } from '../webhooks/target-policy';

/**
 * Sends one message through the account's SMTP server. The host is resolved through the SSRF policy
 * at every send and the session goes to the address it approved (a name that resolves elsewhere
 * later, DNS rebinding, is caught), while the certificate is still checked against the name.
 *
 * Failures are classified once: the server refusing the message for good (5xx) is
 * `MailNotSentError('rejected')`, and a certificate the connector's settings do not trust (its CA,
 * its dates, or the name it is for) is `MailNotSentError('not_configured')`: retrying can change
 * neither. Anything else (4xx, network, other TLS failures, time limit) is a plain Error, to retry.
 * No error carries the server's own words, which may quote the recipient.
 */
export async function sendOverSmtp(
  server: MailConnectorSettings,
  mail: OutgoingMail,
  policy: WebhookTargetPolicy,
): Promise<{ messageId: string }> {
  const address = await approvedAddress(server.host, policy);
  const transport = nodemailer.createTransport({
    host: address,
    port: server.port,
    secure: server.security === 'tls',
    // STARTTLS or nothing: a server that does not offer it is not sent to in clear.
    requireTLS: server.security === 'starttls',
    tls: {
      ...(isIP(server.host) === 0 && { servername: server.host }),
      ...(server.trustedCa !== undefined && { ca: server.trustedCa }),
      minVersion: 'TLSv1.2',
    },
    ...(server.auth.type === 'basic' && {
      auth: { user: server.auth.username, pass: server.auth.password },
    }),
    connectionTimeout: server.timeoutMs,
    greetingTimeout: server.timeoutMs,
    socketTimeout: server.timeoutMs,
    logger: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`The SMTP server did not take the message within ${server.timeoutMs} ms`)),
      server.timeoutMs,
    );
  });
  try {
    const messageId = messageIdOf(mail, server.from);
    await Promise.race([
      transport
        .sendMail({
          from: server.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html !== undefined && { html: mail.html }),
          messageId,
        })
        .catch((error: unknown) => {
          throw classifiedSmtpFailure(error);
        }),
      deadline,
    ]);
    return { messageId };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

/** The address the policy approved for the host; a refused host is a setting to fix, not a retry. */
async function approvedAddress(host: string, policy: WebhookTargetPolicy): Promise<string> {
  try {
    return await new Promise<string>((resolve, reject) =>
      policy.lookup(host, {}, (error, address) => (error ? reject(error) : resolve(address as string))),
    );
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      throw new MailNotSentError(
        'not_configured',
        "The mail connector's host resolves to a non-public address",
      );
    }
    throw new Error(
      `The mail connector's host does not resolve now (${(error as NodeJS.ErrnoException).code})`,
    );
  }
}

/**
 * One Message-ID per idempotency key, so a message sent again after a lost answer is recognisably
 * the same one to the receiving side; derived by hash, it names neither the account nor the key.
 */
function messageIdOf(mail: OutgoingMail, from: string): string {
  const digest = createHash('sha256').update(`${mail.accountId}\0${mail.idempotencyKey}`).digest('hex');
  return `<${digest.slice(0, 40)}@${from.slice(from.lastIndexOf('@') + 1)}>`;
}

/**
 * Node's codes for a certificate that does not verify: an authority the connector does not trust,
 * a certificate out of its dates or self-signed, or one for another name.
 */
const UNTRUSTED_CERTIFICATE =
  /^(CERT_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/**
 * The certificate code of a failure or of one of its causes, if it has one. nodemailer replaces
 * Node's code with its own (`ESOCKET`) and keeps Node's as `originalCode`. A few levels are enough,
 * and a cause that loops back on itself ends there.
 */
function certificateCodeOf(error: unknown, levels = 4): string | undefined {
  if (typeof error !== 'object' || error === null || levels === 0) return undefined;
  const { code, originalCode, cause } = error as { code?: unknown; originalCode?: unknown; cause?: unknown };
  const found = [code, originalCode].find(
    (candidate): candidate is string =>
      typeof candidate === 'string' && UNTRUSTED_CERTIFICATE.test(candidate),
  );
  return found ?? certificateCodeOf(cause, levels - 1);
}

/** What a failed send means for its caller; exported for the tests of failures a loopback cannot stage. */
export function classifiedSmtpFailure(error: unknown): Error {
  const certificate = certificateCodeOf(error);
  if (certificate !== undefined) {
    return new MailNotSentError(
      'not_configured',
      `The mail connector's server certificate is not trusted (${certificate}): fix the connector's ` +
        'CA certificate or host, or have the server present a valid certificate for that host',
    );
  }
  const { responseCode, code } = error as { responseCode?: number; code?: string };
  if (responseCode !== undefined && responseCode >= 500 && responseCode < 600) {
    // ETLS: it refused STARTTLS, and the message is not sent in clear instead.
    const refused = code === 'ETLS' ? 'STARTTLS' : 'the message';
    return new MailNotSentError('rejected', `The SMTP server refused ${refused} (${responseCode})`);
  }
  return new Error(`The SMTP server could not take the message now (${responseCode ?? code ?? 'no answer'})`);
}
