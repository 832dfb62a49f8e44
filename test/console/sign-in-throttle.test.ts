import { ADDRESS_ATTEMPTS, EMAIL_ATTEMPTS } from '../../src/console/people/sign-in-throttle';
import {
  ConsolePerson,
  cookiesFrom,
  createConsolePerson,
  csrfTokenOf,
  currentTotpCode,
  signIn,
  signInWithPassword,
} from '../support/console-session';
import { startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('throttling console sign-in attempts', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('Throttled Clinic');
  });
  afterAll(() => testApp.close());

  async function attempt(email: string, password: string) {
    const form = await testApp.http().get('/console/sign-in');
    return testApp
      .http()
      .post('/console/sign-in')
      .set('Cookie', cookiesFrom(form.headers['set-cookie']))
      .type('form')
      .send({ _csrf: csrfTokenOf(form.text), email, password });
  }

  it('throttles the sixth quick wrong password for one email, and then the right password too', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    for (let failure = 0; failure < EMAIL_ATTEMPTS.burst; failure += 1) {
      expect((await attempt(person.email, 'not the password at all')).status).toBe(401);
    }
    const sixth = await attempt(person.email.toUpperCase(), 'not the password at all');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.text).toContain('Too many sign-in attempts.');

    const right = await attempt(person.email, person.password);
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
  });

  it('counts only failures, so a person who signs in often is never throttled', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    for (let signIns = 0; signIns <= EMAIL_ATTEMPTS.burst; signIns += 1) {
      await signInWithPassword(testApp, person);
    }
    expect((await attempt(person.email, person.password)).status).toBe(303);
  });

  it('throttles wrong second-factor codes like wrong passwords', async () => {
    const admin: ConsolePerson = await createConsolePerson(testApp, account.accountId, ['admin']);
    await signIn(testApp, admin);
    const passwordStep = await attempt(admin.email, admin.password);
    const cookie = cookiesFrom(passwordStep.headers['set-cookie']);
    const page = await testApp.http().get('/console/sign-in/second-factor').set('Cookie', cookie);
    const rightCodes = [-1, 0, 1].map((steps) => currentTotpCode(admin.totpSecret!, steps));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !rightCodes.includes(code))!;
    const sendCode = () =>
      testApp
        .http()
        .post('/console/sign-in/second-factor')
        .set('Cookie', cookie)
        .type('form')
        .send({ _csrf: csrfTokenOf(page.text), code: wrong });
    for (let failure = 0; failure < EMAIL_ATTEMPTS.burst; failure += 1) {
      expect((await sendCode()).status).toBe(400);
    }
    const throttled = await sendCode();
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();
  });

  // Last: it spends this address's attempts, which every other test here shares.
  it('throttles one address that tries many emails', async () => {
    let throttled;
    for (let tries = 0; tries <= ADDRESS_ATTEMPTS.burst && !throttled; tries += 1) {
      const answer = await attempt(`nobody-${tries}@clinic.example`, 'not the password at all');
      if (answer.status === 429) throttled = answer;
      else expect(answer.status).toBe(401);
    }
    expect(throttled?.headers['retry-after']).toBeDefined();
  });
});
