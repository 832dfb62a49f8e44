import type { BrowserContext, Page } from 'playwright-core';

import { SecretBox } from '../../../infrastructure/crypto/aes-gcm';
import { accountMailer } from '../../../infrastructure/mail/account-mailer';
import { accessibilityViolations, Screenshots, watchForProblems } from '../../support/browser';
import { consoleBrowserWithRoles, getPage } from '../../support/console-admin';
import type { ConsoleInBrowser } from '../../support/console-in-browser';
import type { TestApp } from '../../support/test-app';

const SIGNING_LINK = 'https://api.clinic.example/provider-authorizations/sign/x9Qe2ZtT0bKc4LwU8sYd1A';

export const describeOutbox = (shared: ConsoleInBrowser) =>
  describe('the outbox page in a browser', () => {
    let testApp: TestApp;
    let baseUrl: string;
    let accountId: string;
    let context: BrowserContext;
    let page: Page;
    let problems: string[];
    const screenshots = new Screenshots('outbox');

    beforeAll(async () => {
      ({ testApp, baseUrl } = shared);
      accountId = (await testApp.createAccount('Harbor Infusion Center')).accountId;
      const mailer = accountMailer({
        config: testApp.config,
        db: testApp.db,
        secrets: new SecretBox(testApp.config.encryption!),
      });
      for (const [index, name] of ['Dr. Amara Okafor', 'Dr. Luis Rivera'].entries()) {
        await mailer.send({
          accountId,
          livemode: false,
          to: `prescriber${index}@practice.example`,
          subject: `${name}: authorize Harbor Infusion Center to act for you`,
          text: `Dear ${name},\n\nHarbor Infusion Center asks you to authorize it.\nReview and sign: ${SIGNING_LINK}\n\nThe link lapses in 14 days.`,
          purpose: 'provider_authorization.signing_link',
          objectId: `pvauth_01jdbrowser0000000000000${index}`,
          idempotencyKey: `browser-outbox-${index}`,
        });
      }
      // One admin's page for the suite, as a person keeps theirs: a new browser's first page costs most.
      ({ context, page } = await shared.signedInPage(accountId, ['admin']));
      problems = watchForProblems(page);
    });
    // Emptied after each test: a problem fails the test that raised it, not every one after it.
    afterEach(() => expect(problems.splice(0)).toEqual([]));
    afterAll(() => context.close());

    it('lists the test-mode mail and opens a message whose signing link is a link, accessibly', async () => {
      await page.goto(`${baseUrl}/console/providers/outbox`);
      const table = page.getByRole('table', { name: 'Mail sent in test mode' });
      await expect(table.getByRole('row').count()).resolves.toBe(3);
      await expect(table.getByRole('row').nth(1).textContent()).resolves.toContain('Dr. Luis Rivera');
      await screenshots.take(page, 'outbox-list');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);

      await page.getByRole('link', { name: /Dr\. Amara Okafor: authorize/ }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: /Dr\. Amara Okafor: authorize/ }).count(),
      ).resolves.toBe(1);
      await expect(page.getByRole('link', { name: SIGNING_LINK }).getAttribute('href')).resolves.toBe(
        SIGNING_LINK,
      );
      await screenshots.take(page, 'outbox-message');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
    });

    it('sets the mail connector from the Connectors page, whose form is accessible', async () => {
      await page.goto(`${baseUrl}/console/connectors/mail`);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      await page.getByLabel('SMTP server host').fill('127.0.0.1');
      await page.getByLabel('Port').fill('2587');
      await page.getByLabel(/^Security/).selectOption('tls');
      await page.getByLabel(/^User name/).fill('clinic-mailer');
      await page.getByLabel('Password').fill('browser-smtp-password-5566');
      await page.getByLabel('Sender address').fill('prior-auth@harbor.example');
      await page.getByRole('button', { name: 'Save connector' }).click();
      await page.waitForURL(/done=saved/);
      await expect(page.locator('main').textContent()).resolves.toContain('ends in …5566');
      await screenshots.take(page, 'mail-connector-saved');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
    });

    // Last of the page's tests: the switch to live mode holds for the rest of the session.
    it('says in live mode that live mail goes through the mail connector, accessibly', async () => {
      await page.goto(`${baseUrl}/console/providers/outbox`);
      await page.getByRole('button', { name: 'View live data' }).click();
      await page.waitForLoadState();
      await expect(page.locator('main').textContent()).resolves.toContain(
        'The outbox holds test-mode mail only.',
      );
      await expect(page.getByRole('link', { name: 'mail connector' }).getAttribute('href')).resolves.toBe(
        '/console/connectors/mail',
      );
      await screenshots.take(page, 'outbox-live');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
    });

    it('shows a provider the 403 page and none of the mail', async () => {
      const provider = await consoleBrowserWithRoles(testApp, accountId, ['provider']);
      const response = await getPage(testApp, provider, '/console/providers/outbox');
      expect(response.status).toBe(403);
      expect(response.text).not.toContain('practice.example');
    });
  });
