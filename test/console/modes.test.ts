import { caseIdsOf } from '../support/console-cases';
import { consoleBrowserWithRoles, getPage, postForm } from '../support/console-admin';
import { clinicalEligibilityRequest } from '../support/case-requests';
import { ConsoleBrowser, cookiesFrom } from '../support/console-session';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const LIST = '/console/clinical-eligibility';

describe('test and live modes in the console', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let admin: ConsoleBrowser;
  let testCaseId: string;
  let liveCaseId: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic with a switch');
    const liveKey = (
      await testApp.accounts.createApiKey({
        accountId: account.accountId,
        roles: ['provider'],
        label: 'live provider',
        mode: 'live',
      })
    ).secret;
    admin = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
    const submit = async (key: string) =>
      (await testApp.http().post('/clinical-eligibility').set(bearer(key)).send(clinicalEligibilityRequest()))
        .body.data.id as string;
    testCaseId = await submit(account.keys.provider);
    liveCaseId = await submit(liveKey);
    for (const [key, name] of [
      [account.keys.provider, 'Test receiver'],
      [liveKey, 'Live receiver'],
    ] as const) {
      await testApp
        .http()
        .post('/webhooks')
        .set(bearer(key))
        .send({
          name,
          url: 'https://receiver.example/hooks',
          secret: 'whsec_console_modes_0000001',
          events: ['clinical_eligibility.updated'],
        });
    }
    // Lists read the case summaries, which the worker writes a moment after each case starts.
    await eventually(async () => {
      const rows = await testApp.db.query('SELECT case_id FROM case_summaries WHERE account_id = $1', [
        account.accountId,
      ]);
      return rows.length === 2;
    });
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  /** The browser after the top bar's switch was used on `page`. */
  async function switchedTo(mode: 'test' | 'live', page: string): Promise<ConsoleBrowser> {
    const switched = await postForm(testApp, admin, '/console/mode', { mode, return_to: page });
    expect(switched.status).toBe(303);
    expect(switched.headers.location).toBe(page);
    return { ...admin, cookie: cookiesFrom(switched.headers['set-cookie'], admin.cookie) };
  }

  it('shows test data until the person switches, and says so on every page', async () => {
    const page = await getPage(testApp, admin, LIST);
    expect(page.text).toContain('Test data: cases and webhooks of test keys');
    expect(page.text).toContain('View live data');
    expect(caseIdsOf(page.text)).toEqual([testCaseId]);
    expect((await getPage(testApp, admin, `${LIST}/${liveCaseId}`)).status).toBe(404);

    const webhooks = await getPage(testApp, admin, '/console/webhooks');
    expect(webhooks.text).toContain('Test receiver');
    expect(webhooks.text).not.toContain('Live receiver');
  });

  it('shows only live data once switched to live, and test data again once switched back', async () => {
    const live = await switchedTo('live', LIST);
    const page = await getPage(testApp, live, LIST);
    expect(page.text).toContain('Live data: real requests sent to payers.');
    expect(page.text).toContain('View test data');
    expect(caseIdsOf(page.text)).toEqual([liveCaseId]);
    expect((await getPage(testApp, live, `${LIST}/${liveCaseId}`)).status).toBe(200);
    expect((await getPage(testApp, live, `${LIST}/${testCaseId}`)).status).toBe(404);
    const webhooks = await getPage(testApp, live, '/console/webhooks');
    expect(webhooks.text).toContain('Live receiver');
    expect(webhooks.text).not.toContain('Test receiver');

    const back = await postForm(testApp, { ...admin, cookie: live.cookie }, '/console/mode', {
      mode: 'test',
      return_to: LIST,
    });
    const testAgain = { ...admin, cookie: cookiesFrom(back.headers['set-cookie'], live.cookie) };
    expect(caseIdsOf((await getPage(testApp, testAgain, LIST)).text)).toEqual([testCaseId]);
  });

  it('creates a live API key from the API keys page and lists each key with its mode', async () => {
    const created = await postForm(testApp, admin, '/console/api-keys', {
      label: 'Production system',
      roles: 'provider',
      mode: 'live',
    });
    expect(created.status).toBe(201);
    expect(created.text).toMatch(/id="api-key-secret">hak_live_/);
    const keys = await getPage(testApp, admin, '/console/api-keys');
    expect(keys.text).toMatch(
      /<td>Production system<\/td>[\s\S]*?<span class="badge badge-warn">live<\/span>/,
    );
    expect(keys.text).toMatch(/<td>reviewer<\/td>[\s\S]*?<span class="badge">test<\/span>/);
  });

  it('refuses a switch sent without the form token', async () => {
    const response = await testApp
      .http()
      .post('/console/mode')
      .set('Cookie', admin.cookie)
      .type('form')
      .send('mode=live&return_to=/console');
    expect(response.status).toBe(403);
  });
});
