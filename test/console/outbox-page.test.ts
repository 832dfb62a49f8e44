import { randomBytes } from 'node:crypto';

import type { OutgoingMail } from '../../domain/mail/outgoing-mail';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { accountMailer } from '../../infrastructure/mail/account-mailer';
import { consoleBrowserWithRoles, getPage, postForm } from '../support/console-admin';
import { ConsoleBrowser, cookiesFrom } from '../support/console-session';
import { startTestApp, TestAccount, TestApp } from '../support/test-app';

const OUTBOX = '/console/providers/outbox';

describe('the outbox page of the console', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('Clinic Outbox');
    admin = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
  });
  afterAll(() => testApp.close());

  const send = (accountId: string, overrides: Partial<OutgoingMail> = {}) =>
    accountMailer({
      config: testApp.config,
      db: testApp.db,
      secrets: new SecretBox(testApp.config.encryption!),
    }).send({
      accountId,
      livemode: false,
      to: 'dr.okafor@practice.example',
      subject: 'Authorize Clinic Outbox to act for you',
      text: 'Dear Dr. Okafor,\n\nOpen https://api.clinic.example/sign/abc123 to review and sign.',
      purpose: 'provider_authorization.signing_link',
      objectId: 'pvauth_01jdoutbox00000000000000',
      idempotencyKey: randomBytes(8).toString('hex'),
      ...overrides,
    });

  it('lists the test-mode mail newest first, with recipient, subject and purpose, and opens one with its link clickable', async () => {
    await send(account.accountId, { subject: 'The older message' });
    const { messageId } = await send(account.accountId, { subject: 'The newer message' });

    const page = await getPage(testApp, admin, OUTBOX);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Mail sent in test mode');
    expect(page.text.indexOf('The newer message')).toBeLessThan(page.text.indexOf('The older message'));
    expect(page.text).toContain('dr.okafor@practice.example');
    expect(page.text).toContain('Signing link');

    const message = await getPage(testApp, admin, `${OUTBOX}/${messageId}`);
    expect(message.status).toBe(200);
    expect(message.text).toContain('<a href="https://api.clinic.example/sign/abc123">');
    expect(message.text).toContain('Dear Dr. Okafor,');
    expect(message.text).toContain('pvauth_01jdoutbox00000000000000');
  });

  it('escapes what the message says, linking only http and https addresses', async () => {
    const { messageId } = await send(account.accountId, {
      subject: '<script>alert(1)</script>',
      text: 'javascript:alert(1) and <b>bold</b> and https://api.clinic.example/sign/xyz.',
    });
    const message = await getPage(testApp, admin, `${OUTBOX}/${messageId}`);
    expect(message.text).not.toContain('<script>alert(1)</script>');
    expect(message.text).not.toContain('<b>bold</b>');
    expect(message.text).not.toContain('href="javascript:');
    expect(message.text).toContain('<a href="https://api.clinic.example/sign/xyz">');
  });

  it('pages through the outbox, 25 messages at a time', async () => {
    const fresh = await testApp.createAccount('Busy outbox clinic');
    const busyAdmin = await consoleBrowserWithRoles(testApp, fresh.accountId, ['admin']);
    for (let index = 0; index < 27; index++) await send(fresh.accountId, { subject: `Message ${index}` });

    const first = await getPage(testApp, busyAdmin, OUTBOX);
    expect(first.text.match(/>Message \d+</g)).toHaveLength(25);
    const older = /href="(\/console\/providers\/outbox\?cursor=[^"]+)"/.exec(first.text)![1]!;
    const second = await getPage(testApp, busyAdmin, older.replace(/&amp;/g, '&'));
    expect(second.text.match(/>Message \d+</g)).toEqual(['>Message 1<', '>Message 0<']);
    expect(second.text).toContain('Newest mail');
  });

  it('says in live mode that the outbox holds test-mode mail only', async () => {
    const switched = await postForm(testApp, admin, '/console/mode', { mode: 'live', return_to: OUTBOX });
    const live = { ...admin, cookie: cookiesFrom(switched.headers['set-cookie'], admin.cookie) };
    const page = await getPage(testApp, live, OUTBOX);
    expect(page.status).toBe(200);
    expect(page.text).toContain('The outbox holds test-mode mail only.');
    expect(page.text).toContain('href="/console/connectors/mail"');
    expect(page.text).not.toContain('dr.okafor@practice.example');
  });

  it("never shows another account's mail to its admins", async () => {
    const { messageId } = await send(account.accountId, { subject: 'For Clinic Outbox only' });
    const other = await testApp.createAccount('Other clinic');
    const otherAdmin = await consoleBrowserWithRoles(testApp, other.accountId, ['admin']);

    const page = await getPage(testApp, otherAdmin, OUTBOX);
    expect(page.text).not.toContain('For Clinic Outbox only');
    expect(page.text).toContain('No mail has been sent in this mode yet.');
    expect((await getPage(testApp, otherAdmin, `${OUTBOX}/${messageId}`)).status).toBe(404);
  });

  it('shows people who are not admins the 403 page', async () => {
    const { messageId } = await send(account.accountId);
    for (const role of ['provider', 'reviewer'] as const) {
      const person = await consoleBrowserWithRoles(testApp, account.accountId, [role]);
      for (const path of [OUTBOX, `${OUTBOX}/${messageId}`]) {
        const page = await getPage(testApp, person, path);
        expect(page.status).toBe(403);
        expect(page.text).not.toContain('dr.okafor@practice.example');
      }
    }
  });
});
