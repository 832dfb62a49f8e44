import type { Browser, BrowserContext, Page } from 'playwright-core';

import type { Role } from '../../domain/accounts/roles';
import { launchChromium, serveOverHttp } from './browser';
import { consoleBrowserWithRoles } from './console-admin';
import { startTestApp, TestApp } from './test-app';
import type { TestWorker } from './workers';

/**
 * One app with a worker, served over HTTP, and one Chromium, shared by the console's browser suites
 * of one test file: each boot costs seconds, and each suite keeps to accounts of its own.
 */
export interface ConsoleInBrowser {
  testApp: TestApp;
  baseUrl: string;
  browser: Browser;
  /** A new browser signed in as a new person of the account with these roles, the cookie as sign-in leaves it. */
  signedInPage(accountId: string, roles: Role[]): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * Starts the shared app and browser before the file's suites and stops them after; the answer is
 * filled in once they run, so suites read it in their own hooks and tests.
 */
export function shareConsoleInBrowser(env: Record<string, string> = {}): ConsoleInBrowser {
  let worker: TestWorker | undefined;
  const shared = {
    async signedInPage(accountId: string, roles: Role[]) {
      const person = await consoleBrowserWithRoles(shared.testApp, accountId, roles);
      const context = await shared.browser.newContext();
      await context.addCookies(
        person.cookie.split('; ').map((pair) => {
          const [name, value] = pair.split('=', 2) as [string, string];
          return { name, value, url: shared.baseUrl };
        }),
      );
      return { context, page: await context.newPage() };
    },
  } as ConsoleInBrowser;
  beforeAll(async () => {
    shared.testApp = await startTestApp(env);
    worker = await shared.testApp.startWorker();
    shared.baseUrl = await serveOverHttp(shared.testApp);
    shared.browser = await launchChromium();
  });
  afterAll(async () => {
    await shared.browser?.close();
    await worker?.stop();
    await shared.testApp?.close();
  });
  return shared;
}

/**
 * Starts preparing something as the describe it is called in starts (the file's, after
 * shareConsoleInBrowser), not when the test that needs it does, and answers it to whoever awaits it: a
 * case driven by its workflow to the state a suite needs gets there while the tests before it run.
 */
export function preparedBeforeAll<T>(prepare: () => Promise<T>): () => Promise<T> {
  let prepared: Promise<T> | undefined;
  beforeAll(() => {
    prepared = prepare();
    // Awaited by the suite that needs it, which fails with this error; not an unhandled rejection meanwhile.
    prepared.catch(() => undefined);
  });
  return () => prepared!;
}
