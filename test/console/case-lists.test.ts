import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { caseIdsOf, consoleGet, consolePost, signedInPerson, submitCase } from '../support/console-cases';
import { ConsoleBrowser } from '../support/console-session';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const LIST = '/console/prior-authorizations';

describe('case lists in the console', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let provider: ConsoleBrowser;
  const patientReference = `mrn-lists-${Date.now()}`;
  /** Newest first, as the list shows them. */
  let ids: string[];
  let cancelledId: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic Lists');
    provider = await signedInPerson(testApp, account.accountId, ['provider'], 'Test Provider');
    const created: string[] = [];
    for (const internalId of [patientReference, 'mrn-someone-else', patientReference]) {
      const body = priorAuthorizationRequest({ patient: syntheticPatient({ internal_id: internalId }) });
      created.push((await submitCase(testApp, account.keys.provider, '/prior-authorization', body)).id);
    }
    ids = created.reverse();
    cancelledId = ids[1]!;
    await testApp
      .http()
      .post(`/prior-authorization/${cancelledId}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Prescription changed.' });
    await eventually(async () => {
      const page = await consoleGet(testApp, provider, `${LIST}?status=cancelled`);
      return (
        caseIdsOf(page.text).includes(cancelledId) &&
        caseIdsOf((await consoleGet(testApp, provider, LIST)).text).length === 3
      );
    });
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  it('lists the section newest first, each row linking to its case page with its status', async () => {
    const page = await consoleGet(testApp, provider, LIST);
    expect(page.status).toBe(200);
    expect(caseIdsOf(page.text)).toEqual(ids);
    expect(page.text).toContain(`<a href="${LIST}/${ids[0]}">${ids[0]}</a>`);
    expect(page.text).toContain('<span class="badge badge-bad">cancelled</span>');
  });

  it('filters by status', async () => {
    const page = await consoleGet(testApp, provider, `${LIST}?status=cancelled`);
    expect(caseIdsOf(page.text)).toEqual([cancelledId]);
  });

  it('filters by the created date range, both days included', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const including = await consoleGet(
      testApp,
      provider,
      `${LIST}?created_from=${today}&created_to=${today}`,
    );
    expect(caseIdsOf(including.text)).toEqual(ids);
    const before = await consoleGet(testApp, provider, `${LIST}?created_to=${yesterday}`);
    expect(caseIdsOf(before.text)).toEqual([]);
    expect(before.text).toContain('No cases match.');
  });

  it('refuses an impossible date with a clear 400', async () => {
    const page = await consoleGet(testApp, provider, `${LIST}?created_from=2026-02-31`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('created_from: must be a date (YYYY-MM-DD)');
  });

  it('pages with next and previous links that carry the opaque cursor', async () => {
    const first = await consoleGet(testApp, provider, `${LIST}?limit=2`);
    expect(caseIdsOf(first.text)).toEqual(ids.slice(0, 2));
    expect(first.text).not.toContain('rel="prev"');
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await consoleGet(testApp, provider, next);
    expect(caseIdsOf(second.text)).toEqual(ids.slice(2));
    expect(second.text).not.toContain('rel="next"');
    const previous = /<a href="([^"]+)" rel="prev">Previous page<\/a>/
      .exec(second.text)![1]!
      .replace(/&amp;/g, '&');
    expect(caseIdsOf((await consoleGet(testApp, provider, previous)).text)).toEqual(ids.slice(0, 2));
  });

  it('answers a cursor of another shape than the lists hand out with 400 naming the cursor', async () => {
    const answer = await consoleGet(testApp, provider, `${LIST}?cursor=forged`);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('cursor: must be a next_cursor this list returned');
  });

  it('finds cases by patient reference through a POST, never putting the reference in a URL', async () => {
    const found = await consolePost(testApp, provider, LIST, { patient_reference: patientReference });
    expect(found.status).toBe(200);
    expect(caseIdsOf(found.text)).toEqual([ids[0], ids[2]]);
    expect(found.text).not.toMatch(new RegExp(`href="[^"]*${patientReference}`));
  });

  it('pages the results of a patient search by POST too', async () => {
    const first = await consolePost(testApp, provider, LIST, {
      patient_reference: patientReference,
      limit: 1,
    });
    expect(caseIdsOf(first.text)).toEqual([ids[0]]);
    const cursor = /name="cursor" value="([^"]+)"/.exec(first.text)![1]!;
    const trail = /name="trail" value="([^"]*)"/.exec(first.text)![1]!;
    const second = await consolePost(testApp, provider, LIST, {
      patient_reference: patientReference,
      limit: 1,
      cursor,
      trail,
    });
    expect(caseIdsOf(second.text)).toEqual([ids[2]]);
  });

  it('refuses a patient search sent without the CSRF token', async () => {
    const answer = await testApp
      .http()
      .post(LIST)
      .set('Cookie', provider.cookie)
      .type('form')
      .send({ patient_reference: patientReference });
    expect(answer.status).toBe(403);
    expect(answer.text).not.toContain(patientReference);
  });

  it('shows no case of another account', async () => {
    const other = await testApp.createAccount('Other clinic');
    const stranger = await signedInPerson(testApp, other.accountId, ['provider']);
    expect(caseIdsOf((await consoleGet(testApp, stranger, LIST)).text)).toEqual([]);
  });
});
