import type { Role } from '../../domain/accounts/roles';
import { ConsoleSessionsRepository } from '../../infrastructure/console/console-sessions.repository';
import { ConsoleBrowser, cookiesFrom, createConsolePerson, csrfTokenOf } from './console-session';
import type { TestApp } from './test-app';

/**
 * A browser signed in as a new person with these roles. Admins need a second factor to finish
 * signing in, so the session starts signed in directly, as the second-factor page leaves it.
 */
export async function consoleBrowserWithRoles(
  testApp: TestApp,
  accountId: string,
  roles: Role[],
): Promise<ConsoleBrowser> {
  const person = await createConsolePerson(testApp, accountId, roles);
  const { token } = await new ConsoleSessionsRepository(testApp.db).start(
    { id: person.userId, account_id: accountId },
    'signed_in',
  );
  const cookie = cookiesFrom(`haa_console_session=${token}`);
  const page = await testApp.http().get('/console/account').set('Cookie', cookie);
  return { cookie, csrf: csrfTokenOf(page.text) };
}

/** Posts a console form as the browser does: its cookie, its CSRF token and the fields. */
export function postForm(
  testApp: TestApp,
  browser: ConsoleBrowser,
  path: string,
  fields: Record<string, string | string[]> = {},
) {
  return testApp
    .http()
    .post(path)
    .set('Cookie', browser.cookie)
    .type('form')
    .send(new URLSearchParams(formPairs({ _csrf: browser.csrf, ...fields })).toString());
}

export function getPage(testApp: TestApp, browser: ConsoleBrowser, path: string) {
  return testApp.http().get(path).set('Cookie', browser.cookie);
}

function formPairs(fields: Record<string, string | string[]>): [string, string][] {
  return Object.entries(fields).flatMap(([name, value]) =>
    [value].flat().map((item): [string, string] => [name, item]),
  );
}
