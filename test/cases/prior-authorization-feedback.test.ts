import { randomUUID } from 'node:crypto';

import pino from 'pino';

import { newId } from '../../domain/ids';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { ApiMetrics } from '../../src/metrics/api-metrics';
import { erasePatient, JsonObject, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  priorAuthorizationRequest,
  syntheticPatient,
} from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp, TEST_DATABASE } from '../support/test-app';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';
const RETENTION_DAYS = 7;
const OUTCOMES = ['awaiting_review', 'approved', 'denied', 'failed', 'cancelled'] as const;
type Outcome = (typeof OUTCOMES)[number];

/**
 * Feedback on prior authorizations on the real worker, database and dev server: kept beside each
 * case whatever its outcome, listed on it, audited, counted and reported, and removed with the case.
 */
describe('feedback on a prior authorization', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  const cases = {} as Record<Outcome, string>;

  beforeAll(async () => {
    testApp = await startTestApp({
      // The sandbox payer decides on its second check: at the least interval the setting takes, an
      // approved or denied case is decided 0.2 s after its submission rather than 0.6 s.
      PAYER_POLL_INTERVAL_MS: '100',
      CASE_RETENTION_DAYS: String(RETENTION_DAYS),
      // Each evaluation thread spends about a second of CPU loading the clinical models before its first
      // case, and these cases' evaluations are short: one thread reads them all as soon.
      CLINICAL_EVALUATION_THREADS: '1',
      ...TEST_DATABASE,
    });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    await Promise.all(OUTCOMES.map(async (outcome) => (cases[outcome] = await caseIn(outcome))));
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const submit = async (body: object = priorAuthorizationRequest()): Promise<string> => {
    const response = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };
  const awaitingReview = async (body?: object) => {
    const id = await submit(body);
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    return id;
  };
  const review = (id: string, decision: 'approve' | 'reject') =>
    testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision, reviewer: 'Dr. Reviewer' });

  /** A case brought to one outcome through the API, as a clinic would. */
  async function caseIn(outcome: Outcome): Promise<string> {
    const mock = outcome === 'denied' ? 'denied' : 'approved';
    const id = await awaitingReview(priorAuthorizationRequest({ mock_result: { result: mock } }));
    if (outcome === 'awaiting_review') return id;
    if (outcome === 'cancelled') {
      await testApp
        .http()
        .post(`${PATH}/${id}/cancel`)
        .set(bearer(account.keys.provider))
        .send({ reason: 'Prescription changed.' });
      await waitForStatus(testApp, account.keys.provider, PATH, id, 'cancelled');
      return id;
    }
    expect((await review(id, outcome === 'failed' ? 'reject' : 'approve')).status).toBe(200);
    await waitForStatus(
      testApp,
      account.keys.provider,
      PATH,
      id,
      outcome === 'failed' ? 'failed' : 'completed',
    );
    return id;
  }

  const read = async (id: string, key = account.keys.provider) =>
    (await testApp.http().get(`${PATH}/${id}`).set(bearer(key))).body.data as JsonObject;
  const giveFeedback = (id: string, body: object, key = account.keys.reviewer) =>
    testApp.http().post(`${PATH}/${id}/feedback`).set(bearer(key)).send(body);
  const otherAnswer = (answer: string) => (answer === 'yes' ? 'no' : 'yes');
  /** What of a case its workflow owns: feedback must leave all of it as it was. */
  const workflowState = async (id: string) => {
    const { feedback: _feedback, ...record } = await read(id);
    const described = await testApp.temporalClient.workflow.getHandle(id).describe();
    const [{ events }] = (await testApp.db.query<{ events: number }>(
      'SELECT count(*)::int AS events FROM webhook_events WHERE case_id = $1',
      [id],
    )) as [{ events: number }];
    return { record, historyLength: described.historyLength, events };
  };

  it.each(OUTCOMES)(
    'keeps feedback on a case %s, lists it on the case and leaves the case, its workflow and its events as they were',
    async (outcome) => {
      const id = cases[outcome];
      // Settled first: the last status's event may still be on its way when the case shows it.
      const before = await eventually(async () => {
        const [first, second] = [await workflowState(id), await workflowState(id)];
        return JSON.stringify(first) === JSON.stringify(second) ? second : undefined;
      });
      expect(before.record.criteria.length).toBeGreaterThan(0);
      const criterion = before.record.criteria[0];

      const given = await giveFeedback(id, {
        rating: 'incorrect',
        parts: ['criteria', 'determination'],
        comment: `The lab report was missed (${outcome}).`,
        criteria: [{ id: criterion.id, expected_answer: otherAnswer(criterion.answer) }],
      });

      expect(given.status).toBe(201);
      expect(given.body.data).toEqual({
        id: expect.stringMatching(/^fb_[0-9a-z]{26}$/),
        object: 'prior_authorization_feedback',
        rating: 'incorrect',
        parts: ['criteria', 'determination'],
        comment: `The lab report was missed (${outcome}).`,
        criteria: [{ id: criterion.id, expected_answer: otherAnswer(criterion.answer) }],
        author: { type: 'api_key', id: expect.stringMatching(/^key_/) },
        created_at: expect.any(String),
      });
      expect((await read(id)).feedback).toEqual([given.body.data]);
      expect(await workflowState(id)).toEqual(before);
    },
  );

  it('lists feedback oldest first, on the case and in the list, as an empty list on a prior authorization without it', async () => {
    const id = cases.awaiting_review;
    const second = await giveFeedback(id, { rating: 'correct' }, account.keys.provider);
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ parts: [], comment: null, criteria: [] });

    const listed = await testApp.http().get(`${PATH}?limit=100`).set(bearer(account.keys.provider));
    const fromList = (listed.body.data.data as JsonObject[]).find((record) => record.id === id)!;
    expect(fromList.feedback.map((feedback: JsonObject) => feedback.rating)).toEqual([
      'incorrect',
      'correct',
    ]);
    expect((await read(id)).feedback).toEqual(fromList.feedback);

    const untouched = await submit();
    expect((await read(untouched)).feedback).toEqual([]);
    const listedAgain = await testApp.http().get(`${PATH}?limit=100`).set(bearer(account.keys.provider));
    const untouchedListed = (listedAgain.body.data.data as JsonObject[]).find(
      (record) => record.id === untouched,
    )!;
    expect(untouchedListed.feedback).toEqual([]);
    const bv = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest());
    const bvRead = await testApp
      .http()
      .get(`/benefit-verification/${bv.body.data.id}`)
      .set(bearer(account.keys.provider));
    expect(bvRead.body.data).not.toHaveProperty('feedback');
  });

  it('answers the feedback on the case where a POST answers the case: its creation, a review and a cancellation', async () => {
    const created = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest());
    expect(created.status).toBe(201);
    expect(created.body.data.feedback).toEqual([]);

    const id = created.body.data.id as string;
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');
    const given = await giveFeedback(id, { rating: 'correct' });
    expect(given.status).toBe(201);
    const reviewed = await review(id, 'approve');
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.data.feedback).toEqual([given.body.data]);

    const cancelledId = await awaitingReview();
    const cancelled = await testApp
      .http()
      .post(`${PATH}/${cancelledId}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Prescription changed.' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.feedback).toEqual([]);
  });

  /** How many statements reading or writing feedback the app sends while `work` runs. */
  async function feedbackQueries(work: () => Promise<unknown>): Promise<number> {
    const query = jest.spyOn(testApp.db, 'query');
    try {
      await work();
      return query.mock.calls.filter(([sql]) => sql.includes('case_feedback')).length;
    } finally {
      query.mockRestore();
    }
  }

  it('reads the feedback of a whole page of prior authorizations in one query, of a new case in none, and shows feedback on the next read', async () => {
    const clinic = await testApp.createAccount('Clinic reading pages of feedback');
    const list = (limit: number) =>
      testApp.http().get(`${PATH}?limit=${limit}`).set(bearer(clinic.keys.provider));
    const ids: string[] = [];
    const creating = await feedbackQueries(async () => {
      for (let created = 0; created < 5; created++) {
        const response = await testApp
          .http()
          .post(PATH)
          .set(bearer(clinic.keys.provider))
          .send(priorAuthorizationRequest());
        expect(response.body.data.feedback).toEqual([]);
        ids.push(response.body.data.id as string);
      }
    });
    expect(creating).toBe(0);
    const given = new Map<string, JsonObject[]>();
    for (const id of ids) {
      for (const rating of ['correct', 'incorrect'] as const) {
        const response = await giveFeedback(id, { rating, parts: ['plan'] }, clinic.keys.reviewer);
        expect(response.status).toBe(201);
        given.set(id, [...(given.get(id) ?? []), response.body.data as JsonObject]);
      }
    }

    let page: JsonObject[] = [];
    const readingPage = await feedbackQueries(async () => (page = (await list(5)).body.data.data));
    const readingOne = await feedbackQueries(() => list(1));
    const readingCase = await feedbackQueries(() => read(ids[0]!, clinic.keys.provider));

    expect(page.map((record) => record.id).sort()).toEqual([...ids].sort());
    for (const record of page) expect(record.feedback).toEqual(given.get(record.id));
    expect({ readingPage, readingOne, readingCase }).toEqual({
      readingPage: 1,
      readingOne: 1,
      readingCase: 1,
    });
  });

  it('answers 404 for an id that is no prior authorization’s without reading any feedback', async () => {
    for (const id of [newId('benefitVerification'), 'pa_malformed']) {
      let response: { status: number } | undefined;
      const reading = await feedbackQueries(
        async () => (response = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))),
      );

      expect({ id, status: response?.status, reading }).toEqual({ id, status: 404, reading: 0 });
    }
  });

  it('refuses a criterion the case does not hold, naming it, and stores nothing', async () => {
    const id = cases.approved;
    const before = (await read(id)).feedback;
    const refused = await giveFeedback(id, {
      rating: 'partially_correct',
      parts: ['criteria'],
      criteria: [
        { id: (await read(id)).criteria[0].id, expected_answer: 'unknown' },
        { id: 'no_such_criterion', expected_answer: 'yes' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'criteria[1].id', issue: expect.stringContaining('no criterion of this case') }],
    });
    expect((await read(id)).feedback).toEqual(before);
  });

  it('refuses a rating other than correct that names no part, and answers outside the vocabulary', async () => {
    const noParts = await giveFeedback(cases.approved, { rating: 'incorrect', parts: [] });
    expect(noParts.status).toBe(400);
    expect(noParts.body.error.details).toEqual([
      { field: 'parts', issue: expect.stringContaining('at least one') },
    ]);
    const badAnswer = await giveFeedback(cases.approved, {
      rating: 'correct',
      parts: ['plan', 'plan'],
      criteria: [{ id: 'x', expected_answer: 'maybe' }],
    });
    expect(badAnswer.status).toBe(400);
    expect(badAnswer.body.error.details.map((detail: JsonObject) => detail.field).sort()).toEqual([
      'criteria[0].expected_answer',
      'parts',
    ]);
  });

  it("answers 404 for another account's case and for the case in the other mode, storing nothing", async () => {
    const other = await testApp.createAccount('Other clinic');
    const liveKeys = await testApp.createLiveKeys(account.accountId);
    const id = cases.denied;
    const count = async () =>
      (await testApp.db.query('SELECT id FROM case_feedback WHERE case_id = $1', [id])).length;
    const before = await count();
    for (const key of [other.keys.reviewer, liveKeys.reviewer]) {
      const refused = await giveFeedback(id, { rating: 'correct' }, key);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('not_found');
    }
    expect(await count()).toBe(before);
  });

  it('stores feedback sent twice under one Idempotency-Key once, and replays its answer', async () => {
    const id = cases.failed;
    const key = `feedback-${randomUUID()}`;
    const send = () =>
      testApp
        .http()
        .post(`${PATH}/${id}/feedback`)
        .set(bearer(account.keys.reviewer))
        .set('Idempotency-Key', key)
        .send({ rating: 'partially_correct', parts: ['plan'] });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const stored = await testApp.db.query('SELECT id FROM case_feedback WHERE id = $1', [first.body.data.id]);
    expect(stored).toHaveLength(1);
  });

  it('refuses feedback past the 100 a case holds with 409, storing nothing', async () => {
    const id = await submit();
    const first = await giveFeedback(id, { rating: 'correct' });
    expect(first.status).toBe(201);
    await testApp.db.query(
      `INSERT INTO case_feedback (id, account_id, livemode, case_id, rating, parts, drug_ref, drug_sealed,
         criteria_marks, feedback_sealed, author_type, author_id, created_at)
       SELECT id || '_' || n, account_id, livemode, case_id, rating, parts, drug_ref, drug_sealed, criteria_marks,
         feedback_sealed, author_type, author_id, created_at
       FROM case_feedback, generate_series(2, 100) AS n WHERE id = $1`,
      [first.body.data.id],
    );
    const refused = await giveFeedback(id, { rating: 'correct' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('100'),
    });
    expect((await read(id)).feedback).toHaveLength(100);
  });

  it('audits the feedback on the case without its comment, and keeps the comment sealed at rest', async () => {
    const id = cases.cancelled;
    const comment = `Sealed comment ${randomUUID()}`;
    const given = await giveFeedback(id, { rating: 'incorrect', parts: ['documents'], comment });
    expect(given.status).toBe(201);
    const audited = await testApp.db.query<JsonObject>(
      `SELECT actor_type, actor_id, target_object, target_id, details FROM audit_events
       WHERE action = 'case.feedback_recorded' AND target_id = $1`,
      [id],
    );
    expect(audited.length).toBeGreaterThan(0);
    expect(audited[audited.length - 1]).toMatchObject({
      actor_type: 'api_key',
      target_object: 'prior_authorization',
      target_id: id,
    });
    expect(JSON.stringify(audited)).not.toContain(comment);
    const [row] = await testApp.db.query<JsonObject>('SELECT * FROM case_feedback WHERE id = $1', [
      given.body.data.id,
    ]);
    expect(JSON.stringify(row)).not.toContain(comment);
    const box = new SecretBox(testApp.config.encryption!);
    expect(box.openText(row!.feedback_sealed)).toContain(comment);
  });

  it('counts feedback in the metrics by rating and part, naming no account or case', async () => {
    const metrics = new ApiMetrics(async () => [], pino({ level: 'silent' }));
    const { body } = await metrics.render();
    expect(body).toMatch(/prior_authorization_feedback_total\{rating="incorrect"\} \d+/);
    expect(body).toMatch(
      /prior_authorization_feedback_parts_total\{rating="incorrect",part="criteria"\} \d+/,
    );
    expect(body).not.toContain(account.accountId);
    expect(body).not.toContain(cases.approved);
  });

  it("reports the account's feedback by drug and criterion, over the period asked, for admins only", async () => {
    const report = async (query = '') => {
      const response = await testApp
        .http()
        .get(`/prior-authorization-feedback/report${query}`)
        .set(bearer(account.keys.admin));
      expect(response.status).toBe(200);
      return response.body.data as JsonObject;
    };
    const ozempic = (data: JsonObject) =>
      (data.drugs as JsonObject[]).find((drug) => drug.drug.key === 'name:ozempic 1 mg pen');
    const id = await awaitingReview(
      priorAuthorizationRequest({
        prescription: { drug_name: 'Wegovy 2.4 mg pen', ndc: '00169-4524-14', quantity: 1 },
      }),
    );
    const criterion = (await read(id)).criteria[0];
    const before = await report();
    await giveFeedback(id, {
      rating: 'incorrect',
      parts: ['criteria'],
      criteria: [{ id: criterion.id, expected_answer: otherAnswer(criterion.answer) }],
    });
    await giveFeedback(id, {
      rating: 'partially_correct',
      parts: ['plan'],
      criteria: [{ id: criterion.id, expected_answer: criterion.answer }],
    });

    const after = await report();
    expect(after).toMatchObject({
      object: 'prior_authorization_feedback_report',
      livemode: false,
      feedback_count: before.feedback_count + 2,
    });
    expect(ozempic(after)).toEqual(ozempic(before));
    const wegovy = (after.drugs as JsonObject[]).find((drug) => drug.drug.key === 'ndc:00169-4524-14');
    expect(wegovy).toEqual({
      drug: { key: 'ndc:00169-4524-14', name: 'Wegovy 2.4 mg pen', ndc: '00169-4524-14' },
      feedback_count: 2,
      ratings: { correct: 0, partially_correct: 1, incorrect: 1 },
      parts: { plan: 1, criteria: 1, documents: 0, determination: 0 },
      criteria: [{ id: criterion.id, question: criterion.question, named: 2, expected_other_answer: 1 }],
    });
    const ozempicCriteria = ozempic(after)!.criteria as JsonObject[];
    expect(ozempicCriteria.some((named) => named.expected_other_answer > 0)).toBe(true);
    expect(JSON.stringify(after)).not.toContain('lab report was missed');

    const earlier = await report(`?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z`);
    expect(earlier).toMatchObject({ feedback_count: 0, drugs: [] });
    const backwards = await testApp
      .http()
      .get('/prior-authorization-feedback/report?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z')
      .set(bearer(account.keys.admin));
    expect(backwards.status).toBe(400);
    const notAdmin = await testApp
      .http()
      .get('/prior-authorization-feedback/report')
      .set(bearer(account.keys.reviewer));
    expect(notAdmin.status).toBe(403);
  });

  it("removes a case's feedback with the case, on the retention purge and on a patient's erasure", async () => {
    const count = async (id: string) =>
      (await testApp.db.query('SELECT id FROM case_feedback WHERE case_id = $1', [id])).length;
    const purged = cases.approved;
    expect(await count(purged)).toBeGreaterThan(0);
    await testApp.db.query(
      `UPDATE case_summaries SET updated_at = now() - $2 * interval '1 day' WHERE case_id = $1`,
      [purged, RETENTION_DAYS + 1],
    );
    await testApp.temporalClient.workflow.execute('caseRetentionWorkflow', {
      workflowId: `case-retention-test-${randomUUID()}`,
      taskQueue: testApp.config.temporal.taskQueue,
    });
    expect(await count(purged)).toBe(0);

    const internalId = `mrn-feedback-${randomUUID().slice(0, 8)}`;
    const erased = await awaitingReview(
      priorAuthorizationRequest({ patient: syntheticPatient({ internal_id: internalId }) }),
    );
    expect((await giveFeedback(erased, { rating: 'correct' })).status).toBe(201);
    await erasePatient(testApp, account.keys.admin, internalId);
    expect(await count(erased)).toBe(0);
    const gone = await testApp.http().get(`${PATH}/${erased}`).set(bearer(account.keys.provider));
    expect(gone.status).toBe(404);
  });
});
