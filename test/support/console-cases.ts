import { randomBytes } from 'node:crypto';

import type { Role } from '../../domain/accounts/roles';
import { ConsoleSessionsRepository } from '../../infrastructure/console/console-sessions.repository';
import { ConsoleUsersRepository } from '../../infrastructure/console/console-users.repository';
import type { JsonObject } from './case-journeys';
import { ConsoleBrowser, csrfTokenOf } from './console-session';
import { bearer, TestApp } from './test-app';

/**
 * A person of the account signed in to the console, whatever their roles. Reviewers and admins
 * finish sign-in with a second factor, so the session is started as signed in directly, as that
 * step leaves it.
 */
export async function signedInPerson(
  testApp: TestApp,
  accountId: string,
  roles: Role[],
  displayName = 'Test Reviewer',
): Promise<ConsoleBrowser> {
  const user = await new ConsoleUsersRepository(testApp.db).create({
    accountId,
    email: `person-${randomBytes(6).toString('hex')}@clinic.example`,
    displayName,
    roles,
    password: `pw-${randomBytes(12).toString('base64url')}`,
  });
  const { token } = await new ConsoleSessionsRepository(testApp.db).start(user, 'signed_in');
  const cookie = `haa_console_session=${token}`;
  const page = await testApp.http().get('/console/account').set('Cookie', cookie);
  return { cookie, csrf: csrfTokenOf(page.text) };
}

export function consoleGet(testApp: TestApp, browser: ConsoleBrowser, path: string) {
  return testApp.http().get(path).set('Cookie', browser.cookie);
}

export function consolePost(
  testApp: TestApp,
  browser: ConsoleBrowser,
  path: string,
  form: Record<string, string | number>,
) {
  return testApp
    .http()
    .post(path)
    .set('Cookie', browser.cookie)
    .type('form')
    .send({ _csrf: browser.csrf, ...form });
}

/** Submits a case through the API, as a provider's system does. */
export async function submitCase(
  testApp: TestApp,
  providerKey: string,
  apiPath: string,
  body: object,
): Promise<JsonObject> {
  const response = await testApp.http().post(apiPath).set(bearer(providerKey)).send(body);
  if (response.status !== 201) throw new Error(`Submitting the case answered ${response.status}`);
  return response.body.data as JsonObject;
}

/** The statuses a case page's timeline lists, in its order. */
export function timelineOf(page: string): string[] {
  const timeline = /<ol class="timeline">([\s\S]*?)<\/ol>/.exec(page)?.[1] ?? '';
  return [...timeline.matchAll(/<span class="badge[^"]*">([^<]+)<\/span>/g)].map((match) =>
    match[1]!.trim().replace(/ /g, '_'),
  );
}

/** The case ids a list page's table links to, in its order. */
export function caseIdsOf(page: string): string[] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return [
    ...new Set([...body.matchAll(/<a href="\/console\/[a-z-]+\/([a-z]+_[0-9a-z]+)"/g)].map((m) => m[1]!)),
  ];
}
