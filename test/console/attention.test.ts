import { subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest } from '../support/case-requests';
import { ConnectorFailure, PayerDouble } from '../support/connector-doubles';
import { caseIdsOf, consoleGet, consolePost, signedInPerson, submitCase } from '../support/console-cases';
import type { ConsoleBrowser } from '../support/console-session';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { startTestWorker, TestWorker } from '../support/workers';

/** Fails every attempt, asking for a short wait so that the activity's retries run out within seconds. */
const UNAVAILABLE: ConnectorFailure = { transient: true, retryAfterMs: 100 };
const ATTENTION_LIST = '/console/attention';

describe("the console's cases needing attention", () => {
  const payer = new PayerDouble();
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let operator: ConsoleBrowser;

  beforeAll(async () => {
    // The first automatic retry comes after the tests: only an operator's action moves a case on.
    testApp = await startTestApp({ CASE_OUTAGE_FIRST_RETRY_MS: '600000' });
    const { config, db, temporalClient } = testApp;
    worker = await startTestWorker({ config, db, temporalClient, connectors: { payer } });
    account = await testApp.createAccount('Clinic Outage');
    const platform = await testApp.accounts.createAccount('Platform operators');
    operator = await signedInPerson(testApp, platform.id, ['operator'], 'On-call Operator');
  });
  afterEach(() => payer.reset());
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  /** A benefit verification whose payer stays down, once its case page shows attention. */
  async function caseWaitingOutAnOutage(): Promise<{ id: string; path: string }> {
    payer.failOn('checkBenefits', UNAVAILABLE);
    const { id } = await submitCase(testApp, account.keys.provider, '/benefit-verification', {
      ...benefitVerificationRequest(),
    });
    const path = `/console/benefit-verifications/${id}`;
    await eventually(
      async () => (await consoleGet(testApp, operator, path)).text.includes('Retry now'),
      40_000,
    );
    return { id, path };
  }
  const listedIds = async () => caseIdsOf((await consoleGet(testApp, operator, ATTENTION_LIST)).text);
  const readCase = async (id: string) =>
    (await testApp.http().get(`/benefit-verification/${id}`).set(bearer(account.keys.provider))).body.data;

  it('lists a case waiting out an outage for operators, with its reason and times but no patient data', async () => {
    const { id } = await caseWaitingOutAnOutage();
    await eventually(async () => (await listedIds()).includes(id));
    const page = (await consoleGet(testApp, operator, ATTENTION_LIST)).text;
    const row = new RegExp(`<tr>\\s*<td><a href="/console/benefit-verifications/${id}">[\\s\\S]*?</tr>`).exec(
      page,
    )?.[0];
    expect(row).toContain('Benefit verification');
    expect(row).toContain('processing');
    expect(row).toContain('<code>payer_unavailable</code>');
    expect(row?.match(/<time datetime=/g)).toHaveLength(2);
    expect(row).toContain(account.accountId);
    expect(page).not.toContain('Corisande');
    expect(page).toContain('href="/console/attention"');
    await consolePost(testApp, operator, `/console/benefit-verifications/${id}/fail`, {
      reason: 'outage_outlasting',
    });
  });

  it('lists the newest outage first', async () => {
    const older = await caseWaitingOutAnOutage();
    const newer = await caseWaitingOutAnOutage();
    await eventually(async () => {
      const ids = await listedIds();
      return ids.includes(older.id) && ids.includes(newer.id);
    });
    const ids = await listedIds();
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    for (const { id } of [older, newer]) {
      await consolePost(testApp, operator, `/console/benefit-verifications/${id}/fail`, {
        reason: 'outage_outlasting',
      });
    }
  });

  it("retries a case from its page once the payer is back, audited in the case's account, and drops it from the list", async () => {
    const { id, path } = await caseWaitingOutAnOutage();
    await eventually(async () => (await listedIds()).includes(id));
    payer.reset();
    const answer = await consolePost(testApp, operator, `${path}/retry`, {});
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${path}?done=retried`);
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'completed');
    await eventually(async () => !(await listedIds()).includes(id));
    const retries = await testApp.db.query<{ account_id: string; actor_type: string }>(
      `SELECT account_id, actor_type FROM audit_events WHERE action = 'case.retried_by_operator' AND target_id = $1`,
      [id],
    );
    expect(retries).toEqual([{ account_id: account.accountId, actor_type: 'operator' }]);
  });

  it('ends a case failed from its page with the reason chosen, and drops it from the list', async () => {
    const { id, path } = await caseWaitingOutAnOutage();
    await eventually(async () => (await listedIds()).includes(id));
    const answer = await consolePost(testApp, operator, `${path}/fail`, {
      reason: 'connector_misconfigured',
      note: 'Clearinghouse credentials expired',
    });
    expect(answer.status).toBe(303);
    expect((await consoleGet(testApp, operator, answer.headers.location!)).text).toContain(
      'The case was ended as failed',
    );
    const ended = await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'failed');
    expect(ended).toMatchObject({
      status: 'failed',
      failure: { code: 'failed_by_operator' },
      attention: null,
    });
    expect(JSON.stringify(ended)).not.toContain('Clearinghouse credentials');
    await eventually(async () => !(await listedIds()).includes(id));
    const failures = await testApp.db.query<{ account_id: string }>(
      `SELECT account_id FROM audit_events WHERE action = 'case.failed_by_operator' AND target_id = $1`,
      [id],
    );
    expect(failures).toEqual([{ account_id: account.accountId }]);
  });

  it('keeps a fail without a known reason on the case page, naming the field (400)', async () => {
    const { id, path } = await caseWaitingOutAnOutage();
    const answer = await consolePost(testApp, operator, `${path}/fail`, { reason: 'bored', note: 'kept' });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('reason');
    expect(answer.text).toContain('>kept</textarea>');
    expect((await readCase(id)).status).toBe('processing');
    await consolePost(testApp, operator, `${path}/fail`, { reason: 'outage_outlasting' });
  });

  it("shows the clinic's people the attention without the buttons, and refuses them the list, retry and fail (403)", async () => {
    const { id, path } = await caseWaitingOutAnOutage();
    const admin = await signedInPerson(testApp, account.accountId, ['admin']);
    const page = (await consoleGet(testApp, admin, path)).text;
    expect(page).toContain('Needs attention');
    expect(page).toContain('payer_unavailable');
    expect(page).not.toContain('Retry now');
    expect(page).not.toContain(`action="${path}/fail"`);
    expect(page).not.toContain('href="/console/attention"');
    expect((await consoleGet(testApp, admin, ATTENTION_LIST)).status).toBe(403);
    expect((await consolePost(testApp, admin, `${path}/retry`, {})).status).toBe(403);
    expect((await consolePost(testApp, admin, `${path}/fail`, { reason: 'outage_outlasting' })).status).toBe(
      403,
    );
    expect((await readCase(id)).status).toBe('processing');
    await consolePost(testApp, operator, `${path}/fail`, { reason: 'outage_outlasting' });
  });

  it('shows a retry of a case that needs no attention as a 409 notice on its page', async () => {
    const { id } = await submitCase(testApp, account.keys.provider, '/benefit-verification', {
      ...benefitVerificationRequest(),
    });
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'completed');
    const path = `/console/benefit-verifications/${id}`;
    const answer = await consolePost(testApp, operator, `${path}/retry`, {});
    expect(answer.status).toBe(409);
    expect(answer.text).toContain('nothing is left to retry or end');
    expect(answer.text).not.toContain('Retry now');
  });

  it("refuses an operator's retry that carries no CSRF token", async () => {
    const { id, path } = await caseWaitingOutAnOutage();
    const answer = await testApp
      .http()
      .post(`${path}/retry`)
      .set('Cookie', operator.cookie)
      .type('form')
      .send({});
    expect(answer.status).toBe(403);
    expect((await readCase(id)).attention).toMatchObject({ reason: 'payer_unavailable' });
    await consolePost(testApp, operator, `${path}/fail`, { reason: 'outage_outlasting' });
  });

  it("lists the notification that a case needs attention among its page's webhook deliveries", async () => {
    const clinic = await testApp.createAccount('Clinic Subscribed');
    const receiver = await subscribeReceiver(testApp, clinic.keys.provider, ['benefit_verification.updated']);
    const endpointId = [...receiver.endpointIds][0]!;
    payer.failOn('checkBenefits', UNAVAILABLE);
    const { id } = await submitCase(testApp, clinic.keys.provider, '/benefit-verification', {
      ...benefitVerificationRequest(),
    });
    const path = `/console/benefit-verifications/${id}`;
    /** The status each delivery to the clinic's endpoint announced, as the page's deliveries table shows it. */
    const announcedOn = (page: string) =>
      [
        ...page.matchAll(
          new RegExp(
            `<tr>\\s*<td><span class="[^"]*">([^<]+)</span></td>\\s*<td><code>${endpointId}</code>`,
            'g',
          ),
        ),
      ].map((row) => row[1]);
    const page = await eventually(async () => {
      const candidate = (await consoleGet(testApp, operator, path)).text;
      return candidate.includes('Retry now') && announcedOn(candidate).length > 0 ? candidate : undefined;
    }, 40_000);
    expect(announcedOn(page)).toEqual(['processing']);
    await consolePost(testApp, operator, `${path}/fail`, { reason: 'outage_outlasting' });
    await receiver.stop();
  });

  describe('on a short outage schedule', () => {
    let quickApp: TestApp;
    let quickWorker: TestWorker;

    beforeAll(async () => {
      quickApp = await startTestApp({
        CASE_OUTAGE_FIRST_RETRY_MS: '500',
        CASE_OUTAGE_LONGEST_RETRY_MS: '1000',
      });
      const { config, db, temporalClient } = quickApp;
      quickWorker = await startTestWorker({ config, db, temporalClient, connectors: { payer } });
    });
    afterAll(async () => {
      await quickWorker.stop();
      await quickApp.close();
    });

    it('drops a case from the list once its payer answers again and it goes on by itself', async () => {
      const clinic = await quickApp.createAccount('Clinic Recovering');
      const platform = await quickApp.accounts.createAccount('Platform operators');
      const onCall = await signedInPerson(quickApp, platform.id, ['operator']);
      const listed = async () => caseIdsOf((await consoleGet(quickApp, onCall, ATTENTION_LIST)).text);
      payer.failOn('checkBenefits', UNAVAILABLE);
      const { id } = await submitCase(quickApp, clinic.keys.provider, '/benefit-verification', {
        ...benefitVerificationRequest(),
      });
      await eventually(async () => (await listed()).includes(id), 40_000);
      payer.reset();
      await waitForStatus(quickApp, clinic.keys.provider, '/benefit-verification', id, 'completed');
      await eventually(async () => !(await listed()).includes(id));
    });
  });
});
