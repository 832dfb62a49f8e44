import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Browser, Page } from 'playwright-core';

import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../../src/console/console-edge';
import { accessibilityViolations, Screenshots, watchForProblems } from '../../support/browser';
import type { ConsoleInBrowser } from '../../support/console-in-browser';
import { ConsolePerson, createConsolePerson } from '../../support/console-session';
import type { TestAccount, TestApp } from '../../support/test-app';

export const describeSecurity = (shared: ConsoleInBrowser) =>
  describe('the console in a real browser: sign-in, cookies, CSP and CSRF', () => {
    let testApp: TestApp;
    let baseUrl: string;
    let browser: Browser;
    let account: TestAccount;
    let provider: ConsolePerson;
    const screenshots = new Screenshots('security');

    beforeAll(async () => {
      ({ testApp, baseUrl, browser } = shared);
      account = await testApp.createAccount('Riverside Clinic');
      provider = await createConsolePerson(testApp, account.accountId, ['provider']);
    });

    async function signInByKeyboard(page: Page, person: ConsolePerson): Promise<void> {
      await page.goto(`${baseUrl}/console`);
      await page.getByLabel('Email').focus();
      await page.keyboard.type(person.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(person.password);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
    }

    it('signs a provider in with the keyboard alone, with nothing refused by the Content-Security-Policy', async () => {
      const page = await browser.newPage();
      const problems = watchForProblems(page);
      const answer = await page.goto(`${baseUrl}/console/sign-in`);
      expect(answer?.headers()['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
      await screenshots.take(page, 'sign-in');
      await signInByKeyboard(page, provider);
      await page.goto(`${baseUrl}/console/account`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your account');
      await screenshots.take(page, 'account');
      expect(problems).toEqual([]);
      await page.close();
    });

    it('labels the sign-in and account pages so a screen reader can use them', async () => {
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/console/sign-in`);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      await signInByKeyboard(page, provider);
      await page.goto(`${baseUrl}/console/account`);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      await page.close();
    });

    it('keeps the session in a cookie that scripts cannot read and other sites cannot send', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInByKeyboard(page, provider);
      const session = (await context.cookies()).find((cookie) => cookie.name === 'haa_console_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      await expect(
        page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
      ).resolves.not.toContain('haa_console_session');
      await context.close();
    });

    it('refuses a form another site makes the browser send', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInByKeyboard(page, provider);
      const attacker = await serveAttackerPage(`${baseUrl}/console/sign-out`);
      try {
        const refusal = page.waitForResponse((response) => response.url() === `${baseUrl}/console/sign-out`);
        await page.goto(attacker.url);
        expect((await refusal).status()).toBe(403);
        await expect(page.locator('main').textContent()).resolves.toContain(
          'This form is out of date or came from another site.',
        );
        await screenshots.take(page, 'csrf-refusal');
      } finally {
        attacker.server.close();
        await context.close();
      }
    });

    it('shows a provider that the review queue is for reviewers', async () => {
      const page = await browser.newPage();
      await signInByKeyboard(page, provider);
      const answer = await page.goto(`${baseUrl}/console/review-queue`);
      expect(answer?.status()).toBe(403);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Not allowed');
      await expect(
        page.getByRole('navigation', { name: 'Console sections' }).textContent(),
      ).resolves.not.toContain('Review queue');
      await page.close();
    });
  });

/** A page on another origin that posts a form to the console as soon as it loads. */
async function serveAttackerPage(target: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end(
      `<form id="f" method="post" action="${target}"><input name="_csrf" value="guess"></form>` +
        '<script>document.getElementById("f").submit()</script>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}/` };
}
