import type { BrowserContext, Page } from 'playwright-core';

import { accessibilityViolations, Screenshots, watchForProblems } from '../../support/browser';
import { waitForStatus } from '../../support/case-journeys';
import { priorAuthorizationRequest } from '../../support/case-requests';
import { consoleBrowserWithRoles, getPage, postForm } from '../../support/console-admin';
import { submitCase } from '../../support/console-cases';
import { ConsoleInBrowser, preparedBeforeAll } from '../../support/console-in-browser';
import type { TestAccount, TestApp } from '../../support/test-app';

/**
 * Its case is submitted as the file's suites start, and waited for once this suite runs: by then it
 * usually awaits review, and its wait's deadline is not spent while the other suites' cases compute.
 */
export const describeFeedback = (shared: ConsoleInBrowser) => {
  const submittedCase = preparedBeforeAll(async () => {
    const { testApp } = shared;
    const account = await testApp.createAccount('Riverside Endocrinology');
    const { id } = await submitCase(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      priorAuthorizationRequest(),
    );
    return { account, caseId: id as string };
  });

  describe('feedback on a prior authorization in the console', () => {
    let testApp: TestApp;
    let baseUrl: string;
    let account: TestAccount;
    let caseId: string;
    const screenshots = new Screenshots('feedback');
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      ({ testApp, baseUrl } = shared);
      ({ account, caseId } = await submittedCase());
      await waitForStatus(testApp, account.keys.provider, '/prior-authorization', caseId, 'awaiting_review');
    });
    afterAll(() => Promise.all(contexts.map((context) => context.close())));

    /** A page signed in as a new person of the account with these roles (sign-in is the journeys suite's subject). */
    const signedInPage = async (
      roles: Array<'reviewer' | 'admin'>,
    ): Promise<{ page: Page; problems: string[] }> => {
      const { context, page } = await shared.signedInPage(account.accountId, roles);
      contexts.push(context);
      return { page, problems: watchForProblems(page) };
    };

    const feedbackRows = (page: Page) =>
      page.locator('section[aria-labelledby="feedback-heading"] tbody tr').allTextContents();

    it("gives feedback from the case page's form and shows it in the case's history, the case unchanged", async () => {
      const { page, problems } = await signedInPage(['reviewer']);
      await page.goto(`${baseUrl}/console/prior-authorizations/${caseId}`);
      await expect(page.getByRole('region', { name: 'Feedback' }).textContent()).resolves.toContain(
        'No feedback yet.',
      );
      await expect(accessibilityViolations(page)).resolves.toEqual([]);

      await page.getByRole('link', { name: 'Give feedback on this case' }).click();
      await page.getByRole('button', { name: 'Save feedback' }).click();
      await expect(page.locator('main').textContent()).resolves.toContain('rating: must be one of');
      // The refused form comes back with 400, by design, which Chromium reports; nothing else may be.
      expect(problems.splice(0)).toEqual([expect.stringContaining('status of 400')]);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);

      await page.getByLabel('Incorrect').check();
      await page.getByLabel('Criteria answers').check();
      await page.getByLabel('Comment').fill('The A1c in the lab report was missed.');
      const expected = page.locator('select[name="criteria.0.expected_answer"]');
      const caseAnswer = await page.locator('tbody tr').first().locator('td').nth(1).textContent();
      await expected.selectOption(caseAnswer?.trim() === 'yes' ? 'no' : 'yes');
      await screenshots.take(page, 'feedback-form');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      await page.getByRole('button', { name: 'Save feedback' }).click();

      await page.waitForURL(
        new RegExp(`/console/prior-authorizations/${caseId}\\?done=feedback#feedback-heading$`),
      );
      await expect(page.getByRole('status').textContent()).resolves.toContain('Your feedback was saved');
      const rows = await feedbackRows(page);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toContain('Incorrect');
      expect(rows[0]).toContain('criteria');
      expect(rows[0]).toContain('The A1c in the lab report was missed.');
      expect(rows[0]).toContain('Console user usr_');
      expect(await page.locator('main').textContent()).toContain('awaiting review');
      await screenshots.take(page, 'feedback-history');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      expect(problems).toEqual([]);

      const api = await testApp
        .http()
        .get(`/prior-authorization/${caseId}`)
        .set('Authorization', `Bearer ${account.keys.provider}`);
      expect(api.body.data).toMatchObject({ status: 'awaiting_review', review: null });
      expect(api.body.data.feedback).toEqual([
        expect.objectContaining({
          rating: 'incorrect',
          parts: ['criteria'],
          author: expect.objectContaining({ type: 'user' }),
        }),
      ]);
    });

    it('stores a form sent twice (a double click, a resend after a timeout) once, by the key the form carries', async () => {
      const reviewer = await consoleBrowserWithRoles(testApp, account.accountId, ['reviewer']);
      const form = await getPage(testApp, reviewer, `/console/prior-authorizations/${caseId}/feedback`);
      const [, key] = /name="feedback_key" value="([0-9a-f-]{36})"/.exec(form.text)!;
      const comment = `Sent twice ${key}`;
      const audits = async () =>
        (
          await testApp.db.query(
            `SELECT id FROM audit_events WHERE action = 'case.feedback_recorded' AND target_id = $1`,
            [caseId],
          )
        ).length;
      const auditedBefore = await audits();
      const send = () =>
        postForm(testApp, reviewer, `/console/prior-authorizations/${caseId}/feedback`, {
          feedback_key: key!,
          rating: 'correct',
          comment,
        });
      expect((await send()).status).toBe(303);
      expect((await send()).status).toBe(303);

      const api = await testApp
        .http()
        .get(`/prior-authorization/${caseId}`)
        .set('Authorization', `Bearer ${account.keys.provider}`);
      const stored = (api.body.data.feedback as Array<{ comment: string | null }>).filter(
        (feedback) => feedback.comment === comment,
      );
      expect(stored).toHaveLength(1);
      expect(await audits()).toBe(auditedBefore + 1);

      const anotherForm = await getPage(
        testApp,
        reviewer,
        `/console/prior-authorizations/${caseId}/feedback`,
      );
      expect(anotherForm.text).not.toContain(key);
    });

    it("shows the account's admins the feedback by drug and criterion", async () => {
      const { page, problems } = await signedInPage(['admin']);
      await page.goto(`${baseUrl}/console`);
      await page
        .getByRole('navigation', { name: 'Console sections' })
        .getByRole('link', { name: 'Feedback' })
        .click();
      await page.waitForURL(/\/console\/feedback$/);
      const byDrug = page.getByRole('table', { name: 'Feedback by drug' });
      await expect(byDrug.locator('tbody tr').first().textContent()).resolves.toContain('Ozempic 1 mg pen');
      await expect(page.locator('table').nth(1).textContent()).resolves.toMatch(
        /Criteria of Ozempic 1 mg pen/,
      );
      await screenshots.take(page, 'feedback-report');
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      expect(problems).toEqual([]);
    });

    it('reports over the days a calendar holds: a day past the end of its month is not taken for the next month', async () => {
      const admin = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
      const today = new Date().toISOString().slice(0, 10);
      const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
      const page = await getPage(testApp, admin, `/console/feedback?from=${weekAgo}&to=2026-02-31`);
      expect(page.status).toBe(200);
      // The page's own content: the header's mode switch carries the URL asked for back.
      const main = page.text.slice(page.text.indexOf('<main'));
      expect(main).toContain(`from ${weekAgo} to ${today}`);
      expect(main).not.toContain('2026-02-31');
      expect(main).not.toContain('2026-03-03');
    });

    it("refuses a person of another account, and one without a feedback role, the case's form", async () => {
      const other = await testApp.createAccount('Other clinic');
      const stranger = await consoleBrowserWithRoles(testApp, other.accountId, ['reviewer']);
      const refused = await postForm(testApp, stranger, `/console/prior-authorizations/${caseId}/feedback`, {
        rating: 'correct',
      });
      expect(refused.status).toBe(404);
      const reviewer = await consoleBrowserWithRoles(testApp, account.accountId, ['reviewer']);
      const report = await testApp.http().get('/console/feedback').set('Cookie', reviewer.cookie);
      expect(report.status).toBe(403);
    });
  });
};
