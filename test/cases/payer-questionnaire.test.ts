import { reviewDecisionSignal } from '../../workflows/prior-authorization.messages';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest, WITHOUT_A1C, XELJANZ_MEETING_CRITERIA } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';
const OZEMPIC_QUESTIONNAIRE = 'http://sandbox.healthcare-access-api.example/fhir/Questionnaire/ozempic';

/**
 * Issue 45: a sandbox prior authorization runs CRD → DTR → review → PAS. The sandbox payer's CRD
 * answer names the drug's questionnaire, its DTR service serves the package generated from the
 * catalog's criteria, and the payer's CQL prefills it from the record before review.
 */
let testApp: TestApp;
let worker: TestWorker;
let account: TestAccount;

beforeAll(async () => {
  // The sandbox payer decides on its second check: a short interval completes approved cases quickly.
  testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300' });
  worker = await testApp.startWorker();
  account = await testApp.createAccount();
});
afterAll(async () => {
  await worker.stop();
  await testApp.close();
});

const submit = async (overrides: Record<string, unknown> = {}): Promise<JsonObject> => {
  const response = await testApp
    .http()
    .post(PATH)
    .set(bearer(account.keys.provider))
    .send(priorAuthorizationRequest(overrides));
  expect(response.status).toBe(201);
  return response.body.data as JsonObject;
};
const settled = (id: string, status: string) =>
  waitForStatus(testApp, account.keys.provider, PATH, id, status);
const answer = (id: string, body: object, key = account.keys.provider) =>
  testApp.http().post(`${PATH}/${id}/questionnaire`).set(bearer(key)).send(body);
const approve = (id: string) =>
  testApp
    .http()
    .post(`${PATH}/${id}/review`)
    .set(bearer(account.keys.reviewer))
    .send({ decision: 'approve', reviewer: 'Reviewer One' });
const itemsOf = (record: JsonObject) => (record.questionnaire as JsonObject).items as JsonObject[];

describe("a sandbox prior authorization answers its payer's questionnaire before review", () => {
  it('reaches review with every required item answered by the payer’s CQL when the record meets the criteria', async () => {
    const { id } = await submit();
    const prepared = await settled(id, 'awaiting_review');
    const questionnaire = prepared.questionnaire as JsonObject;
    expect(questionnaire).toMatchObject({
      adaptive: false,
      status: 'completed',
      pending: [],
      prefill_failure: null,
    });
    expect(questionnaire.canonical).toContain(OZEMPIC_QUESTIONNAIRE);
    expect(itemsOf(prepared).map((item) => [item.link_id, item.answer, item.origin])).toEqual([
      ['adult', true, 'auto'],
      ['type2_diabetes', true, 'auto'],
      ['a1c_at_least_7', true, 'auto'],
      ['metformin_trial', true, 'auto'],
    ]);
  });

  it('is submitted to the payer once approved, with the questionnaire it answered', async () => {
    const { id } = await submit();
    await settled(id, 'awaiting_review');
    expect((await approve(id)).status).toBe(200);
    const submitted = await settled(id, 'completed');
    expect(submitted.review).toMatchObject({ decision: 'approve' });
    expect(submitted.questionnaire).toMatchObject({ status: 'completed' });
  });

  it('lands in review with exactly the item the record cannot answer', async () => {
    const { id } = await submit(WITHOUT_A1C);
    const prepared = await settled(id, 'awaiting_review');
    expect(prepared.questionnaire).toMatchObject({ status: 'in_progress', pending: ['a1c_at_least_7'] });
    const moves = prepared.status_history as JsonObject[];
    expect(moves[moves.length - 1].reason).toContain('a1c_at_least_7');
  });

  it('refuses an approval while a required item is unanswered, naming it', async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    const refused = await approve(id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('a1c_at_least_7');
  });

  it('drops an approval signalled while an item is pending, and still takes a rejection', async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    const handle = testApp.temporalClient.workflow.getHandle(id);
    await handle.signal(reviewDecisionSignal, { decision: 'approve', reviewer: 'Operator on call' });
    const rejected = await testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'reject', reviewer: 'Reviewer One' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'failed', review: { decision: 'reject' } });
  });

  it('answers 400 naming the link_id when an answer has the wrong type', async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    const refused = await answer(id, { answers: [{ link_id: 'a1c_at_least_7', value: 'yes' }] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('a1c_at_least_7');
  });

  it('answers 400 naming an item the questionnaire does not have', async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    const refused = await answer(id, { answers: [{ link_id: 'no_such_item', value: true }] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('no_such_item');
  });

  it("records a person's answer as manual, with its author, and completes the questionnaire", async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    const answered = await answer(id, {
      answers: [{ link_id: 'a1c_at_least_7', value: true }],
      author: 'Dr. Example',
    });
    expect(answered.status).toBe(200);
    const record = answered.body.data as JsonObject;
    expect(record.questionnaire).toMatchObject({ status: 'completed', pending: [] });
    expect(itemsOf(record).find((item) => item.link_id === 'a1c_at_least_7')).toMatchObject({
      answer: true,
      origin: 'manual',
      author: 'Dr. Example',
    });
  });

  it('clears an answer sent as null, leaving its item pending again', async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    await answer(id, { answers: [{ link_id: 'a1c_at_least_7', value: true }] });

    const cleared = await answer(id, { answers: [{ link_id: 'a1c_at_least_7', value: null }] });

    expect(cleared.status).toBe(200);
    expect(cleared.body.data.questionnaire).toMatchObject({
      status: 'in_progress',
      pending: ['a1c_at_least_7'],
    });
    expect(itemsOf(cleared.body.data).find((item) => item.link_id === 'a1c_at_least_7')).toMatchObject({
      answer: null,
      origin: null,
    });
  });

  it('answers 400 when an answer leaves its value out', async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    const refused = await answer(id, { answers: [{ link_id: 'a1c_at_least_7' }] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('null to clear it');
  });

  it('is submitted once the reviewer answers the missing item and approves', async () => {
    const { id } = await submit(WITHOUT_A1C);
    await settled(id, 'awaiting_review');
    const answered = await answer(
      id,
      { answers: [{ link_id: 'a1c_at_least_7', value: true }] },
      account.keys.reviewer,
    );
    expect(answered.status).toBe(200);
    expect((await approve(id)).status).toBe(200);
    await settled(id, 'completed');
  });

  it('marks an answer changed from what the CQL gave as an override', async () => {
    const { id } = await submit();
    await settled(id, 'awaiting_review');
    const answered = await answer(id, { answers: [{ link_id: 'metformin_trial', value: false }] });
    expect(answered.status).toBe(200);
    expect(itemsOf(answered.body.data).find((item) => item.link_id === 'metformin_trial')).toMatchObject({
      answer: false,
      origin: 'override',
      author: 'API client',
    });
  });

  it('refuses answers once the case has left review', async () => {
    const { id } = await submit();
    await settled(id, 'awaiting_review');
    await approve(id);
    await settled(id, 'completed');
    const refused = await answer(id, { answers: [{ link_id: 'adult', value: true }] });
    expect(refused.status).toBe(409);
  });

  it('has no questionnaire when the payer names none (CRD unavailable): the review goes on the criteria', async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'unavailable' } });
    const prepared = await settled(id, 'awaiting_review');
    expect(prepared.questionnaire ?? null).toBeNull();
    expect((await answer(id, { answers: [{ link_id: 'adult', value: true }] })).status).toBe(409);
  });
});

/**
 * Xeljanz's sandbox package is adaptive: the sandbox payer's DTR service serves its questions one a
 * round through `$next-question`, the payer's CQL answers each from the record, and the rounds go on
 * until a question waits for a person (docs/dtr.md, "The sandbox's packages").
 */
describe("a sandbox prior authorization answers its payer's adaptive questionnaire", () => {
  it('reaches review with the questions served round by round, those the record answers answered by the payer’s CQL', async () => {
    const { id } = await submit(XELJANZ_MEETING_CRITERIA);
    const prepared = await settled(id, 'awaiting_review');
    expect(prepared.questionnaire).toMatchObject({
      adaptive: true,
      status: 'in_progress',
      pending: ['tuberculosis_screening'],
      prefill_failure: null,
    });
    expect(itemsOf(prepared).map((item) => [item.link_id, item.answer, item.origin])).toEqual([
      ['adult', true, 'auto'],
      ['jak_indication', true, 'auto'],
      ['tnf_inhibitor_trial', true, 'auto'],
      ['tuberculosis_screening', true, 'proposed'],
    ]);
    expect((prepared.status_history as JsonObject[]).at(-1)!.reason).toContain(
      "The payer's adaptive questionnaire has 1 required item(s) the record could not answer",
    );
  });

  it('is completed once a person answers the question the record could not, and then approved and submitted', async () => {
    const { id } = await submit(XELJANZ_MEETING_CRITERIA);
    await settled(id, 'awaiting_review');
    const answered = await answer(id, { answers: [{ link_id: 'tuberculosis_screening', value: true }] });
    expect(answered.status).toBe(200);
    expect(answered.body.data.questionnaire).toMatchObject({ status: 'completed', pending: [] });
    expect((await approve(id)).status).toBe(200);
    await settled(id, 'completed');
  });

  it('proposes from the evidence the question a later round serves after a person answers', async () => {
    const { id } = await submit({
      ...XELJANZ_MEETING_CRITERIA,
      visit_notes: [{ content: 'QuantiFERON negative in January.', created_at: '2026-10-02T10:00:00Z' }],
    });
    const prepared = await settled(id, 'awaiting_review');
    expect((prepared.questionnaire as JsonObject).pending).toEqual(['tnf_inhibitor_trial']);

    await answer(id, { answers: [{ link_id: 'tnf_inhibitor_trial', value: true }] });
    const screening = await eventually(async () => {
      const { body } = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
      return itemsOf(body.data).find((item) => item.link_id === 'tuberculosis_screening');
    });

    expect(screening).toMatchObject({
      answer: true,
      origin: 'proposed',
      source: { kind: 'evidence', reference: expect.stringContaining('QuantiFERON') },
    });
  });
});
