import {
  ConsolePerson,
  cookiesFrom,
  createConsolePerson,
  csrfTokenOf,
  currentTotpCode,
  sendPassword,
  signIn,
  signInWithPassword,
  totpSecretOf,
} from '../support/console-session';
import { startTestApp, TestAccount, TestApp } from '../support/test-app';

const SECOND_FACTOR = '/console/sign-in/second-factor';
const WRONG_CODE = 'That code is not right, or it was already used.';

describe('the second factor at console sign-in', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('Second Factor Clinic');
  });
  afterAll(() => testApp.close());

  /** Password only: the browser's cookie and the second-factor page it was sent to. */
  async function passwordStep(
    person: ConsolePerson,
  ): Promise<{ cookie: string; page: string; csrf: string }> {
    const { answer, cookie } = await sendPassword(testApp, person, '/console/people');
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${SECOND_FACTOR}?next=%2Fconsole%2Fpeople`);
    const page = await testApp
      .http()
      .get(answer.headers.location as string)
      .set('Cookie', cookie);
    expect(page.status).toBe(200);
    return { cookie, page: page.text, csrf: csrfTokenOf(page.text) };
  }

  function sendCode(browser: { cookie: string; csrf: string }, code: string, next = '/console/people') {
    return testApp
      .http()
      .post(SECOND_FACTOR)
      .set('Cookie', browser.cookie)
      .type('form')
      .send({ _csrf: browser.csrf, code, next });
  }

  it('sends an admin without a second factor from admin pages to set it up, and back afterwards', async () => {
    const admin = await createConsolePerson(testApp, account.accountId, ['admin']);
    const browser = await passwordStep(admin);
    const people = await testApp.http().get('/console/people').set('Cookie', browser.cookie);
    expect(people.status).toBe(303);
    expect(people.headers.location).toBe(`${SECOND_FACTOR}?next=%2Fconsole%2Fpeople`);
  });

  it('shows an admin the set-up with a QR code and a key to type, and signs them in with a code from it', async () => {
    const admin = await createConsolePerson(testApp, account.accountId, ['admin']);
    const browser = await passwordStep(admin);
    expect(browser.page).toContain('<h1>Set up two-step sign-in</h1>');
    expect(browser.page).toMatch(/<figure class="qr">[\s\S]*<svg/);
    expect(browser.page).toContain('<label for="code">Authentication code</label>');
    const answer = await sendCode(browser, currentTotpCode(totpSecretOf(browser.page)));
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/console/people');
    const people = await testApp.http().get('/console/people').set('Cookie', browser.cookie);
    expect(people.status).toBe(200);
  });

  it('offers the same key when the set-up page is opened again, so either copy confirms it', async () => {
    const reviewer = await createConsolePerson(testApp, account.accountId, ['reviewer']);
    const browser = await passwordStep(reviewer);
    const again = await testApp.http().get(SECOND_FACTOR).set('Cookie', browser.cookie);
    expect(totpSecretOf(again.text)).toBe(totpSecretOf(browser.page));
  });

  it('refuses a wrong code at set-up and leaves the person signed out of their sections', async () => {
    const reviewer = await createConsolePerson(testApp, account.accountId, ['reviewer']);
    const browser = await passwordStep(reviewer);
    const secret = totpSecretOf(browser.page);
    const rightCodes = [-1, 0, 1].map((steps) => currentTotpCode(secret, steps));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !rightCodes.includes(code))!;
    const answer = await sendCode(browser, wrong);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(WRONG_CODE);
    const accountPage = await testApp.http().get('/console/account').set('Cookie', browser.cookie);
    expect(accountPage.status).toBe(303);
  });

  it('asks a person who set it up for the code at the next sign-in, and accepts the right one', async () => {
    const admin = await createConsolePerson(testApp, account.accountId, ['admin']);
    await signIn(testApp, admin);
    const browser = await passwordStep(admin);
    expect(browser.page).toContain('<h1>Two-step sign-in</h1>');
    expect(browser.page).not.toContain('totp-secret');
    const answer = await sendCode(browser, currentTotpCode(admin.totpSecret!, 1));
    expect(answer.status).toBe(303);
    const people = await testApp.http().get('/console/people').set('Cookie', browser.cookie);
    expect(people.status).toBe(200);
  });

  it('refuses a code that already signed someone in', async () => {
    const admin = await createConsolePerson(testApp, account.accountId, ['admin']);
    await signIn(testApp, admin);
    const code = currentTotpCode(admin.totpSecret!, 1);
    const first = await passwordStep(admin);
    expect((await sendCode(first, code)).status).toBe(303);
    const second = await passwordStep(admin);
    const replay = await sendCode(second, code);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain(WRONG_CODE);
  });

  it('lets a provider turn on two-step sign-in from the account page, and asks for a code from then on', async () => {
    const provider = await createConsolePerson(testApp, account.accountId, ['provider']);
    const browser = await signInWithPassword(testApp, provider);
    const accountPage = await testApp.http().get('/console/account').set('Cookie', browser.cookie);
    expect(accountPage.text).toContain('Turn on two-step sign-in');
    const setUp = await testApp.http().get('/console/account/two-step').set('Cookie', browser.cookie);
    expect(setUp.status).toBe(200);
    const turnedOn = await testApp
      .http()
      .post('/console/account/two-step')
      .set('Cookie', browser.cookie)
      .type('form')
      .send({ _csrf: browser.csrf, code: currentTotpCode(totpSecretOf(setUp.text)) });
    expect(turnedOn.status).toBe(303);
    const after = await testApp
      .http()
      .get(turnedOn.headers.location as string)
      .set('Cookie', browser.cookie);
    expect(after.text).toContain('Two-step sign-in is on.');

    const form = await testApp.http().get('/console/sign-in');
    const next = await testApp
      .http()
      .post('/console/sign-in')
      .set('Cookie', cookiesFrom(form.headers['set-cookie']))
      .type('form')
      .send({ _csrf: csrfTokenOf(form.text), email: provider.email, password: provider.password });
    expect(next.headers.location).toMatch(/^\/console\/sign-in\/second-factor/);
  });

  it('sends a browser that has not given its password to sign in first', async () => {
    const answer = await testApp.http().get(`${SECOND_FACTOR}?next=%2Fconsole%2Fpeople`);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fpeople');
  });

  it('refuses a code sent without the form’s CSRF token', async () => {
    const admin = await createConsolePerson(testApp, account.accountId, ['admin']);
    const browser = await passwordStep(admin);
    const answer = await sendCode({ cookie: browser.cookie, csrf: 'not-the-token' }, '123456');
    expect(answer.status).toBe(403);
  });

  it('records the sign-in in the audit trail with the person as actor, and no email', async () => {
    const admin = await createConsolePerson(testApp, account.accountId, ['admin']);
    await signIn(testApp, admin);
    const events = await testApp.db.query<{
      action: string;
      actor_type: string;
      actor_id: string;
      details: unknown;
    }>(
      `SELECT action, actor_type, actor_id, details FROM audit_events WHERE target_id = $1 ORDER BY occurred_at, id`,
      [admin.userId],
    );
    // Both land within a millisecond or two, and ids of one millisecond do not sort by creation.
    expect(events.map((event) => event.action).sort()).toEqual([
      'user.second_factor_enabled',
      'user.signed_in',
    ]);
    expect(events.every((event) => event.actor_type === 'user' && event.actor_id === admin.userId)).toBe(
      true,
    );
    expect(JSON.stringify(events)).not.toContain(admin.email);
  });
});
