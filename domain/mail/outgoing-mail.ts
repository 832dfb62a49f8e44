/**
 * Mail the service sends for an account (docs/providers.md): through the account's `mail`
 * connector (SMTP) in live mode, into the account's outbox in test and local mode. A message's body
 * may hold a signing link, which is a secret: never log a message's body or its links.
 */

export interface OutgoingMail {
  accountId: string;
  livemode: boolean;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Why it was sent, as the outbox lists it, e.g. `provider_authorization.signing_link`. */
  purpose: string;
  /** The object it is about (`pvauth_…`), for the outbox's listing. */
  objectId?: string;
  /**
   * Makes sending idempotent: an activity retry with the same key sends nothing twice (the outbox
   * keeps one row per key; SMTP sends once per key as far as the service can know).
   */
  idempotencyKey: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
}

/** Live mode names no `mail` connector, or its SMTP server refused the message for good. */
export class MailNotSentError extends Error {
  constructor(
    readonly reason: 'not_configured' | 'rejected',
    message: string,
  ) {
    super(message);
    this.name = 'MailNotSentError';
  }
}
