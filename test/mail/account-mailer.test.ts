import { randomBytes } from 'node:crypto';

import { DAY_MS } from '../../domain/durations';
import { MailNotSentError, OutgoingMail } from '../../domain/mail/outgoing-mail';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { accountMailer } from '../../infrastructure/mail/account-mailer';
import {
  MAIL_OUTBOX_RETENTION_DAYS,
  MailOutboxRepository,
} from '../../infrastructure/mail/mail-outbox.repository';
import { Database } from '../../infrastructure/storage/database';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import { migrate } from '../../infrastructure/storage/migrations';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { validatedConnectorSettings } from '../../src/connectors/connectors.dto';
import { ConnectorsService } from '../../src/connectors/connectors.service';
import { LoopbackSmtpServer } from '../support/loopback-smtp';
import { testConfig } from '../support/test-app';
import { openMigratedMemoryDatabase } from '../support/migrated-database';

const CREDENTIALS = { username: 'clinic-mailer', password: 'smtp-password-8842' };
const SIGNING_LINK = `https://api.clinic.example/sign/${randomBytes(24).toString('base64url')}`;

/** One database for the mailer and the outbox it keeps: a fresh PGlite costs seconds to start. */
let db: Database;
beforeAll(async () => {
  db = await openMigratedMemoryDatabase();
  await migrate(db);
});
afterAll(() => db.close());

describe('the account mailer', () => {
  let config: AppConfig;
  let secrets: SecretBox;
  let accounts: AccountsRepository;
  let connectors: ConnectorsService;
  let starttls: LoopbackSmtpServer;
  let smtps: LoopbackSmtpServer;
  let starttlsPort: number;
  let smtpsPort: number;

  beforeAll(async () => {
    config = testConfig();
    secrets = new SecretBox(config.encryption!);
    accounts = new AccountsRepository(db);
    connectors = new ConnectorsService(
      new ConnectorSettingsRepository(db, secrets),
      new WebhookTargetPolicy(config.webhooks.allowedTargets),
    );
    starttls = new LoopbackSmtpServer({ security: 'starttls', credentials: CREDENTIALS });
    smtps = new LoopbackSmtpServer({ security: 'tls', credentials: CREDENTIALS });
    [starttlsPort, smtpsPort] = await Promise.all([starttls.start(), smtps.start()]);
  });
  afterAll(async () => {
    await Promise.all([starttls.stop(), smtps.stop()]);
  });
  beforeEach(() => {
    starttls.behaviour = 'accept';
  });

  const mailer = (mode: AppConfig['mode'] = 'worker') =>
    accountMailer({ config: { ...config, mode }, db, secrets });

  const newAccount = async () => (await accounts.createAccount('Mail clinic')).id;

  const signingMail = (accountId: string, overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
    accountId,
    livemode: true,
    to: 'dr.rivera@practice.example',
    subject: 'Authorize Mail clinic to act for you',
    text: `Open this link to review and sign: ${SIGNING_LINK}`,
    purpose: 'provider_authorization.signing_link',
    objectId: 'pvauth_01jdexample000000000000000',
    idempotencyKey: `pvauth-signing-link-${randomBytes(6).toString('hex')}`,
    ...overrides,
  });

  /** The account's mail connector, set as an admin sets it through the API. */
  const configureMail = async (
    accountId: string,
    server: LoopbackSmtpServer,
    port: number,
    overrides: Record<string, unknown> = {},
  ) =>
    connectors.configure(
      accountId,
      'mail',
      await validatedConnectorSettings('mail', {
        host: '127.0.0.1',
        port,
        security: server.security,
        ...CREDENTIALS,
        from: 'prior-auth@clinic.example',
        ca_certificate: server.certificate,
        timeout_ms: 5_000,
        ...overrides,
      }),
    );

  it('delivers live mail over STARTTLS, authenticated, with the text and link intact', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort);
    const mail = signingMail(accountId);

    const { messageId } = await mailer().send(mail);

    const received = starttls.received.find((message) => message.messageId === messageId)!;
    expect(received).toMatchObject({
      from: 'prior-auth@clinic.example',
      to: ['dr.rivera@practice.example'],
      secure: true,
      user: CREDENTIALS.username,
      subject: mail.subject,
    });
    expect(starttls.authAttempts).toContainEqual({ username: CREDENTIALS.username, secure: true });
    expect(['PLAIN', 'LOGIN']).toContain(received.authMethod);
    expect(received.text).toBe(mail.text);
  });

  it('delivers live mail over TLS from the first byte', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, smtps, smtpsPort);

    const { messageId } = await mailer().send(signingMail(accountId));

    expect(smtps.received.find((message) => message.messageId === messageId)).toMatchObject({ secure: true });
  });

  it('gives one Message-ID per idempotency key, so a resend is recognisably the same message', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort);
    const mail = signingMail(accountId);

    const first = await mailer().send(mail);
    const again = await mailer().send(mail);
    const other = await mailer().send({ ...mail, idempotencyKey: `${mail.idempotencyKey}-reminder` });

    expect(again.messageId).toBe(first.messageId);
    expect(other.messageId).not.toBe(first.messageId);
  });

  it('refuses for good when the server rejects the message (550): retrying cannot change it', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort);
    starttls.behaviour = 'reject';

    const sent = mailer().send(signingMail(accountId));

    await expect(sent).rejects.toThrow(MailNotSentError);
    await expect(sent).rejects.toMatchObject({ reason: 'rejected' });
  });

  it('fails to be retried when the server defers (451) or drops the connection, naming no recipient', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort);

    for (const behaviour of ['defer', 'drop'] as const) {
      starttls.behaviour = behaviour;
      const error = await mailer()
        .send(signingMail(accountId))
        .then(
          () => undefined,
          (failure: unknown) => failure as Error,
        );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(MailNotSentError);
      expect(error!.message).not.toContain('practice.example');
    }
  });

  it('gives up on a server that stops answering at its time limit, to be retried', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort, { timeout_ms: 1_000 });
    starttls.behaviour = 'hang';
    const started = Date.now();

    const error = await mailer()
      .send(signingMail(accountId))
      .then(
        () => undefined,
        (failure: unknown) => failure as Error,
      );

    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(MailNotSentError);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('never sends to a server whose certificate the connector does not trust, and asks for the setting to be fixed', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort);
    await connectors.configure(
      accountId,
      'mail',
      await validatedConnectorSettings('mail', {
        host: '127.0.0.1',
        port: starttlsPort,
        security: 'starttls',
        username: CREDENTIALS.username,
        from: 'prior-auth@clinic.example',
      }),
    );
    const delivered = starttls.received.length;

    const sent = mailer().send(signingMail(accountId));

    await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'not_configured' });
    await expect(sent).rejects.toThrow(
      /certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): fix the connector's/,
    );
    expect(starttls.received).toHaveLength(delivered);
  });

  it('never sends to a server whose trusted certificate is for another name, and asks for the setting to be fixed', async () => {
    const elsewhere = new LoopbackSmtpServer({
      security: 'starttls',
      credentials: CREDENTIALS,
      certificateNames: 'DNS:mail.elsewhere.example',
    });
    const port = await elsewhere.start();
    try {
      const accountId = await newAccount();
      await configureMail(accountId, elsewhere, port);

      const sent = mailer().send(signingMail(accountId));

      await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'not_configured' });
      await expect(sent).rejects.toThrow(/not trusted \(ERR_TLS_CERT_ALTNAME_INVALID\)/);
      expect(elsewhere.received).toEqual([]);
      expect(elsewhere.authAttempts).toEqual([]);
    } finally {
      await elsewhere.stop();
    }
  });

  it('never sends in clear, nor its password, to a server that does not offer STARTTLS', async () => {
    const clear = new LoopbackSmtpServer({
      security: 'starttls',
      credentials: CREDENTIALS,
      offerStartTls: false,
    });
    const port = await clear.start();
    try {
      const accountId = await newAccount();
      await configureMail(accountId, clear, port);

      const sent = mailer().send(signingMail(accountId));

      await expect(sent).rejects.toThrow('The SMTP server refused STARTTLS (500)');
      await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'rejected' });
      expect(clear.received).toEqual([]);
      expect(clear.authAttempts).toEqual([]);
    } finally {
      await clear.stop();
    }
  });

  it('is not configured in live mode without a mail connector', async () => {
    const sent = mailer().send(signingMail(await newAccount()));

    await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'not_configured' });
  });

  it('keeps test-mode mail in the outbox, sealed, and a retry writes it once', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort);
    const delivered = starttls.received.length;
    const mail = signingMail(accountId, { livemode: false });

    const first = await mailer().send(mail);
    const retried = await mailer().send(mail);

    expect(retried.messageId).toBe(first.messageId);
    expect(starttls.received).toHaveLength(delivered);
    const outbox = new MailOutboxRepository(db, secrets);
    const page = await outbox.list(accountId, { livemode: false, limit: 10 });
    expect(page.messages).toEqual([
      expect.objectContaining({ id: first.messageId, to: mail.to, subject: mail.subject, text: mail.text }),
    ]);
    const [row] = await db.query<Record<string, string>>('SELECT * FROM mail_outbox WHERE id = $1', [
      first.messageId,
    ]);
    expect(JSON.stringify(row)).not.toContain(SIGNING_LINK);
    expect(JSON.stringify(row)).not.toContain(mail.to);
  });

  it('keeps every mode of a local install in the outbox, live mail included', async () => {
    const accountId = await newAccount();
    await configureMail(accountId, starttls, starttlsPort);
    const delivered = starttls.received.length;

    const { messageId } = await mailer('local').send(signingMail(accountId));

    expect(starttls.received).toHaveLength(delivered);
    const kept = await new MailOutboxRepository(db, secrets).get(accountId, messageId);
    expect(kept).toMatchObject({ livemode: true, purpose: 'provider_authorization.signing_link' });
  });
});

describe('the mail outbox', () => {
  let secrets: SecretBox;
  let outbox: MailOutboxRepository;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    secrets = new SecretBox({ currentKeyId: 'k1', keys: new Map([['k1', randomBytes(32)]]) });
    outbox = new MailOutboxRepository(db, secrets);
    accounts = new AccountsRepository(db);
  });

  /** The outbox as it reads on a day some days from now. */
  const outboxInDays = (days: number) =>
    new MailOutboxRepository(db, secrets, () => new Date(Date.now() + days * DAY_MS));

  /** A message as the outbox holds it once it was kept that many days ago. */
  const ageMessage = (id: string, days: number) =>
    db.query(`UPDATE mail_outbox SET created_at = now() - make_interval(days => $2) WHERE id = $1`, [
      id,
      days,
    ]);

  const newAccount = async () => (await accounts.createAccount('Outbox clinic')).id;

  const mail = (accountId: string, overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
    accountId,
    livemode: false,
    to: 'dr.chen@practice.example',
    subject: 'Your authorization is signed',
    text: 'Thank you. Revoke it at any time: https://api.clinic.example/revoke/abc',
    purpose: 'provider_authorization.confirmation',
    objectId: 'pvauth_01jdoutboxrepo000000000000',
    idempotencyKey: randomBytes(8).toString('hex'),
    ...overrides,
  });

  it('keeps the first message of an idempotency key: a retry, even with other words, writes nothing', async () => {
    const accountId = await newAccount();
    const first = await outbox.record(mail(accountId, { idempotencyKey: 'confirmation-1' }));
    const retried = await outbox.record(
      mail(accountId, { idempotencyKey: 'confirmation-1', subject: 'A different subject' }),
    );

    expect(first.recorded).toBe(true);
    expect(retried).toEqual({ id: first.id, recorded: false });
    const page = await outbox.list(accountId, { livemode: false, limit: 10 });
    expect(page.messages.map((message) => message.subject)).toEqual(['Your authorization is signed']);
  });

  it("lists one mode's messages newest first, page by page, and another account's never", async () => {
    const accountId = await newAccount();
    const other = await newAccount();
    for (const subject of ['first', 'second', 'third']) await outbox.record(mail(accountId, { subject }));
    await outbox.record(mail(accountId, { subject: 'live', livemode: true }));
    await outbox.record(mail(other, { subject: 'elsewhere' }));

    const firstPage = await outbox.list(accountId, { livemode: false, limit: 2 });
    const secondPage = await outbox.list(accountId, {
      livemode: false,
      limit: 2,
      after: keysetPosition(firstPage.nextCursor!),
    });

    expect(firstPage.messages.map((message) => message.subject)).toEqual(['third', 'second']);
    expect(secondPage).toEqual({
      messages: [expect.objectContaining({ subject: 'first' })],
      nextCursor: null,
    });
    const live = await outbox.list(accountId, { livemode: true, limit: 10 });
    expect(live.messages.map((message) => message.subject)).toEqual(['live']);
    expect(await outbox.get(other, firstPage.messages[0]!.id)).toBeUndefined();
  });

  // Recording a message 31 days on purges every older one, the mailer's above too: this file's tests
  // run in order, and none after this one reads a message recorded before it.
  it(`forgets messages after ${MAIL_OUTBOX_RETENTION_DAYS} days, when the next one is kept`, async () => {
    const accountId = await newAccount();
    const old = await outbox.record(mail(accountId, { subject: 'old' }));

    await outboxInDays(29).record(mail(accountId, { subject: 'new' }));
    const [kept] = await db.query('SELECT id FROM mail_outbox WHERE id = $1', [old.id]);
    expect(kept).toBeDefined();
    await outboxInDays(MAIL_OUTBOX_RETENTION_DAYS + 1).record(mail(accountId, { subject: 'newer' }));
    expect(await db.query('SELECT id FROM mail_outbox WHERE id = $1', [old.id])).toEqual([]);
  });

  it(`never shows a message past ${MAIL_OUTBOX_RETENTION_DAYS} days, even when no mail has come since`, async () => {
    const accountId = await newAccount();
    const recent = await outbox.record(mail(accountId, { subject: 'recent' }));
    const expired = await outbox.record(mail(accountId, { subject: 'expired' }));
    await ageMessage(recent.id, MAIL_OUTBOX_RETENTION_DAYS - 1);
    await ageMessage(expired.id, MAIL_OUTBOX_RETENTION_DAYS + 1);

    const page = await outbox.list(accountId, { livemode: false, limit: 10 });

    expect(page).toEqual({ messages: [expect.objectContaining({ subject: 'recent' })], nextCursor: null });
    expect(await outbox.get(accountId, expired.id)).toBeUndefined();
    expect(await outbox.get(accountId, recent.id)).toMatchObject({ subject: 'recent' });
    const daysLater = outboxInDays(2);
    expect(await daysLater.list(accountId, { livemode: false, limit: 10 })).toEqual({
      messages: [],
      nextCursor: null,
    });
    expect(await daysLater.get(accountId, recent.id)).toBeUndefined();
  });

  it(`keeps a message anew when the one its idempotency key first kept is past ${MAIL_OUTBOX_RETENTION_DAYS} days`, async () => {
    const accountId = await newAccount();
    const first = await outbox.record(mail(accountId, { idempotencyKey: 'reminder-1', subject: 'first' }));
    await ageMessage(first.id, MAIL_OUTBOX_RETENTION_DAYS + 1);

    const again = await outbox.record(mail(accountId, { idempotencyKey: 'reminder-1', subject: 'again' }));

    expect(again.recorded).toBe(true);
    expect(again.id).not.toBe(first.id);
    const page = await outbox.list(accountId, { livemode: false, limit: 10 });
    expect(page.messages.map((message) => message.subject)).toEqual(['again']);
  });
});
