import { CaseSummariesRepository, CaseSummary } from '../../infrastructure/cases/case-summaries.repository';
import { PATIENT_REF } from '../../domain/temporal/search-attributes';
import { CaseSummariesService } from '../../src/cases/case-summaries.service';
import { patientRefOf } from '../../src/cases/cases.service';
import { JsonObject } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
  provider,
  syntheticPatient,
} from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const FINAL_STATUSES = ['completed', 'failed', 'cancelled'];

/**
 * The case summaries as the lifecycle writes them from real workflows, on the real worker and dev
 * server, read the way the console reads them.
 */
describe('case summaries written by the case lifecycle', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let summaries: CaseSummariesRepository;
  let consoleReads: CaseSummariesService;

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    summaries = new CaseSummariesRepository(testApp.db);
    consoleReads = new CaseSummariesService(summaries, testApp.config.cases.patientRefKey!);
    // A log of every write that took effect, so moves too quick to poll for can still be seen.
    await testApp.db.query(
      'CREATE TABLE summary_writes (n serial PRIMARY KEY, case_id text, status text, sequence integer)',
    );
    await testApp.db.query(`CREATE FUNCTION log_summary_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO summary_writes (case_id, status, sequence) VALUES (NEW.case_id, NEW.status, NEW.sequence);
        RETURN NEW;
      END $$`);
    await testApp.db.query(`CREATE TRIGGER case_summaries_writes AFTER INSERT OR UPDATE ON case_summaries
      FOR EACH ROW EXECUTE FUNCTION log_summary_write()`);
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const submit = async (path: string, body: object): Promise<JsonObject> => {
    const response = await testApp.http().post(path).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const get = async (path: string, id: string): Promise<JsonObject> =>
    (await testApp.http().get(`${path}/${id}`).set(bearer(account.keys.provider))).body.data;
  const review = (id: string) =>
    testApp
      .http()
      .post(`/prior-authorization/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });

  /** The summary once it shows `status`. */
  const summaryIn = (id: string, status: string): Promise<CaseSummary> =>
    eventually(async () => {
      const summary = await summaries.find(account.accountId, id);
      return summary?.status === status ? summary : undefined;
    });

  /** The statuses and sequences each written summary of the case held, in the order they were written. */
  const writesOf = async (id: string) => {
    const rows = await testApp.db.query<{ status: string; sequence: number }>(
      'SELECT status, sequence FROM summary_writes WHERE case_id = $1 ORDER BY n',
      [id],
    );
    return rows.filter(
      (row, index) => index === 0 || JSON.stringify(row) !== JSON.stringify(rows[index - 1]),
    );
  };

  /** Waits for a case to end, then for its summary to say the same as the case. */
  const endedWithItsSummary = async (path: string, id: string) => {
    const record = await eventually(async () => {
      const current = await get(path, id);
      return FINAL_STATUSES.includes(current.status) ? current : undefined;
    });
    const summary = await summaryIn(id, record.status);
    return { record, summary };
  };

  it('follows a prior authorization through every status, each move written once with its sequence', async () => {
    const created = await submit('/prior-authorization', priorAuthorizationRequest());
    const awaitingReview = await summaryIn(created.id, 'awaiting_review');
    expect(awaitingReview).toMatchObject({
      account_id: account.accountId,
      object: 'prior_authorization',
      sequence: 2,
      created_at: created.created_at,
      due_at: null,
      review_due_at: created.review_due_at,
      overdue: false,
    });
    expect((await review(created.id)).status).toBe(200);

    const { record, summary: completed } = await endedWithItsSummary('/prior-authorization', created.id);
    expect(completed).toMatchObject({ status: 'completed', sequence: 4, updated_at: record.updated_at });
    expect(await writesOf(created.id)).toEqual([
      { status: 'processing', sequence: 1 },
      { status: 'awaiting_review', sequence: 2 },
      { status: 'awaiting_outcome', sequence: 3 },
      { status: 'completed', sequence: 4 },
    ]);
  });

  it('writes a benefit verification from its creation, though it announces only its end', async () => {
    const created = await submit('/benefit-verification', benefitVerificationRequest());
    const { record, summary } = await endedWithItsSummary('/benefit-verification', created.id);
    expect(summary).toMatchObject({
      object: 'benefit_verification',
      status: record.status,
      sequence: record.status_history.length,
      due_at: null,
    });
    expect((await writesOf(created.id))[0]).toEqual({ status: 'processing', sequence: 1 });
  });

  it('writes a clinical eligibility check to its final status', async () => {
    const created = await submit('/clinical-eligibility', {
      patient: syntheticPatient(),
      drugs: [{ name: 'Ozempic', quantity: 1 }],
      diagnoses: [{ code: 'E11.9' }],
    });
    const { record, summary } = await endedWithItsSummary('/clinical-eligibility', created.id);
    expect(summary).toMatchObject({
      object: 'clinical_eligibility',
      status: record.status,
      sequence: record.status_history.length,
    });
    expect((await writesOf(created.id)).map((write) => write.status)).toEqual(
      record.status_history.map((change: JsonObject) => change.status),
    );
  });

  it('writes a patient enrollment to its final status', async () => {
    const created = await submit(
      '/patient-enrollment',
      patientEnrollmentRequest({ metadata: { patient_id: 'mrn-summary-enroll-1' } }),
    );
    const { record, summary } = await endedWithItsSummary('/patient-enrollment', created.id);
    expect(summary).toMatchObject({
      object: 'patient_enrollment',
      status: record.status,
      sequence: record.status_history.length,
      patient_ref: patientRefOf(
        testApp.config.cases.patientRefKey!,
        account.accountId,
        'mrn-summary-enroll-1',
      ),
    });
  });

  it('queues a prior authorization for review until a reviewer decides it', async () => {
    const created = await submit('/prior-authorization', priorAuthorizationRequest({ urgency: 'expedited' }));
    await summaryIn(created.id, 'awaiting_review');
    const queued = async () =>
      (
        await consoleReads.reviewQueue({ accountId: account.accountId, livemode: false }, { limit: 100 })
      ).data.find((entry) => entry.case_id === created.id);
    expect(await queued()).toMatchObject({
      due_at: null,
      review_due_at: created.review_due_at,
      queue_due_at: created.review_due_at,
      overdue: false,
    });

    expect((await review(created.id)).status).toBe(200);
    await eventually(async () => (await queued()) === undefined);
  });

  it("lists a patient's cases by the reference the provider knows them by, with the API's own hash", async () => {
    const patient = syntheticPatient();
    const [first, second] = [
      await submit('/prior-authorization', priorAuthorizationRequest({ patient })),
      await submit('/benefit-verification', benefitVerificationRequest({ patient })),
    ];
    await submit('/prior-authorization', priorAuthorizationRequest());
    const listed = await eventually(async () => {
      const page = await consoleReads.list(
        { accountId: account.accountId, livemode: false },
        { patientInternalId: patient.internal_id },
        { limit: 10 },
      );
      return page.data.length === 2 ? page.data : undefined;
    });
    expect(listed.map((summary) => summary.case_id)).toEqual([second.id, first.id]);
    const { typedSearchAttributes } = await testApp.temporalClient.workflow.getHandle(first.id).describe();
    expect(listed[1]!.patient_ref).toBe(typedSearchAttributes.get(PATIENT_REF));
  });

  it('keeps nothing of the patient, the drug or the notes in summaries or feedback: only ids, statuses, dates, counts and keyed hashes', async () => {
    const patient = syntheticPatient({
      first_name: 'Jane',
      last_name: 'Doe',
      date_of_birth: '1961-07-23',
      internal_id: 'mrn-jane-doe-0001',
    });
    const created = await submit(
      '/prior-authorization',
      priorAuthorizationRequest({ patient, provider: { ...provider, last_name: 'Providerson' } }),
    );
    await summaryIn(created.id, 'awaiting_review');
    const [row] = await testApp.db.query<Record<string, unknown>>(
      'SELECT * FROM case_summaries WHERE case_id = $1',
      [created.id],
    );
    // The case object is there only sealed: ciphertext, whose random letters are no plaintext to search.
    const { case_id, account_id, patient_ref, case_sealed, ...rest } = row!;
    expect(case_sealed).toMatch(/^[\w-]+:[A-Za-z0-9+/]+=*$/);
    expect({ case_id, account_id }).toEqual({ case_id: created.id, account_id: account.accountId });
    expect(patient_ref).toBe(
      patientRefOf(testApp.config.cases.patientRefKey!, account.accountId, 'mrn-jane-doe-0001'),
    );
    const stored = JSON.stringify(rest).toLowerCase();
    for (const phi of ['jane', 'doe', '1961-07-23', 'mrn-', 'ozempic', 'metformin', 'providerson', '62701']) {
      expect(stored).not.toContain(phi);
    }

    // Feedback names its case too: the drug and the criterion's question are only sealed there.
    const [criterion] = await eventually(async () => {
      const { status, criteria } = await get('/prior-authorization', created.id);
      return status === 'awaiting_review' ? (criteria as JsonObject[]) : undefined;
    });
    expect(criterion).toBeDefined();
    const feedback = await testApp
      .http()
      .post(`/prior-authorization/${created.id}/feedback`)
      .set(bearer(account.keys.reviewer))
      .send({
        rating: 'incorrect',
        parts: ['criteria'],
        comment: 'Jane Doe took metformin in 2019',
        criteria: [{ id: criterion.id, expected_answer: criterion.answer === 'yes' ? 'no' : 'yes' }],
      });
    expect(feedback.status).toBe(201);
    const [feedbackRow] = await testApp.db.query<Record<string, unknown>>(
      'SELECT * FROM case_feedback WHERE case_id = $1',
      [created.id],
    );
    const { feedback_sealed, drug_sealed, drug_ref, ...open } = feedbackRow!;
    expect([feedback_sealed, drug_sealed]).toEqual([
      expect.stringMatching(/^[\w-]+:[A-Za-z0-9+/]+=*$/),
      expect.stringMatching(/^[\w-]+:[A-Za-z0-9+/]+=*$/),
    ]);
    expect(drug_ref).toMatch(/^[0-9a-f]{32}$/);
    const feedbackStored = JSON.stringify(open).toLowerCase();
    for (const phi of ['jane', 'doe', 'ozempic', 'metformin', criterion.question.toLowerCase()]) {
      expect(feedbackStored).not.toContain(phi);
    }
  });
});

describe('case summaries of prior authorizations past their due time', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let consoleReads: CaseSummariesService;

  beforeAll(async () => {
    testApp = await startTestApp({
      PA_REVIEW_DUE_MS: '2000',
      PA_STANDARD_DUE_MS: '2000',
      PAYER_POLL_INTERVAL_MS: '60000',
    });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    consoleReads = new CaseSummariesService(
      new CaseSummariesRepository(testApp.db),
      testApp.config.cases.patientRefKey!,
    );
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const submit = async () =>
    (
      await testApp
        .http()
        .post('/prior-authorization')
        .set(bearer(account.keys.provider))
        .send(priorAuthorizationRequest())
    ).body.data as JsonObject;
  const summaryOf = (id: string) => new CaseSummariesRepository(testApp.db).find(account.accountId, id);

  it('marks a case overdue in the review queue once its review target passes, before the case itself says so', async () => {
    const { id } = await submit();
    const entry = await eventually(
      async () =>
        (
          await consoleReads.reviewQueue({ accountId: account.accountId, livemode: false }, { limit: 100 })
        ).data.find((queued) => queued.case_id === id && queued.overdue),
      10_000,
    );
    expect(entry.status).toBe('awaiting_review');
    expect((await summaryOf(id))?.overdue).toBe(false);
  });

  it('writes the overdue flag the case sets while it awaits the payer, within the same move', async () => {
    const { id } = await submit();
    await eventually(async () => (await summaryOf(id))?.status === 'awaiting_review');
    await testApp
      .http()
      .post(`/prior-authorization/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
    const overdue = await eventually(async () => {
      const summary = await summaryOf(id);
      return summary?.overdue ? summary : undefined;
    }, 10_000);
    expect(overdue).toMatchObject({ status: 'awaiting_outcome', sequence: 3 });
  });
});
