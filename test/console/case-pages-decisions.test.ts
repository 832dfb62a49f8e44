import {
  authorizationFor,
  benefitVerificationRequest,
  enrollmentPatient,
  priorAuthorizationRequest,
  syntheticPatient,
  WITHOUT_A1C,
} from '../support/case-requests';
import { consoleGet, consolePost, signedInPerson, submitCase, timelineOf } from '../support/console-cases';
import type { ConsoleBrowser } from '../support/console-session';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const MYABBVIE_ASSIST = 'prog_01jnnmj58jf1nen1dn9mmkb0r6';
const TEMPORAL_WEB_URL = 'https://temporal.example.test';

/** An uninsured patient's enrollment, for which the program asks for proof of income. */
function enrollmentNeedingIncome() {
  return {
    programId: MYABBVIE_ASSIST,
    ...authorizationFor(MYABBVIE_ASSIST),
    patient: enrollmentPatient(),
    prescription: { drug_name: 'Humira' },
    evidence: [
      { type: 'uninsured_attestation', date_created: '2026-11-01T10:00:00Z', content: { insured: false } },
    ],
  };
}

describe('decisions of other case types, and operators, in the console', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp({ TEMPORAL_WEB_URL });
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic Decisions');
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  /** A verification awaiting a manual result, and its console page once the form shows. */
  async function manualVerificationPage(
    reviewer: ConsoleBrowser,
    drugs = [{ name: 'Ozempic', quantity: 1 }],
  ) {
    const { id } = await submitCase(
      testApp,
      account.keys.provider,
      '/benefit-verification',
      benefitVerificationRequest({
        drugs,
        mock_result: { status: 'completed', case: 'manual_verification_required' },
      }),
    );
    const path = `/console/benefit-verifications/${id}`;
    const form = await eventually(async () => {
      const page = await consoleGet(testApp, reviewer, path);
      return page.text.includes('Complete verification') ? page.text : undefined;
    });
    return { path, form };
  }

  it('completes a benefit verification that needs a manual verification', async () => {
    const reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    const { path } = await manualVerificationPage(reviewer);
    const answer = await consolePost(testApp, reviewer, `${path}/outcome`, {
      status: 'completed',
      coverage_status: 'covered',
      notes: 'Confirmed by phone with the plan.',
    });
    expect(answer.status).toBe(303);
    const page = await consoleGet(testApp, reviewer, answer.headers.location!);
    expect(page.text).toContain('The outcome was recorded.');
    expect(timelineOf(page.text)).toEqual(['processing', 'awaiting_review', 'completed']);
    expect(page.text).toContain('Confirmed by phone with the plan.');
  });

  it('records a manual verification with one row of results per requested drug', async () => {
    const reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    const { path, form } = await manualVerificationPage(reviewer, [
      { name: 'Ozempic', quantity: 1 },
      { name: 'Lantus', quantity: 1 },
    ]);
    expect(form).toMatch(/<th scope="row">Ozempic<input type="hidden" name="drugs.0.drug" value="Ozempic"/);
    expect(form).toContain('aria-label="Coinsurance (%): Lantus"');

    const ozempicCovered = {
      status: 'completed',
      coverage_status: 'covered',
      'drugs.0.drug': 'Ozempic',
      'drugs.0.coverage': 'covered',
      'drugs.0.prior_authorization_required': 'yes',
    };
    const invalid = await consolePost(testApp, reviewer, `${path}/outcome`, {
      ...ozempicCovered,
      'drugs.0.coinsurance_percent': '120',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('drugs[0].coinsurance_percent');

    const answer = await consolePost(testApp, reviewer, `${path}/outcome`, {
      ...ozempicCovered,
      'deductible.total_cents': '1500',
      'deductible.met_cents': '420.50',
      'drugs.0.copay.amount_cents': '45',
      'drugs.0.copay.supply_duration_days': '30',
      'drugs.0.coinsurance_percent': '20',
      'drugs.0.quantity_limit.quantity': '4',
      'drugs.0.quantity_limit.period_days': '28',
      'drugs.1.drug': 'Lantus',
      'drugs.1.prior_authorization_required': 'not_applicable',
    });
    expect(answer.status).toBe(303);
    const page = await consoleGet(testApp, reviewer, answer.headers.location!);
    expect(timelineOf(page.text)).toEqual(['processing', 'awaiting_review', 'completed']);
    expect(page.text).toContain('$45.00 / 30 days');
    expect(page.text).toContain('20 %');
    expect(page.text).toContain('4 per 28 days');
    expect(page.text).toContain('Not recorded by the manual verification.');
    expect(page.text).toContain('$1079.50');
  });

  it('sends the information an enrollment asked for, which moves it on', async () => {
    const provider = await signedInPerson(testApp, account.accountId, ['provider']);
    const { id } = await submitCase(
      testApp,
      account.keys.provider,
      '/patient-enrollment',
      enrollmentNeedingIncome(),
    );
    const path = `/console/enrollments/${id}`;
    const waiting = await consoleGet(testApp, provider, path);
    expect(waiting.text).toContain('evidence[type=income_verification]');
    const invalid = await consolePost(testApp, provider, `${path}/information`, {
      'evidence.type': 'income_verification',
      'evidence.date_created': '2026-11-01',
      'evidence.content': 'not json',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('evidence[0].content');
    const sent = await consolePost(testApp, provider, `${path}/information`, {
      'evidence.type': 'income_verification',
      'evidence.date_created': '2026-11-01',
      'evidence.content': '{"household_size": 2, "annual_household_income_cents": 3000000}',
    });
    expect(sent.status).toBe(303);
    const page = await consoleGet(testApp, provider, sent.headers.location!);
    expect(page.text).toContain('The information was sent to the program.');
    expect(timelineOf(page.text).slice(0, 3)).toEqual(['processing', 'awaiting_review', 'awaiting_outcome']);
  });

  it('clears a questionnaire answer whose field the reviewer empties, leaving its item pending', async () => {
    const reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    const { id } = await submitCase(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      priorAuthorizationRequest(WITHOUT_A1C),
    );
    const caseOf = async () =>
      (await testApp.http().get(`/prior-authorization/${id}`).set(bearer(account.keys.provider))).body.data;
    await eventually(async () => ((await caseOf()).status === 'awaiting_review' ? true : undefined));
    const path = `/console/prior-authorizations/${id}/questionnaire`;
    // The form as a browser sends it: every field, the payer's CQL answers as shown.
    const form = (a1c: string) => ({
      'questionnaire.adult': 'yes',
      'questionnaire.type2_diabetes': 'yes',
      'questionnaire.a1c_at_least_7': a1c,
      'questionnaire.metformin_trial': 'yes',
    });
    expect((await consolePost(testApp, reviewer, path, form('yes'))).status).toBe(303);

    const cleared = await consolePost(testApp, reviewer, path, form(''));

    expect(cleared.status).toBe(303);
    const { questionnaire } = await caseOf();
    expect(questionnaire.pending).toEqual(['a1c_at_least_7']);
    expect(
      questionnaire.items.map((item: { link_id: string; origin: string | null }) => [
        item.link_id,
        item.origin,
      ]),
    ).toEqual([
      ['adult', 'auto'],
      ['type2_diabetes', 'auto'],
      ['a1c_at_least_7', null],
      ['metformin_trial', 'auto'],
    ]);
  });

  it('refuses a decision the case no longer takes with a 409 notice on the case page', async () => {
    const reviewer = await signedInPerson(testApp, account.accountId, ['reviewer']);
    const { id } = await submitCase(
      testApp,
      account.keys.provider,
      '/benefit-verification',
      benefitVerificationRequest({ mock_result: { status: 'failed' } }),
    );
    const path = `/console/benefit-verifications/${id}`;
    await eventually(async () =>
      timelineOf((await consoleGet(testApp, reviewer, path)).text).includes('failed'),
    );
    const answer = await consolePost(testApp, reviewer, `${path}/outcome`, {
      status: 'completed',
      coverage_status: 'covered',
    });
    expect(answer.status).toBe(409);
    expect(answer.text).toContain('This case is failed; it accepts no more decisions.');
    expect(answer.text).toContain('<h2 id="timeline-heading">Status history</h2>');
  });

  it('shows the per-drug results of a benefit verification and of a clinical eligibility check', async () => {
    const provider = await signedInPerson(testApp, account.accountId, ['provider']);
    const verification = await submitCase(
      testApp,
      account.keys.provider,
      '/benefit-verification',
      benefitVerificationRequest({ drugs: [{ name: 'Ozempic', quantity: 1 }] }),
    );
    const eligibility = await submitCase(testApp, account.keys.provider, '/clinical-eligibility', {
      patient: syntheticPatient(),
      drugs: [{ name: 'Ozempic', quantity: 1 }],
      diagnoses: [{ code: 'E11.9' }],
    });
    const completedPage = (path: string) =>
      eventually(async () => {
        const page = await consoleGet(testApp, provider, path);
        return timelineOf(page.text).includes('completed') ? page.text : undefined;
      });
    const verified = await completedPage(`/console/benefit-verifications/${verification.id}`);
    expect(verified).toMatch(/<caption>\s*Drug coverage\s*<\/caption>/);
    expect(verified).toMatch(/<td>Ozempic<\/td>/);
    expect(verified).toMatch(/<th scope="col">Benefit<\/th>/);
    expect(verified).toMatch(/<td>pharmacy<\/td>/);
    const evaluated = await completedPage(`/console/clinical-eligibility/${eligibility.id}`);
    expect(evaluated).toMatch(/<caption>\s*Eligibility per drug\s*<\/caption>/);
    expect(evaluated).toMatch(/<td>Ozempic<\/td>/);
  });

  it("shows a platform operator any account's case, audited in that account, with its Temporal Web link", async () => {
    const { id } = await submitCase(
      testApp,
      account.keys.provider,
      '/benefit-verification',
      benefitVerificationRequest(),
    );
    const link = `${TEMPORAL_WEB_URL}/namespaces/${testApp.config.temporal.namespace}/workflows/${id}`;
    const platform = await testApp.accounts.createAccount('Platform operators');
    const operator = await signedInPerson(testApp, platform.id, ['operator']);
    const provider = await signedInPerson(testApp, account.accountId, ['provider']);
    expect((await consoleGet(testApp, operator, `/console/benefit-verifications/${id}`)).text).toContain(
      `href="${link}"`,
    );
    expect((await consoleGet(testApp, provider, `/console/benefit-verifications/${id}`)).text).not.toContain(
      'Temporal Web',
    );
    const reads = await testApp.db.query<{ account_id: string; actor_type: string }>(
      `SELECT account_id, actor_type FROM audit_events WHERE action = 'case.read' AND target_id = $1`,
      [id],
    );
    expect(reads).toContainEqual({ account_id: account.accountId, actor_type: 'operator' });
  });
});
