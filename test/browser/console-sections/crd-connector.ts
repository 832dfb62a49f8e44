import type { BrowserContext, Page } from 'playwright-core';

import { accessibilityViolations, Screenshots, watchForProblems } from '../../support/browser';
import type { ConsoleInBrowser } from '../../support/console-in-browser';

/** Its app's public address is https://api.clinic.example (PUBLIC_API_URL), which the JWKS URL names. */
export const describeCrdConnector = (shared: ConsoleInBrowser) =>
  describe("the CRD connector's page in a browser", () => {
    let context: BrowserContext;
    let page: Page;
    let problems: string[];
    let baseUrl: string;
    const screenshots = new Screenshots('crd-connector');

    beforeAll(async () => {
      baseUrl = shared.baseUrl;
      const account = await shared.testApp.createAccount('Harbor Infusion Center');
      // Signed in as the console's session cookie says: sign-in itself is the journeys suite's subject.
      ({ context, page } = await shared.signedInPage(account.accountId, ['admin']));
      problems = watchForProblems(page);
    });
    afterAll(() => context.close());

    const facts = async () =>
      Object.fromEntries(
        await page
          .locator('dl.facts dt')
          .evaluateAll((terms) =>
            terms.map((term) => [term.textContent, term.nextElementSibling?.textContent]),
          ),
      ) as Record<string, string>;

    it('sets the connector and shows the JWKS URL and the key id the payer registers', async () => {
      await page.goto(`${baseUrl}/console/connectors/coverage_requirements`);
      await page.getByLabel('order-sign URL').fill('http://127.0.0.1:9/cds-services/order-sign-crd');
      await page.getByLabel('Client id (the JWT issuer)').fill('clinic-crd-0001');
      await page.getByRole('button', { name: 'Save connector' }).click();
      await page.waitForURL(/done=saved/);
      expect(await page.locator('main').textContent()).toContain('https://api.clinic.example/jwks/jwks_');
      expect(await facts()).toMatchObject({ 'Current key': expect.any(String) });
      await screenshots.take(page, 'crd-connector-saved');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
    });

    it('rotates the key once the admin confirms, keeping the replaced key listed as still published', async () => {
      const before = (await facts())['Current key'];
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Rotate signing key' }).click();
      await page.waitForURL(/done=rotated/);
      const after = await facts();
      expect(after['Previous key (still published)']).toBe(before);
      expect(after['Current key']).not.toBe(before);
      await screenshots.take(page, 'crd-connector-rotated');
      expect(problems).toEqual([]);
    });
  });
