import { priorAuthorizationRequest } from '../support/case-requests';
import { caseIdsOf, consoleGet, signedInPerson, submitCase } from '../support/console-cases';
import { createConsolePerson, signInWithPassword } from '../support/console-session';
import { eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

describe('the review queue in the console', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;

  beforeAll(async () => {
    // Expedited requests are due for review at once, so the queue has an overdue case to mark.
    testApp = await startTestApp({ PA_EXPEDITED_REVIEW_DUE_MS: '1000' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic Queue');
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  it('lists the PAs awaiting review soonest due first, overdue and due clearly marked, each linking to its decision', async () => {
    const reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    const standard = await submitCase(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      priorAuthorizationRequest(),
    );
    const expedited = await submitCase(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      priorAuthorizationRequest({ urgency: 'expedited' }),
    );
    const queue = await eventually(async () => {
      const page = await consoleGet(testApp, reviewer, '/console/review-queue');
      // The expedited request is due for review a second after it was made: wait until that second has passed.
      return caseIdsOf(page.text).length === 2 && page.text.includes('Overdue') ? page : undefined;
    });
    expect(queue.status).toBe(200);
    expect(caseIdsOf(queue.text)).toEqual([expedited.id, standard.id]);
    const rows = queue.text.split('<tr>').slice(2);
    expect(rows[0]).toContain('<span class="badge badge-bad">Overdue</span>');
    expect(rows[1]).toContain('<span class="badge badge-warn">Due</span>');
    expect(queue.text).toContain(`href="/console/prior-authorizations/${standard.id}#review-heading"`);
  });

  it('names the patient, the drug and the payer of each queued PA, so a reviewer can triage', async () => {
    const reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    const request = priorAuthorizationRequest();
    const created = await submitCase(testApp, account.keys.provider, '/prior-authorization', request);
    const patient = request.patient as { first_name: string; last_name: string };

    const queue = await eventually(async () => {
      const page = await consoleGet(testApp, reviewer, '/console/review-queue');
      return caseIdsOf(page.text).includes(created.id) ? page : undefined;
    });

    const row = queue.text.split('<tr>').find((candidate) => candidate.includes(created.id))!;
    expect(row).toContain(`<td>${patient.last_name}, ${patient.first_name} (born 1968-05-14)</td>`);
    expect(row).toContain('<td>Ozempic 1 mg pen</td>');
    expect(row).toContain('<td>Blue Horizon Health</td>');
  });

  it('reads the feedback of the whole page in one query, not one per queued case', async () => {
    const reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    const queued = await Promise.all(
      [1, 2].map(() =>
        submitCase(testApp, account.keys.provider, '/prior-authorization', priorAuthorizationRequest()),
      ),
    );
    await eventually(async () => {
      const listed = caseIdsOf((await consoleGet(testApp, reviewer, '/console/review-queue')).text);
      return queued.every(({ id }) => listed.includes(id as string));
    });
    const query = jest.spyOn(testApp.db, 'query');
    try {
      const queue = await consoleGet(testApp, reviewer, '/console/review-queue');

      expect(caseIdsOf(queue.text).length).toBeGreaterThan(1);
      expect(query.mock.calls.filter(([sql]) => sql.includes('case_feedback'))).toHaveLength(1);
    } finally {
      query.mockRestore();
    }
  });

  it('is not open to a provider', async () => {
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const browser = await signInWithPassword(testApp, person);
    const page = await testApp.http().get('/console/review-queue').set('Cookie', browser.cookie);
    expect(page.status).toBe(403);
  });

  it('sends a browser without a session to sign in', async () => {
    const page = await testApp.http().get('/console/review-queue');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Freview-queue');
  });
});
