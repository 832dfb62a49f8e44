import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../src/console/console-edge';
import {
  cookiesFrom,
  createConsolePerson,
  csrfTokenOf,
  signInWithPassword,
} from '../support/console-session';
import { startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('signing in to the console', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('Clinic Console');
  });
  afterAll(() => testApp.close());

  it('serves the sign-in page under a strict Content-Security-Policy, never cached', async () => {
    const page = await testApp.http().get('/console/sign-in');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<label for="email">Email</label>');
  });

  it('signs a provider in with a session cookie that scripts cannot read and other sites cannot send', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const form = await testApp.http().get('/console/sign-in');
    const cookie = cookiesFrom(form.headers['set-cookie']);
    const answer = await testApp
      .http()
      .post('/console/sign-in')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfTokenOf(form.text), email: person.email.toUpperCase(), password: person.password });
    expect(answer.status).toBe(303);
    const session = ([answer.headers['set-cookie']] as unknown as string[][])
      .flat()
      .find((line) => line.startsWith('haa_console_session='));
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Strict/);
  });

  it('refuses a wrong password without saying whether the email exists', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const form = await testApp.http().get('/console/sign-in');
    const send = (email: string) =>
      testApp
        .http()
        .post('/console/sign-in')
        .set('Cookie', cookiesFrom(form.headers['set-cookie']))
        .type('form')
        .send({ _csrf: csrfTokenOf(form.text), email, password: 'not the password at all' });
    const wrongPassword = await send(person.email);
    const unknownEmail = await send('nobody@clinic.example');
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.text).toContain('That email and password do not match an active user.');
    expect(unknownEmail.text).toContain('That email and password do not match an active user.');
  });

  it('refuses a form sent without its CSRF token', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const answer = await testApp
      .http()
      .post('/console/sign-in')
      .type('form')
      .send({ email: person.email, password: person.password });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('This form is out of date or came from another site.');
  });

  it('refuses a form posted from another origin even with a valid token', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const browser = await signInWithPassword(testApp, person);
    const answer = await testApp
      .http()
      .post('/console/sign-out')
      .set('Cookie', browser.cookie)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ _csrf: browser.csrf });
    expect(answer.status).toBe(403);
  });

  it('sends a browser without a session to sign in, and back to the page it asked for', async () => {
    const answer = await testApp.http().get('/console/account');
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Faccount');
  });

  it('never takes an API key as a console credential', async () => {
    const answer = await testApp
      .http()
      .get('/console/account')
      .set('Authorization', `Bearer ${account.keys.admin}`);
    expect(answer.status).toBe(303);
  });

  it('opens the account page to a signed-in provider', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const browser = await signInWithPassword(testApp, person);
    const page = await testApp.http().get('/console/account').set('Cookie', browser.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Clinic Console');
  });

  it('never takes an API key as a console credential, however the path is spelled', async () => {
    const page = await testApp
      .http()
      .get('/CONSOLE/account')
      .set('Authorization', `Bearer ${account.keys.admin}`);
    expect(page.status).toBe(303);
    const creation = await testApp
      .http()
      .post('/Console/api-keys')
      .set('Authorization', `Bearer ${account.keys.admin}`)
      .send({ label: 'through the console', roles: ['provider'] });
    expect(creation.status).toBe(403);
    expect((await testApp.accounts.listApiKeys(account.accountId)).map((key) => key.label)).not.toContain(
      'through the console',
    );
  });

  it('answers a missing console asset with a 404 page', async () => {
    const answer = await testApp.http().get('/console/assets/missing.css');
    expect(answer.status).toBe(404);
  });

  it('refuses a form with more fields than any console form has', async () => {
    const form = await testApp.http().get('/console/sign-in');
    const fields = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`field${index}`, 'x']));
    const answer = await testApp
      .http()
      .post('/console/sign-in')
      .set('Cookie', cookiesFrom(form.headers['set-cookie']))
      .type('form')
      .send({ _csrf: csrfTokenOf(form.text), ...fields });
    expect(answer.status).toBe(413);
  });

  it('ends the session on sign-out, so its cookie opens nothing afterwards', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const browser = await signInWithPassword(testApp, person);
    await testApp
      .http()
      .post('/console/sign-out')
      .set('Cookie', browser.cookie)
      .type('form')
      .send({ _csrf: browser.csrf });
    const answer = await testApp.http().get('/console/account').set('Cookie', browser.cookie);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toMatch(/^\/console\/sign-in/);
  });

  it('keeps the console out of the public API document', async () => {
    const document = await testApp.http().get('/openapi.json');
    expect(Object.keys(document.body.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
  });
});
