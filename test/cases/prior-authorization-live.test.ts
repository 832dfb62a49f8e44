import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import {
  approved,
  denied,
  malformed,
  PasReply,
  PasServer,
  pended,
  refused,
  rejected,
  unavailable,
} from '../support/pas-server';
import { bearer, eventually, startTestApp, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';

const isFinal = (event: JsonObject) => ['completed', 'failed', 'cancelled'].includes(event.data.status);

/** A live request carries no mock_result: the payer's answer cannot be scripted. */
function livePriorAuthorization(prescription: object) {
  const { mock_result: _mockResult, ...request } = priorAuthorizationRequest({
    patient: syntheticPatient({ last_name: 'Zzuniquesurname' }),
    diagnoses: [{ code: 'K50.90' }],
    prescription,
  });
  return request;
}

const REMICADE = { drug_name: 'Remicade 100 mg vial', quantity: 4 };
const OZEMPIC = { drug_name: 'Ozempic 1 mg pen', quantity: 1 };

/**
 * docs/decisions.md#modes and issue 14: a live prior authorization goes over Da Vinci PAS, which serves
 * medical-benefit drugs; pharmacy-benefit drugs need NCPDP SCRIPT ePA, which is not built.
 */
describe('prior authorization with a live key', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function liveAccount(withPasConnector: boolean) {
    const account = await testApp.createAccount();
    const keys = await testApp.createLiveKeys(account.accountId);
    if (withPasConnector) {
      const configured = await testApp
        .http()
        .put('/connectors/prior_authorization')
        .set(bearer(keys.admin))
        .send({ url: 'http://127.0.0.1:9/fhir', auth: { type: 'bearer', token: 'pas-token-0123456789' } });
      expect(configured.status).toBe(200);
    }
    return keys;
  }

  const create = (key: string, body: object) => testApp.http().post(PATH).set(bearer(key)).send(body);

  it('starts a medical-benefit prior authorization when the account has a PAS connector', async () => {
    const keys = await liveAccount(true);
    const response = await create(keys.provider, livePriorAuthorization(REMICADE));
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ object: 'prior_authorization', livemode: true });
  });

  it('refuses a medical-benefit prior authorization with 409 naming the connector when none is configured', async () => {
    const keys = await liveAccount(false);
    const response = await create(keys.provider, livePriorAuthorization(REMICADE));
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('PUT /connectors/prior_authorization'),
    });
  });

  it('refuses a pharmacy-benefit prior authorization with 409 naming the benefit and NCPDP SCRIPT ePA, never the patient', async () => {
    const keys = await liveAccount(true);
    const response = await create(keys.provider, livePriorAuthorization(OZEMPIC));
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('invalid_state');
    expect(response.body.error.message).toMatch(/pharmacy benefit.*NCPDP SCRIPT ePA/);
    expect(response.body.error.message).not.toContain('Zzuniquesurname');
  });

  it('refuses a drug whose benefit the catalog does not know, saying so', async () => {
    const keys = await liveAccount(true);
    const response = await create(
      keys.provider,
      livePriorAuthorization({ drug_name: 'Unlisted biologic', quantity: 1 }),
    );
    expect(response.status).toBe(409);
    expect(response.body.error.message).toMatch(/does not know this drug's benefit/);
  });

  it('still takes a pharmacy-benefit prior authorization with a test key, where the simulated payer answers', async () => {
    const account = await testApp.createAccount();
    const response = await create(
      account.keys.provider,
      priorAuthorizationRequest({ prescription: OZEMPIC }),
    );
    expect(response.status).toBe(201);
    expect(response.body.data.livemode).toBe(false);
  });
});

/**
 * Issue 14: a live medical-benefit prior authorization travels to the payer's Da Vinci PAS endpoint
 * (here a real HTTP server on loopback) and back; the case shows what the payer answered.
 */
describe('a live prior authorization exchanged with the payer over Da Vinci PAS', () => {
  const PAS_TOKEN = 'pas-token-live-e2e-000001';
  const AUTHORIZATION = { number: 'AUTH-PAS-0042', quantity: 4, start: '2026-12-01', end: '2027-05-31' };
  let testApp: TestApp;
  let worker: TestWorker;
  let pas: PasServer;
  let receiver: TestReceiver;
  let keys: Awaited<ReturnType<TestApp['createLiveKeys']>>;

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300' });
    worker = await testApp.startWorker();
    pas = new PasServer();
    const url = await pas.start();
    const account = await testApp.createAccount();
    keys = await testApp.createLiveKeys(account.accountId);
    const configured = await testApp
      .http()
      .put('/connectors/prior_authorization')
      .set(bearer(keys.admin))
      .send({ url, auth: { type: 'bearer', token: PAS_TOKEN } });
    expect(configured.status).toBe(200);
    receiver = await subscribeReceiver(testApp, keys.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await pas.stop();
    await testApp.close();
  });

  const get = async (id: string) =>
    (await testApp.http().get(`${PATH}/${id}`).set(bearer(keys.provider))).body.data as JsonObject;
  const waitFor = (id: string, status: string) => waitForStatus(testApp, keys.provider, PATH, id, status);

  /** Creates a Remicade PA, scripts the payer's replies to it, and approves it at review. */
  async function sentToPayer(replies: Parameters<PasServer['script']>[1]): Promise<string> {
    const created = await testApp
      .http()
      .post(PATH)
      .set(bearer(keys.provider))
      .send(livePriorAuthorization(REMICADE));
    expect(created.status).toBe(201);
    const { id } = created.body.data as JsonObject;
    await waitFor(id, 'awaiting_review');
    pas.script(id, replies);
    const reviewed = await testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
    expect(reviewed.status).toBe(200);
    return id;
  }

  it('submits an approved-at-review Remicade request to Claim/$submit, shows it pended with due_at, and completes with the authorization the next $inquire returns', async () => {
    const id = await sentToPayer({ submit: [pended()], inquire: [approved(AUTHORIZATION)] });

    const awaiting = await eventually(async () => {
      const record = await get(id);
      return record.status === 'awaiting_outcome' && record.due_at ? record : undefined;
    });
    expect(awaiting.submission.payer_reference).toBe('PAYER-TRACE-0001');

    const [submitted] = pas.requestsFor(id, 'submit');
    expect(submitted!.url).toBe('/fhir/Claim/$submit');
    expect(submitted!.headers['content-type']).toBe('application/fhir+json');
    expect(submitted!.headers.authorization).toBe(`Bearer ${PAS_TOKEN}`);
    expect(submitted!.bundle.entry[0].resource).toMatchObject({
      resourceType: 'Claim',
      use: 'preauthorization',
      identifier: [{ value: id }],
    });

    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'approved',
      authorization_number: AUTHORIZATION.number,
      approved_quantity: AUTHORIZATION.quantity,
      authorization_start_date: AUTHORIZATION.start,
      authorization_expiration: AUTHORIZATION.end,
    });
    expect(pas.requestsFor(id, 'inquire')[0]!.url).toBe('/fhir/Claim/$inquire');
    const final = await eventually(async () =>
      eventsFor(receiver, id).find((event) => event.data.status === 'completed'),
    );
    expect(final.data).toMatchObject({ id, livemode: true, outcome: { result: 'approved' } });
  });

  it("shows the payer's information request as pending_request, sends the provider's answers over $submit, and completes once the payer approves", async () => {
    const question = { id: 'q-tb-screen', text: 'Date and result of the latest tuberculosis screening?' };
    const dueAt = new Date(Date.now() + 7 * 24 * 3_600_000).toISOString();
    const asking = pended({ questions: [question], due_at: dueAt });
    const id = await sentToPayer({
      submit: [asking],
      inquire: [asking],
      information: [approved(AUTHORIZATION)],
    });

    const pending = await eventually(async () => {
      const record = await get(id);
      return record.pending_request ? record : undefined;
    });
    expect(pending.status).toBe('awaiting_outcome');
    expect(pending.pending_request).toEqual({
      kind: 'information_requested',
      questions: [question],
      due_at: dueAt,
    });

    const answer = 'Negative QuantiFERON on 2026-09-15.';
    const answered = await testApp
      .http()
      .post(`${PATH}/${id}/information`)
      .set(bearer(keys.provider))
      .send({ answers: [{ question_id: question.id, answer }] });
    expect(answered.status).toBe(200);

    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'approved',
      authorization_number: AUTHORIZATION.number,
    });
    const [sent] = pas.requestsFor(id, 'information');
    expect(sent!.url).toBe('/fhir/Claim/$submit');
    const answers = sent!.bundle.entry
      .map((entry: JsonObject) => entry.resource)
      .find((resource: JsonObject) => resource.resourceType === 'QuestionnaireResponse');
    expect(answers.item).toEqual([{ linkId: question.id, answer: [{ valueString: answer }] }]);
  });

  it('completes with denied when the payer does not certify the request', async () => {
    const id = await sentToPayer({ submit: [denied()] });
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({ result: 'denied', authorization_number: null });
  });

  it.each<[string, PasReply, string]>([
    ['a ClaimResponse with outcome error', rejected('Member Zzuniquesurname not found'), 'x12_reject_75'],
    ['an OperationOutcome', refused('Member Zzuniquesurname not found'), 'fhir_business-rule'],
    ['a 422 OperationOutcome', refused('Member Zzuniquesurname not found', 422), 'fhir_business-rule'],
  ])(
    "fails with not_submitted and the payer's coded reason, never its free text, on %s",
    async (_answer, reply, reasonCode) => {
      const id = await sentToPayer({ submit: [reply] });
      const failed = await waitFor(id, 'failed');
      expect(failed.outcome).toMatchObject({ result: 'not_submitted', detail_code: reasonCode });
      expect(failed.failure).toEqual({ code: 'not_submitted', message: expect.any(String) });
      expect(JSON.stringify([failed.failure, failed.outcome])).not.toContain('Zzuniquesurname');
    },
  );

  it("fails for good after one request, saying the payer's answer could not be read, when the ClaimResponse is malformed", async () => {
    const id = await sentToPayer({ submit: [malformed()] });
    const failed = await waitFor(id, 'failed');
    expect(failed.failure).toEqual({
      code: 'payer_rejected',
      message: "The payer's answer could not be read; ask the payer for the request's status.",
    });
    expect(pas.requestsFor(id)).toHaveLength(1);
  });

  it('asks again after an inquiry answer it cannot read, and completes with what the payer then answers', async () => {
    const id = await sentToPayer({ submit: [pended()], inquire: [malformed(), approved(AUTHORIZATION)] });
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome.result).toBe('approved');
    expect(pas.requestsFor(id, 'inquire').length).toBeGreaterThanOrEqual(2);
  });

  it('takes a reviewer’s outcome at once while the PAS endpoint stays down, and ends with that outcome only', async () => {
    // Asked back after a second, the inquiry's own ten attempts run out within seconds; the case then
    // waits minutes for its next call.
    const id = await sentToPayer({ submit: [pended()], inquire: [unavailable(1)] });
    const waiting = await eventually(async () => {
      const shown = await get(id);
      return shown.attention ? shown : undefined;
    }, 60_000);
    expect(waiting).toMatchObject({ status: 'awaiting_outcome', attention: { reason: 'payer_unavailable' } });

    const recorded = await testApp
      .http()
      .post(`${PATH}/${id}/outcome`)
      .set(bearer(keys.reviewer))
      .send({ result: 'approved' });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({
      status: 'completed',
      outcome: { result: 'approved' },
      attention: null,
    });
    await eventually(async () => (eventsFor(receiver, id).some(isFinal) ? true : undefined));
    expect(eventsFor(receiver, id).filter(isFinal)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ status: 'completed' }) }),
    ]);
  });

  it('retries a 503 from the PAS endpoint and completes with what the payer then answers', async () => {
    const id = await sentToPayer({ submit: [unavailable(), approved(AUTHORIZATION)] });
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome.result).toBe('approved');
    expect(pas.requestsFor(id, 'submit')).toHaveLength(2);
  });

  it('completes partially approved when the payer certifies in total fewer units than requested', async () => {
    const id = await sentToPayer({ submit: [approved({ ...AUTHORIZATION, quantity: 3 })] });
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'partially_approved',
      detail_code: 'quantity_reduced',
      approved_quantity: 3,
    });
  });
});
