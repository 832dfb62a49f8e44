import { ConsoleBrowser, createConsolePerson, signIn, signInWithPassword } from '../support/console-session';
import { startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('the people page', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('People Clinic');
    admin = await signIn(testApp, await createConsolePerson(testApp, account.accountId, ['admin']));
  });
  afterAll(() => testApp.close());

  function invite(roles: string[], browser = admin) {
    return testApp
      .http()
      .post('/console/people/invitations')
      .set('Cookie', browser.cookie)
      .type('form')
      .send(`_csrf=${encodeURIComponent(browser.csrf)}&${roles.map((role) => `roles=${role}`).join('&')}`);
  }

  it('lists the account’s people with their roles and second factor, and no one from other accounts', async () => {
    const colleague = await createConsolePerson(testApp, account.accountId, ['reviewer']);
    const other = await testApp.createAccount('Other Clinic');
    const stranger = await createConsolePerson(testApp, other.accountId, ['provider']);
    const page = await testApp.http().get('/console/people').set('Cookie', admin.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>People</h1>');
    expect(page.text).toContain(colleague.email);
    expect(page.text).toContain('<th scope="col">Two-step sign-in</th>');
    expect(page.text).not.toContain(stranger.email);
  });

  it('is closed to a provider', async () => {
    const provider = await signInWithPassword(
      testApp,
      await createConsolePerson(testApp, account.accountId, ['provider']),
    );
    const page = await testApp.http().get('/console/people').set('Cookie', provider.cookie);
    expect(page.status).toBe(403);
    expect(page.text).toContain('<h1>Not allowed</h1>');
  });

  it('shows a new invitation’s link once, saying that no mail is sent', async () => {
    const answer = await invite(['reviewer', 'provider']);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.text).toMatch(
      /id="invitation-link">\s*http:\/\/[^/]+\/console\/invitations\/[A-Za-z0-9_-]{43}\s*</,
    );
    expect(answer.text).toContain('there is no mail delivery yet');
    expect(answer.text).toContain('data-copy-from="invitation-link"');
  });

  it('lists invitations not used yet by their roles and expiry, never their links', async () => {
    const answer = await invite(['admin']);
    const token = /\/console\/invitations\/([A-Za-z0-9_-]{43})/.exec(answer.text)![1]!;
    const page = await testApp.http().get('/console/people').set('Cookie', admin.cookie);
    expect(page.text).toContain('<h2>Open invitations</h2>');
    expect(page.text).toMatch(/<td>admin<\/td>\s*<td><time/);
    expect(page.text).not.toContain(token);
  });

  it('asks for at least one role', async () => {
    const answer = await invite([]);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Choose at least one role.');
  });

  it('never invites an operator', async () => {
    const answer = await invite(['provider', 'operator']);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Roles must be among provider, reviewer, admin.');
    expect(answer.text).toMatch(/id="role-provider"[^>]*checked/);
  });

  it('refuses an invitation form sent without its CSRF token', async () => {
    const answer = await invite(['provider'], { cookie: admin.cookie, csrf: 'not-the-token' });
    expect(answer.status).toBe(403);
  });

  it('records the invitation in the audit trail with its roles and the admin as actor', async () => {
    await invite(['reviewer']);
    const [event] = await testApp.db.query<{ actor_type: string; details: { roles: string[] } }>(
      `SELECT actor_type, details FROM audit_events WHERE action = 'user.invited' AND account_id = $1
       ORDER BY occurred_at DESC, id DESC LIMIT 1`,
      [account.accountId],
    );
    expect(event).toEqual({ actor_type: 'user', details: { roles: ['reviewer'] } });
  });
});
