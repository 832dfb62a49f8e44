import { randomBytes } from 'node:crypto';

import type { Role } from '../../src/auth/roles';
import { ConsoleUsersRepository } from '../../src/console/people/console-users.repository';
import type { TestApp } from './test-app';

export interface ConsolePerson {
  userId: string;
  email: string;
  password: string;
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
export function csrfTokenOf(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error('The page has no form with a CSRF token');
  return token;
}

export interface ConsoleBrowser {
  cookie: string;
  csrf: string;
}

/** Signs in through the sign-in form, as a browser would, and returns what the next requests send. */
export async function signInWithPassword(testApp: TestApp, person: ConsolePerson): Promise<ConsoleBrowser> {
  const form = await testApp.http().get('/console/sign-in');
  let cookie = cookiesFrom(form.headers['set-cookie']);
  const answer = await testApp
    .http()
    .post('/console/sign-in')
    .set('Cookie', cookie)
    .type('form')
    .send({
      _csrf: csrfTokenOf(form.text),
      email: person.email,
      password: person.password,
      next: '/console',
    });
  if (answer.status !== 303) throw new Error(`Sign-in answered ${answer.status}`);
  cookie = cookiesFrom(answer.headers['set-cookie'], cookie);
  const page = await testApp.http().get('/console/sign-in').set('Cookie', cookie);
  return { cookie, csrf: csrfTokenOf(page.text) };
}
