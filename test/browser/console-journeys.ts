import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

import { grants } from '../../domain/accounts/roles';
import { NAVIGATION } from '../../src/console/layout';
import { totpCode } from '../../src/console/people/totp';
import { accessibilityViolations, Screenshots, watchForProblems } from '../support/browser';
import {
  benefitVerificationRequest,
  priorAuthorizationRequest,
  syntheticPatient,
} from '../support/case-requests';
import { waitForStatus } from '../support/case-journeys';
import { consoleBrowserWithRoles } from '../support/console-admin';
import { submitCase } from '../support/console-cases';
import { ConsoleInBrowser, preparedBeforeAll } from '../support/console-in-browser';
import { ConsoleBrowser, ConsolePerson, createConsolePerson } from '../support/console-session';
import { cardImage } from '../support/insurance-cards';
import { eventually, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

const RECEIVER_SECRET = 'whsec_journey_receiver_secret_value';

/** A case as the API answered its creation. */
interface Submitted {
  status: number;
  id: string;
}

async function submit(baseUrl: string, key: string, path: string, body: object): Promise<Submitted> {
  const created = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: created.status, id: ((await created.json()) as { data: { id: string } }).data.id };
}

/**
 * A clinic's day in the console, told in order. Its app leaves the simulated payer silent
 * (PAYER_POLL_INTERVAL_MS of an hour), so the reviewer records the payer's outcome by hand, and makes
 * an expedited request overdue for review a second after it was made (PA_EXPEDITED_REVIEW_DUE_MS), as
 * a busy queue shows. The cases its later steps find waiting on a person are submitted as the file's
 * suites start, so their workflows bring them there meanwhile.
 */
export const describeJourneys = (shared: ConsoleInBrowser) => {
  const waiting = preparedBeforeAll(async () => {
    const { testApp, baseUrl } = shared;
    const accountId = (await testApp.accounts.createAccount('Lakeside Specialty Pharmacy')).id;
    const { secret: providerKey } = await testApp.accounts.createApiKey({
      accountId,
      roles: ['provider'],
      label: 'provider',
    });
    // The default request without its A1c (the lab result and the note that repeats it), as
    // test/dtr/payer-questionnaires.test.ts sends it; in a clinic of its own, so its notifications
    // add nothing to the delivery log the journey counts.
    const questionnaireClinic = await testApp.createAccount('Northgate Diabetes Clinic');
    const withoutA1c = priorAuthorizationRequest({
      evidence: [],
      visit_notes: [
        { content: 'Patient has taken metformin for 6 months.', created_at: '2026-10-02T10:00:00Z' },
      ],
    });
    const [questionnaire, outage] = await Promise.all([
      submit(baseUrl, questionnaireClinic.keys.provider, '/prior-authorization', withoutA1c),
      submit(
        baseUrl,
        providerKey,
        '/benefit-verification',
        benefitVerificationRequest({
          mock_result: { status: 'completed', outage: { unavailable_for_seconds: 3600 } },
        }),
      ),
    ]);
    return { accountId, providerKey, questionnaireClinic, questionnaire, outage };
  });

  describe("a clinic's people at work in the console", () => {
    // A card whose member id cannot be read, which leaves the verification to a reviewer. Its reading
    // starts as the journey does rather than with the file, where it would compete with the app's and
    // the other suites' start for the CPU.
    const cardAwaitingReviewer = preparedBeforeAll(async () => {
      const { providerKey } = await waiting();
      const unreadCard = benefitVerificationRequest({
        insurance: [{ file_content: (await cardImage({ memberId: '' })).toString('base64') }],
      });
      delete (unreadCard as { insurance_content?: unknown }).insurance_content;
      return submit(shared.baseUrl, providerKey, '/benefit-verification', unreadCard);
    });
    let testApp: TestApp;
    let baseUrl: string;
    let browser: Browser;
    let receiver: TestReceiver;
    let accountId: string;
    let admin: ConsolePerson;
    let reviewer: ConsolePerson;
    let adminContext: BrowserContext;
    let adminPage: Page;
    let problems: string[];
    const screenshots = new Screenshots('journeys');
    // What one step leaves for the next: the journey is one story, told in order.
    let apiKey: string;
    let endpointPath: string;
    let caseId: string;
    let reviewPage: Page;

    let cases: Awaited<ReturnType<typeof waiting>>;

    beforeAll(async () => {
      ({ testApp, baseUrl, browser } = shared);
      cases = await waiting();
      accountId = cases.accountId;
      receiver = await new TestReceiver(RECEIVER_SECRET).start();
      admin = await createConsolePerson(testApp, accountId, ['admin']);
      reviewer = await createConsolePerson(testApp, accountId, ['reviewer']);
      adminContext = await browser.newContext();
      adminPage = await adminContext.newPage();
      problems = watchForProblems(adminPage);
    });
    afterAll(() => receiver?.stop());

    /** Every page of the journey is photographed and checked for accessibility as it is shown. */
    async function look(page: Page, name: string): Promise<void> {
      await screenshots.take(page, name);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
    }

    const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

    /** A browser context holding a session made directly, as the second-factor page leaves one. */
    async function contextSignedInAs(
      person: ConsoleBrowser,
      options: BrowserContextOptions = {},
    ): Promise<BrowserContext> {
      const context = await browser.newContext(options);
      await context.addCookies(
        person.cookie.split('; ').map((pair) => {
          const [name, value] = pair.split('=', 2) as [string, string];
          return { name, value, url: baseUrl };
        }),
      );
      return context;
    }

    /** Signs in with the password, then sets up two-step sign-in from the secret the page shows. */
    async function signInSettingUpSecondFactor(
      page: Page,
      person: ConsolePerson,
      name: string,
    ): Promise<void> {
      await page.goto(`${baseUrl}/console`);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/console\/sign-in\/second-factor/);
      await look(page, `${name}-second-factor-setup`);
      const secret = (await page.locator('.secret').first().textContent())!.trim();
      await page.getByLabel('Authentication code').fill(totpCode(secret, Date.now()));
      await page.getByLabel('Authentication code').press('Enter');
      await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
    }

    it('signs an admin in, setting up two-step sign-in on the way', async () => {
      await signInSettingUpSecondFactor(adminPage, admin, 'admin');
      await adminPage.goto(`${baseUrl}/console/account`);
      await expect(adminPage.locator('main').textContent()).resolves.toContain('Lakeside Specialty Pharmacy');
      await look(adminPage, 'account');
    });

    it('creates an API key whose secret is shown once, with a copy button', async () => {
      await adminPage.goto(`${baseUrl}/console/api-keys`);
      await look(adminPage, 'api-keys');
      await adminPage.getByLabel('Label').fill('Pharmacy system');
      await adminPage.getByRole('checkbox', { name: 'provider' }).check();
      await adminPage.getByRole('button', { name: 'Create API key' }).click();
      await expect(heading(adminPage)).resolves.toBe('API key created');
      apiKey = (await adminPage.locator('#api-key-secret').textContent())!.trim();
      await expect(adminPage.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
      await look(adminPage, 'api-key-created');
      await adminPage.goto(`${baseUrl}/console/api-keys`);
      await expect(adminPage.locator('main').textContent()).resolves.not.toContain(apiKey);
      const status = await fetch(`${baseUrl}/status`, { headers: { Authorization: `Bearer ${apiKey}` } });
      expect(status.status).toBe(200);
    });

    it('adds a webhook endpoint and turns it on, watching it become active', async () => {
      await adminPage.goto(`${baseUrl}/console/webhooks`);
      await look(adminPage, 'webhooks');
      await adminPage.getByLabel('Name').fill('Pharmacy system');
      await adminPage.getByLabel('URL').fill(receiver.url);
      await adminPage.getByLabel('Secret key').fill(RECEIVER_SECRET);
      await adminPage.getByRole('checkbox', { name: 'Prior Authorization Updated' }).check();
      await adminPage.getByRole('button', { name: 'Add endpoint' }).click();
      await adminPage.waitForURL(/\/console\/webhooks\/wh_/);
      endpointPath = new URL(adminPage.url()).pathname;
      receiver.endpointIds.add(endpointPath.split('/').pop()!);
      await expect(adminPage.locator('#endpoint-status').textContent()).resolves.toBe('inactive');
      await adminPage.getByRole('button', { name: 'Turn on' }).click();
      // The page updates by itself (console.js polls the endpoint's status); no reload here.
      await adminPage.locator('#endpoint-status', { hasText: /^active$/ }).waitFor({ timeout: 30_000 });
      await look(adminPage, 'webhook-endpoint-active');
    });

    it('opens every section of the console to an admin, each labelled for a screen reader', async () => {
      // The cases needing attention are the platform operators' section, which no account role opens.
      for (const section of NAVIGATION.filter((item) => grants(['admin'], item.role))) {
        const answer = await adminPage.goto(`${baseUrl}${section.href}`);
        expect(answer?.status()).toBe(200);
        await expect(heading(adminPage)).resolves.toBe(section.label);
        await look(adminPage, `section-${section.href.split('/').pop()}`);
      }
    });

    it('shows no script error and nothing refused by the Content-Security-Policy on any admin page', () => {
      expect(problems).toEqual([]);
    });

    it('takes a sandbox prior authorization submitted through the API with that key', async () => {
      const created = await submit(baseUrl, apiKey, '/prior-authorization', priorAuthorizationRequest());
      expect(created.status).toBe(201);
      caseId = created.id;
    });

    it('lets a reviewer find it in the review queue and approve it with a note', async () => {
      const reviewerPage = await (await browser.newContext()).newPage();
      const reviewerProblems = watchForProblems(reviewerPage);
      await signInSettingUpSecondFactor(reviewerPage, reviewer, 'reviewer');
      const reviewLink = reviewerPage.getByRole('link', { name: `Review ${caseId}` });
      // The API says when the case reaches the queue: reloading the page to see takes CPU its workflow needs.
      await waitForStatus(testApp, apiKey, '/prior-authorization', caseId, 'awaiting_review');
      await eventually(async () => {
        await reviewerPage.goto(`${baseUrl}/console/review-queue`);
        return (await reviewLink.count()) === 1;
      });
      await look(reviewerPage, 'review-queue');
      await reviewLink.click();
      await expect(heading(reviewerPage)).resolves.toBe(`Prior authorization ${caseId}`);
      await look(reviewerPage, 'prior-authorization-awaiting-review');
      await reviewerPage.getByLabel('Note').fill('Step therapy with metformin documented; criteria met.');
      await reviewerPage.getByRole('button', { name: 'Approve' }).click();
      await expect(reviewerPage.getByRole('status').textContent()).resolves.toContain(
        'Your review decision was recorded.',
      );
      reviewerPage.context().setDefaultTimeout(30_000);
      reviewPage = reviewerPage;
      expect(reviewerProblems).toEqual([]);
    });

    it("fits another clinic's review queue of long names within the page at a laptop's 1,280 px", async () => {
      // A clinic of its own, so its cases add nothing to this account's queue or webhook deliveries.
      const clinic = await testApp.createAccount('Riverside Community Oncology and Infusion Partners');
      const requests = [
        { last_name: 'Vandenberghe-Oyelaran', drug_name: 'Insulin degludec and liraglutide injection' },
        { last_name: 'Montgomery-Castellanos', drug_name: 'Adalimumab-adaz (Hyrimoz) prefilled syringe' },
        { last_name: 'Abernathy', drug_name: 'Semaglutide (Wegovy) single-dose pen' },
      ].map(({ last_name, drug_name }, index) =>
        priorAuthorizationRequest({
          patient: syntheticPatient({ first_name: 'Maximiliana Josephine', last_name }),
          prescription: { drug_name, strength: '100 units/mL; 3.6 mg/mL', quantity: 5, days_supply: 30 },
          urgency: index === 0 ? 'expedited' : 'standard',
        }),
      );
      const submitted = await Promise.all(
        requests.map((request) => submitCase(testApp, clinic.keys.provider, '/prior-authorization', request)),
      );
      await Promise.all(
        submitted.map(({ id }) =>
          waitForStatus(
            testApp,
            clinic.keys.provider,
            '/prior-authorization',
            id as string,
            'awaiting_review',
          ),
        ),
      );
      const reviewerOfClinic = await consoleBrowserWithRoles(testApp, clinic.accountId, ['reviewer']);
      const context = await contextSignedInAs(reviewerOfClinic, { viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const queued = page.locator('main table tbody tr');
      await eventually(async () => {
        await page.goto(`${baseUrl}/console/review-queue`);
        return (await queued.count()) === requests.length && (await page.getByText('Overdue').count()) === 1;
      });

      // The whole table within the top bar and the page, none of it left to scroll to sideways.
      const measure = (selector: string) =>
        page.locator(selector).evaluate((element) => {
          const box = element as unknown as LaidOut;
          return { right: box.getBoundingClientRect().right, overflow: box.scrollWidth - box.clientWidth };
        });
      const table = await measure('main table');
      expect(table.right).toBeLessThanOrEqual((await measure('header')).right);
      expect(table.right).toBeLessThanOrEqual((await measure('main')).right);
      expect((await measure('main div:has(> table)')).overflow).toBe(0);
      expect((await measure('html')).overflow).toBe(0);
      await look(page, 'review-queue-at-1280px');
      await context.close();
    });

    it("lets the reviewer record the payer's approval once the case awaits it", async () => {
      await waitForStatus(testApp, apiKey, '/prior-authorization', caseId, 'awaiting_outcome');
      await eventually(async () => {
        await reviewPage.reload();
        return (await reviewPage.getByRole('button', { name: 'Record payer outcome' }).count()) === 1;
      });
      await look(reviewPage, 'prior-authorization-awaiting-outcome');
      await reviewPage.getByLabel('Result', { exact: true }).selectOption('approved');
      await reviewPage.getByRole('button', { name: 'Record payer outcome' }).click();
      await expect(reviewPage.getByRole('status').textContent()).resolves.toContain(
        'The outcome was recorded.',
      );
    });

    it('shows every status of the case on its timeline', async () => {
      await waitForStatus(testApp, apiKey, '/prior-authorization', caseId, 'completed');
      await eventually(async () => {
        await reviewPage.reload();
        return ((await reviewPage.locator('ol.timeline').textContent()) ?? '').includes('completed');
      });
      const timeline = await reviewPage.locator('ol.timeline > li').allTextContents();
      expect(
        timeline.map((entry) => /processing|awaiting review|awaiting outcome|completed/.exec(entry)?.[0]),
      ).toEqual(['processing', 'awaiting review', 'awaiting outcome', 'completed']);
      await look(reviewPage, 'prior-authorization-completed');
    });

    it('shows a reviewer the card of a benefit verification in manual verification, beside the fields read from it', async () => {
      const { id } = await cardAwaitingReviewer();
      await eventually(async () => {
        await reviewPage.goto(`${baseUrl}/console/benefit-verifications/${id}`);
        return (await reviewPage.getByRole('button', { name: 'Complete verification' }).count()) === 1;
      });

      const card = reviewPage.getByRole('region', { name: 'Insurance card' });
      await expect(card.getByRole('cell', { name: 'RxBIN' }).count()).resolves.toBe(1);
      await expect(card.textContent()).resolves.toMatch(/Not read\s+[^\n]*\bMember id\b/);
      const preview = reviewPage.getByRole('img', { name: 'insurance_1' });
      await expect(
        preview.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      ).resolves.toBeGreaterThan(0);
      await look(reviewPage, 'benefit-verification-card-in-manual-verification');
    });

    it("takes the member id the reviewer confirmed with the plan, and shows it as the reviewer's", async () => {
      await reviewPage.getByLabel('Verification result').selectOption('completed');
      await reviewPage.getByLabel('Coverage status').selectOption('covered');
      await reviewPage.getByLabel('Confirmed member id').fill('W123456789');
      await reviewPage.getByRole('button', { name: 'Complete verification' }).click();

      const card = reviewPage.getByRole('region', { name: 'Insurance card' });
      await eventually(async () => {
        await reviewPage.reload();
        return ((await card.textContent()) ?? '').includes('member_id: W123456789 (confirmed by a reviewer)');
      });
    });

    it("shows the case's notifications in the endpoint's delivery log, acknowledged by the receiver", async () => {
      await eventually(async () => (receiver.notifications.length >= 4 ? true : undefined));
      await adminPage.goto(`${baseUrl}${endpointPath}`);
      const log = adminPage.getByRole('table').filter({ hasText: 'Last response' });
      const rows = await log.locator('tbody tr').allTextContents();
      expect(
        rows.filter((row) => row.includes('prior_authorization.updated') && row.includes('200')),
      ).toHaveLength(4);
      await look(adminPage, 'webhook-delivery-log');
    });

    it("has a reviewer answer the payer's questionnaire item the record could not, approval waiting for it, the facts before the forms", async () => {
      const { status, id } = cases.questionnaire;
      expect(status).toBe(201);
      const statusOf = async () => {
        const answer = await fetch(`${baseUrl}/prior-authorization/${id}`, {
          headers: { Authorization: `Bearer ${cases.questionnaireClinic.keys.provider}` },
        });
        return ((await answer.json()) as { data: { status: string } }).data.status;
      };
      await eventually(async () => (await statusOf()) === 'awaiting_review');

      // The questionnaire decision is the provider's (as DTR has it, and as the API's role says), so the
      // form shows to a reviewer who also holds the provider role.
      const context = await contextSignedInAs(
        await consoleBrowserWithRoles(testApp, cases.questionnaireClinic.accountId, ['provider', 'reviewer']),
      );
      const page = await context.newPage();
      const pageProblems = watchForProblems(page);
      const casePage = `${baseUrl}/console/prior-authorizations/${id}`;
      await page.goto(casePage);
      const questionnaire = page.getByRole('region', { name: "Payer's questionnaire", exact: true });
      const a1c = questionnaire.getByRole('row', { name: /^a1c_at_least_7\b/ });
      const a1cCells = () => a1c.locator('th, td').allTextContents();
      await expect(a1cCells()).resolves.toEqual([
        'a1c_at_least_7',
        "Is the patient's A1c at least 7 % within the last 6 months? (required)",
        '—',
        '—',
        '—',
      ]);
      await expect(questionnaire.textContent()).resolves.toContain(
        'Approval waits for 1 required item(s): a1c_at_least_7.',
      );
      await look(page, 'prior-authorization-questionnaire-pending');

      // The facts a reviewer weighs come before the forms that decide on them.
      const sections = await page
        .locator('main section[aria-labelledby]')
        .evaluateAll((found) => found.map((section) => section.getAttribute('aria-labelledby')));
      const facts = [
        'request-heading',
        'requirements-heading',
        'payer-questionnaire-heading',
        'criteria-heading',
      ];
      const forms = ['questionnaire-heading', 'review-heading'];
      for (const heading of [...facts, ...forms]) expect(sections).toContain(heading);
      const lastFact = Math.max(...facts.map((heading) => sections.indexOf(heading)));
      expect(Math.min(...forms.map((heading) => sections.indexOf(heading)))).toBeGreaterThan(lastFact);

      // Approving waits for the item: refused, naming it, on the case page.
      const [refusal] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith(`/${id}/review`)),
        page.getByRole('button', { name: 'Approve' }).click(),
      ]);
      expect(refusal.status()).toBe(409);
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'unanswered required item(s): a1c_at_least_7',
      );

      const form = page.getByRole('region', { name: "Answer the payer's questionnaire" });
      await form
        .getByLabel("Is the patient's A1c at least 7 % within the last 6 months? (required)", { exact: true })
        .selectOption('yes');
      await form.getByRole('button', { name: 'I attest these answers are accurate: save them' }).click();
      await page.waitForURL(`${casePage}?done=questionnaire`);
      await expect(a1cCells()).resolves.toEqual([
        'a1c_at_least_7',
        "Is the patient's A1c at least 7 % within the last 6 months? (required)",
        'yes',
        'Given by a person',
        'Test Person',
      ]);
      await expect(questionnaire.textContent()).resolves.not.toContain('Approval waits');
      await expect(questionnaire.locator('caption').textContent()).resolves.toContain('(completed)');

      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toContain(
        'Your review decision was recorded.',
      );
      await eventually(async () => ['awaiting_outcome', 'completed'].includes(await statusOf()));
      // The refused approval's 409 is the one failed load the browser reports.
      expect(pageProblems).toEqual([
        'console error: Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);
      await context.close();
    });

    it('lets a platform operator find a case waiting out a payer outage and end it failed from the console', async () => {
      const { status, id: outageCaseId } = cases.outage;
      expect(status).toBe(201);
      const platformId = (await testApp.accounts.createAccount('Platform operators')).id;
      const operator = await createConsolePerson(testApp, platformId, ['operator']);
      const operatorPage = await (await browser.newContext()).newPage();
      const operatorProblems = watchForProblems(operatorPage);
      await signInSettingUpSecondFactor(operatorPage, operator, 'operator');

      // The case shows attention once the benefits check's own attempts have run out.
      const caseLink = operatorPage.getByRole('link', { name: outageCaseId });
      await eventually(async () => {
        await operatorPage.goto(`${baseUrl}/console/attention`);
        return (await caseLink.count()) === 1;
      }, 60_000);
      await expect(heading(operatorPage)).resolves.toBe('Cases needing attention');
      await look(operatorPage, 'attention-list');
      await caseLink.click();
      await expect(heading(operatorPage)).resolves.toBe(`Benefit verification ${outageCaseId}`);
      await look(operatorPage, 'benefit-verification-needs-attention');

      await operatorPage.getByLabel('Reason').selectOption('outage_outlasting');
      operatorPage.once('dialog', (dialog) => void dialog.accept());
      await operatorPage.getByRole('button', { name: 'Fail' }).click();
      await operatorPage.getByText('(failed_by_operator)').waitFor();
      await look(operatorPage, 'benefit-verification-failed-by-operator');
      expect(operatorProblems).toEqual([]);
    });

    it('refuses the API key and the console once the platform suspends the account', async () => {
      await testApp.accounts.setAccountStatus(accountId, 'suspended');
      const refused = await eventually(async () => {
        const answer = await fetch(`${baseUrl}/status`, { headers: { Authorization: `Bearer ${apiKey}` } });
        return answer.status === 401 ? ((await answer.json()) as { error: { message: string } }) : undefined;
      });
      expect(refused.error.message).toContain('This account is suspended');
      const page = await adminPage.goto(`${baseUrl}/console/api-keys`);
      expect(page?.status()).toBe(401);
      await expect(adminPage.locator('main').textContent()).resolves.toContain('This account is suspended');
      await screenshots.take(adminPage, 'account-suspended');
    });
  });
};

/** What a page element's layout says of its width, read in the browser. */
interface LaidOut {
  getBoundingClientRect(): { right: number };
  scrollWidth: number;
  clientWidth: number;
}
