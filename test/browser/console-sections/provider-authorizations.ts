import type { Browser, BrowserContext, Page } from 'playwright-core';

import { SecretBox } from '../../../infrastructure/crypto/aes-gcm';
import { MailOutboxRepository } from '../../../infrastructure/mail/mail-outbox.repository';
import { accessibilityViolations, Screenshots, watchForProblems } from '../../support/browser';
import type { ConsoleInBrowser } from '../../support/console-in-browser';
import { eventually, TestApp } from '../../support/test-app';

/** Its app's public address is https://api.clinic.example (PUBLIC_API_URL), which signing links name. */
export const describeProviderAuthorizations = (shared: ConsoleInBrowser) =>
  describe('prescribers’ authorizations in a browser', () => {
    let testApp: TestApp;
    let browser: Browser;
    let baseUrl: string;
    let accountId: string;
    const screenshots = new Screenshots('provider-authorizations');

    beforeAll(async () => {
      ({ testApp, browser, baseUrl } = shared);
      accountId = (await testApp.createAccount('Harbor Infusion Center')).accountId;
    });

    const consolePage = (): Promise<{ page: Page; context: BrowserContext }> =>
      shared.signedInPage(accountId, ['provider']);

    /** The signing link's path, as the prescriber's mail holds it. */
    const signingPath = () =>
      eventually(async () => {
        const outbox = new MailOutboxRepository(testApp.db, new SecretBox(testApp.config.encryption!));
        const { messages } = await outbox.list(accountId, { livemode: false, limit: 10 });
        const mail = messages.find((message) => message.purpose === 'provider_authorization.signing_link');
        return mail && /https:\/\/api\.clinic\.example(\/\S+)/.exec(mail.text)?.[1];
      });

    it('starts an authorization from the console, is signed without JavaScript, and is revoked, accessibly', async () => {
      const { page, context } = await consolePage();
      const problems = watchForProblems(page);
      await page.goto(`${baseUrl}/console/providers`);
      await expect(page.locator('main').textContent()).resolves.toContain(
        'benefit verifications and prior authorizations are accepted whether or not',
      );
      await expect(accessibilityViolations(page)).resolves.toEqual([]);

      await page.getByLabel('NPI').fill('1234567893');
      await page.getByLabel('First name').fill('Amadou');
      await page.getByLabel('Last name').fill('Smith');
      await page.getByLabel('Email').fill('amadou@practice.example');
      await page.getByRole('button', { name: 'Send the signing link' }).click();
      await page.waitForLoadState();
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'does not match the NPI registry',
      );
      await expect(accessibilityViolations(page)).resolves.toEqual([]);

      await page.getByLabel('Last name').fill('Reviewsworth');
      await page.getByRole('button', { name: 'Send the signing link' }).click();
      await page.waitForLoadState();
      await expect(page.getByRole('status').textContent()).resolves.toContain('The signing link was sent');
      const table = page.getByRole('table', { name: /Prescribers' authorizations/ });
      await expect(table.getByRole('row').nth(1).textContent()).resolves.toContain('pending');
      await screenshots.take(page, 'authorizations-pending');

      // Axe runs as a script, so the pages are checked in a browser with JavaScript; the prescriber signs in one without.
      const link = `${baseUrl}${await signingPath()}`;
      const reader = await browser.newContext();
      const reading = await reader.newPage();
      const readingProblems = watchForProblems(reading);
      await reading.goto(link);
      await expect(reading.locator('main').textContent()).resolves.toContain('Harbor Infusion Center');
      await expect(accessibilityViolations(reading)).resolves.toEqual([]);
      await screenshots.take(reading, 'signing-page');
      expect(readingProblems).toEqual([]);

      const prescriber = await browser.newContext({ javaScriptEnabled: false });
      const signing = await prescriber.newPage();
      await signing.goto(link);
      await signing.getByLabel('Your full name').fill('Amadou Reviewsworth');
      await signing.getByLabel('I have read the authorization above and I agree to it.').check();
      await signing.getByRole('button', { name: 'Sign the authorization' }).click();
      await signing.waitForLoadState();
      await expect(signing.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Authorization signed',
      );
      await screenshots.take(signing, 'signed');
      await prescriber.close();

      const used = await reading.goto(link);
      expect(used?.status()).toBe(410);
      await expect(accessibilityViolations(reading)).resolves.toEqual([]);
      await reader.close();

      await page.reload();
      await expect(table.getByRole('row').nth(1).textContent()).resolves.toContain('signed');
      page.once('dialog', (dialog) => void dialog.accept());
      await table.getByRole('button', { name: /Revoke Amadou Reviewsworth/ }).click();
      await page.waitForURL(/done=revoked/);
      await expect(table.getByRole('row').nth(1).textContent()).resolves.toContain('revoked');
      await screenshots.take(page, 'authorizations-revoked');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      // The refused form's page answers 400, which Chromium reports as a failed load; nothing else may go wrong.
      expect(problems.filter((problem) => !/status of 400/.test(problem))).toEqual([]);
      await context.close();
    });
  });
