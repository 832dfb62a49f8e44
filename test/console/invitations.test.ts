import { randomBytes } from 'node:crypto';

import {
  ConsoleBrowser,
  cookiesFrom,
  createConsolePerson,
  csrfTokenOf,
  signIn,
} from '../support/console-session';
import { startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('invitations to join an account', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('Inviting Clinic');
    admin = await signIn(testApp, await createConsolePerson(testApp, account.accountId, ['admin']));
  });
  afterAll(() => testApp.close());

  /** The path of a new invitation's link, as the admin's answer page shows it. */
  async function invitationPath(roles: string[]): Promise<string> {
    const answer = await testApp
      .http()
      .post('/console/people/invitations')
      .set('Cookie', admin.cookie)
      .type('form')
      .send(`_csrf=${encodeURIComponent(admin.csrf)}&${roles.map((role) => `roles=${role}`).join('&')}`);
    const link = /id="invitation-link">\s*([^<\s]+)\s*</.exec(answer.text)?.[1];
    if (!link) throw new Error(`The invitation answer (${answer.status}) shows no link`);
    return new URL(link).pathname;
  }

  function newPerson() {
    return {
      display_name: 'Dana Reviewer',
      email: `invited-${randomBytes(6).toString('hex')}@clinic.example`,
      password: 'a long enough passphrase',
    };
  }

  async function accept(
    path: string,
    person: Record<string, string>,
    overrides: Record<string, string> = {},
  ) {
    // The sign-in page sets the same double-submit cookie, and stays readable when the link is not.
    const form = await testApp.http().get('/console/sign-in');
    return testApp
      .http()
      .post(path)
      .set('Cookie', cookiesFrom(form.headers['set-cookie']))
      .type('form')
      .send({ _csrf: csrfTokenOf(form.text), password_again: person.password, ...person, ...overrides });
  }

  it('asks the invited person for a name, an email and a password twice', async () => {
    const page = await testApp.http().get(await invitationPath(['provider']));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Join your team</h1>');
    for (const label of ['Your name', 'Email', 'Password', 'Password again']) {
      expect(page.text).toMatch(new RegExp(`<label for="[a-z_]+">${label}</label>`));
    }
  });

  it('creates a user with the invitation’s roles, who then signs in', async () => {
    const path = await invitationPath(['reviewer']);
    const person = newPerson();
    const answer = await accept(path, person);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/console/sign-in?done=invitation-accepted');
    const signInPage = await testApp.http().get(answer.headers.location as string);
    expect(signInPage.text).toContain('Your user is ready.');

    const [user] = await testApp.db.query<{ id: string; account_id: string; roles: string[] }>(
      'SELECT id, account_id, roles FROM console_users WHERE email = $1',
      [person.email],
    );
    expect(user).toMatchObject({ account_id: account.accountId, roles: ['reviewer'] });
    const browser = await signIn(testApp, {
      userId: user!.id,
      email: person.email,
      password: person.password,
    });
    const accountPage = await testApp.http().get('/console/account').set('Cookie', browser.cookie);
    expect(accountPage.text).toContain('Inviting Clinic');
  });

  it('works once: a used link shows that it is no longer valid', async () => {
    const path = await invitationPath(['provider']);
    expect((await accept(path, newPerson())).status).toBe(303);
    const again = await testApp.http().get(path);
    expect(again.status).toBe(410);
    expect(again.text).toContain('This invitation link has expired or was already used.');
  });

  it('lets one of two people racing with one link in, and tells the other it is used', async () => {
    const path = await invitationPath(['provider']);
    const [first, second] = await Promise.all([accept(path, newPerson()), accept(path, newPerson())]);
    expect([first.status, second.status].sort()).toEqual([303, 410]);
  });

  it('shows an expired link as no longer valid', async () => {
    const path = await invitationPath(['provider']);
    await testApp.db.query(
      `UPDATE console_invitations SET expires_at = now() - interval '1 minute'
       WHERE id = (SELECT id FROM console_invitations ORDER BY created_at DESC, id DESC LIMIT 1)`,
    );
    const page = await testApp.http().get(path);
    expect(page.status).toBe(410);
    expect((await accept(path, newPerson())).status).toBe(410);
  });

  it('answers 404 for a link that was never issued', async () => {
    const page = await testApp.http().get(`/console/invitations/${randomBytes(32).toString('base64url')}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('This invitation link is not valid.');
  });

  it('refuses a short password and different passwords, keeping the name and email', async () => {
    const path = await invitationPath(['provider']);
    const person = newPerson();
    const answer = await accept(path, person, { password: 'short', password_again: 'different' });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Use at least 12 characters.');
    expect(answer.text).toContain('The two passwords differ.');
    expect(answer.text).toContain(`value="${person.email}"`);
    expect(answer.text).toContain('value="Dana Reviewer"');
    expect((await accept(path, person)).status).toBe(303);
  });

  it('refuses an email that already signs in, and keeps the link usable', async () => {
    const path = await invitationPath(['provider']);
    const existing = await createConsolePerson(testApp, account.accountId, ['provider']);
    const answer = await accept(path, newPerson(), { email: existing.email.toUpperCase() });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('That email already signs in to the console');
    expect((await testApp.http().get(path)).status).toBe(200);
  });

  it('throttles a link tried again and again with emails that already sign in', async () => {
    const path = await invitationPath(['provider']);
    const existing = await createConsolePerson(testApp, account.accountId, ['provider']);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await accept(path, newPerson(), { email: existing.email })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('refuses an acceptance sent without the form’s CSRF token', async () => {
    const path = await invitationPath(['provider']);
    const answer = await testApp.http().post(path).type('form').send(newPerson());
    expect(answer.status).toBe(403);
    expect((await testApp.http().get(path)).status).toBe(200);
  });

  it('records the new user in the audit trail by id and roles, without their email or name', async () => {
    const person = newPerson();
    await accept(await invitationPath(['provider']), person);
    const [event] = await testApp.db.query<{ actor_type: string; details: Record<string, unknown> }>(
      `SELECT actor_type, details FROM audit_events WHERE action = 'user.created' AND account_id = $1
       ORDER BY occurred_at DESC, id DESC LIMIT 1`,
      [account.accountId],
    );
    expect(event?.actor_type).toBe('user');
    expect(event?.details.roles).toEqual(['provider']);
    expect(JSON.stringify(event)).not.toContain(person.email);
    expect(JSON.stringify(event)).not.toContain(person.display_name);
  });
});
