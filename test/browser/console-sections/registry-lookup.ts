import type { BrowserContext, Page } from 'playwright-core';

import { SANDBOX_NPIS } from '../../../infrastructure/providers/sandbox-registry';
import { accessibilityViolations, Screenshots, watchForProblems } from '../../support/browser';
import { consoleBrowserWithRoles, getPage } from '../../support/console-admin';
import type { ConsoleInBrowser } from '../../support/console-in-browser';
import type { TestApp } from '../../support/test-app';

export const describeRegistryLookup = (shared: ConsoleInBrowser) =>
  describe('the NPI registry lookup in the console', () => {
    let testApp: TestApp;
    let context: BrowserContext;
    let page: Page;
    let problems: string[];
    let baseUrl: string;
    let accountId: string;
    const screenshots = new Screenshots('registry-lookup');

    beforeAll(async () => {
      // Test mode asks the sandbox registry in-process: its fixture is the registry here.
      ({ testApp, baseUrl } = shared);
      accountId = (await testApp.createAccount('Harbor Infusion Center')).accountId;
      ({ context, page } = await shared.signedInPage(accountId, ['provider']));
      problems = watchForProblems(page);
    });
    // Emptied after each test: a problem fails the test that raised it, not every one after it.
    afterEach(() => expect(problems.splice(0)).toEqual([]));
    afterAll(() => context.close());

    async function look(name: string): Promise<void> {
      await screenshots.take(page, name);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
    }

    const facts = async () =>
      Object.fromEntries(
        await page
          .locator('dl.facts dt')
          .evaluateAll((terms) =>
            terms.map((term) => [term.textContent?.trim(), term.nextElementSibling?.textContent]),
          ),
      ) as Record<string, string>;

    const notice = () => page.locator('.notice').first().textContent();

    /** A page answered with an error status is reported by the browser once; nothing else may be. */
    const onlyTheAnswerReported = (status: number) =>
      expect(problems.splice(0)).toEqual([expect.stringContaining(`status of ${status}`)]);

    it("looks an NPI up and shows the registry's record", async () => {
      await page.goto(`${baseUrl}/console/providers/lookup`);
      await look('empty');
      await page.getByRole('textbox', { name: 'NPI' }).fill(SANDBOX_NPIS.active);
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.waitForURL(/npi=1234567893/);
      const shown = await facts();
      expect(shown).toMatchObject({
        Name: 'AMADOU REVIEWSWORTH',
        Type: 'Individual (NPI-1)',
        Credential: 'MD',
        'Practice phone': '503-555-0100',
      });
      expect(shown.Taxonomy).toContain('Family Medicine');
      expect(shown['Practice location']).toContain('100 SANDBOX WAY');
      expect(shown['NPI status']?.trim()).toBe('active');
      expect(await page.locator('main').textContent()).toContain('the sandbox registry (test mode)');
      await look('record');
    });

    it('searches by last name and state, and opens a record from the list', async () => {
      await page.goto(`${baseUrl}/console/providers/lookup`);
      await page.getByRole('textbox', { name: 'Last name' }).fill('Quintero');
      await page.getByRole('textbox', { name: 'State' }).fill('or');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/last_name=Quintero/);
      const rows = page.locator('table tbody tr');
      expect(await rows.count()).toBe(2);
      expect(await page.locator('caption').textContent()).toContain('QUINTERO practising in OR');
      await look('search');
      await page.getByRole('link', { name: '1000000061' }).click();
      await page.waitForURL(/npi=1000000061/);
      expect((await facts()).Name).toBe('MATEO R QUINTERO');
    });

    it("refuses an NPI whose check digit is wrong in the API's words, keeping what was typed", async () => {
      const response = await page.goto(`${baseUrl}/console/providers/lookup?npi=1234567890`);
      expect(response?.status()).toBe(400);
      onlyTheAnswerReported(400);
      expect(await notice()).toContain('must be a 10-digit NPI with a valid check digit');
      expect(await page.getByRole('textbox', { name: 'NPI' }).inputValue()).toBe('1234567890');
      await look('refused');
    });

    it('says when the registry does not return an NPI, and when it is down', async () => {
      const missing = await page.goto(`${baseUrl}/console/providers/lookup?npi=${SANDBOX_NPIS.notReturned}`);
      expect(missing?.status()).toBe(404);
      onlyTheAnswerReported(404);
      expect(await notice()).toBe('The NPI registry does not return this NPI.');

      const down = await page.goto(`${baseUrl}/console/providers/lookup?npi=${SANDBOX_NPIS.registryDown}`);
      expect(down?.status()).toBe(503);
      onlyTheAnswerReported(503);
      expect(down?.headers()['retry-after']).toBe('30');
      expect(await notice()).toContain('The NPI registry is unavailable');
      await look('registry-down');
    });

    it('shows a deactivated NPI as deactivated', async () => {
      await page.goto(`${baseUrl}/console/providers/lookup?npi=${SANDBOX_NPIS.deactivated}`);
      expect((await facts())['NPI status']?.trim()).toBe('deactivated');
    });

    it('is closed to a person without the provider role', async () => {
      const reviewer = await consoleBrowserWithRoles(testApp, accountId, ['reviewer']);
      const response = await getPage(testApp, reviewer, '/console/providers/lookup');
      expect(response.status).toBe(403);
    });
  });
