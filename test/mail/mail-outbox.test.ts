import { randomBytes } from 'node:crypto';

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

const DAY_MS = 24 * 3_600_000;

describe('the mail outbox', () => {
  let db: Database;
  let outbox: MailOutboxRepository;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: 'memory://' });
    await migrate(db);
    outbox = new MailOutboxRepository(
      db,
      new SecretBox({ currentKeyId: 'k1', keys: new Map([['k1', randomBytes(32)]]) }),
    );
    accounts = new AccountsRepository(db);
  });
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

    await outbox.record(mail(accountId, { subject: 'new' }), new Date(Date.now() + 29 * DAY_MS));
    expect(await outbox.get(accountId, old.id)).toBeDefined();
    await outbox.record(
      mail(accountId, { subject: 'newer' }),
      new Date(Date.now() + (MAIL_OUTBOX_RETENTION_DAYS + 1) * DAY_MS),
    );
    expect(await outbox.get(accountId, old.id)).toBeUndefined();
  });
});
