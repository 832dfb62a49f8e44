import { randomBytes } from 'node:crypto';

import { DAY_MS } from '../../domain/durations';
import type { OutgoingMail } from '../../domain/mail/outgoing-mail';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import {
  MAIL_OUTBOX_RETENTION_DAYS,
  MailOutboxRepository,
} from '../../infrastructure/mail/mail-outbox.repository';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import { migrate } from '../../infrastructure/storage/migrations';

describe('the mail outbox', () => {
  let db: Database;
  let secrets: SecretBox;
  let outbox: MailOutboxRepository;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: 'memory://' });
    await migrate(db);
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
  afterAll(() => db.close());

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
