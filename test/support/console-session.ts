import { randomBytes } from 'node:crypto';

import type { Role } from '../../domain/accounts/roles';
import { ConsoleUsersRepository } from '../../infrastructure/console/console-users.repository';
import { totpCode } from '../../src/console/people/totp';
import type { TestApp } from './test-app';

export interface ConsolePerson {
  userId: string;
  email: string;
  password: string;
  /** The authenticator secret, once `signIn` has set up the second factor. */
  totpSecret?: string;
}

/** A console user of the account with these roles and a random password, as the admin CLI makes one. */
export async function createConsolePerson(
  testApp: TestApp,
  accountId: string,
  roles: Role[],
): Promise<ConsolePerson> {
  const email = `person-${randomBytes(6).toString('hex')}@clinic.example`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const user = await new ConsoleUsersRepository(testApp.db).create({
    accountId,
    email,
    displayName: 'Test Person',
    roles,
    password,
  });
  return { userId: user.id, email, password };
}

/** The cookies a response set, as one Cookie header value (name=value pairs only). */
export function cookiesFrom(setCookie: string[] | string | undefined, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => pair.split('=', 2) as [string, string]),
  );
  for (const line of [setCookie ?? []].flat()) {
    const [pair] = line.split(';');
    const [name, value] = pair!.split('=', 2) as [string, string];
    if (value === '') jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** The CSRF token a console page's forms carry. */
/** The hidden fields of a page's forms, as a browser sends them with the form they are in. */
export function hiddenFieldsOf(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[name] = value;
  }
  return fields;
}

export function csrfTokenOf(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error('The page has no form with a CSRF token');
  return token;
}

export interface ConsoleBrowser {
  cookie: string;
  csrf: string;
}

/**
 * Sends the sign-in form with the person's password, as a browser would after loading it: the
 * answer, and the browser's cookies afterwards.
 */
export async function sendPassword(testApp: TestApp, person: ConsolePerson, next = '/console') {
  const form = await testApp.http().get('/console/sign-in');
  const formCookie = cookiesFrom(form.headers['set-cookie']);
  const answer = await testApp
    .http()
    .post('/console/sign-in')
    .set('Cookie', formCookie)
    .type('form')
    .send({ _csrf: csrfTokenOf(form.text), email: person.email, password: person.password, next });
  return { answer, cookie: cookiesFrom(answer.headers['set-cookie'], formCookie) };
}

/** Signs in through the sign-in form, as a browser would, and returns what the next requests send. */
export async function signInWithPassword(testApp: TestApp, person: ConsolePerson): Promise<ConsoleBrowser> {
  const { answer, cookie } = await sendPassword(testApp, person);
  if (answer.status !== 303) throw new Error(`Sign-in answered ${answer.status}`);
  const page = await testApp.http().get('/console/sign-in').set('Cookie', cookie);
  return { cookie, csrf: csrfTokenOf(page.text) };
}

/** The set-up key a second-factor set-up page shows for manual entry. */
export function totpSecretOf(page: string): string {
  const secret = /id="totp-secret">\s*([A-Z2-7]+)\s*</.exec(page)?.[1];
  if (!secret) throw new Error('The page offers no authenticator set-up key');
  return secret;
}

/** The code an authenticator app would show now, or `stepsAhead` 30-second steps later. */
export function currentTotpCode(secret: string, stepsAhead = 0): string {
  return totpCode(secret, Date.now() + stepsAhead * 30_000);
}

/**
 * Signs in all the way, as a person with an authenticator app would: password, then the second
 * factor if asked, setting it up the first time (the secret is kept on `person` for the next time).
 * A code already used in this 30-second step is refused, so the next step's code is tried too.
 */
export async function signIn(testApp: TestApp, person: ConsolePerson): Promise<ConsoleBrowser> {
  const { answer, cookie } = await sendPassword(testApp, person);
  if (answer.status !== 303) throw new Error(`Sign-in answered ${answer.status}`);
  if (String(answer.headers.location).startsWith('/console/sign-in/second-factor')) {
    const step = await testApp.http().get('/console/sign-in/second-factor').set('Cookie', cookie);
    if (step.text.includes('id="totp-secret"')) person.totpSecret = totpSecretOf(step.text);
    if (!person.totpSecret) throw new Error('The person has a second factor this helper did not set up');
    let accepted = false;
    for (const stepsAhead of [0, 1]) {
      const checked = await testApp
        .http()
        .post('/console/sign-in/second-factor')
        .set('Cookie', cookie)
        .type('form')
        .send({
          _csrf: csrfTokenOf(step.text),
          code: currentTotpCode(person.totpSecret, stepsAhead),
          next: '/console',
        });
      accepted = checked.status === 303;
      if (accepted) break;
    }
    if (!accepted) throw new Error('The second factor refused the current codes');
  }
  const page = await testApp.http().get('/console/account').set('Cookie', cookie);
  if (page.status !== 200) throw new Error(`The account page answered ${page.status} after sign-in`);
  return { cookie, csrf: csrfTokenOf(page.text) };
}
