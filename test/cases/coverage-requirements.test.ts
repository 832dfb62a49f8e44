import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';

describe("a prior authorization first asks the sandbox payer's CRD service what the order requires", () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const submit = async (overrides: Record<string, unknown>) => {
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

  it('completes approved without review or submission when the payer needs no authorization', async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'no-auth' } });
    const done = await settled(id, 'completed');
    expect(done.outcome).toMatchObject({ result: 'approved', detail_code: 'prior_auth_not_required' });
    expect(done.coverage_requirements).toMatchObject({ source: 'crd', pa_needed: 'no-auth' });
    expect(done.review).toBeNull();
    expect(done.submission).toBeNull();
    expect((done.status_history as JsonObject[]).map((entry) => entry.status)).toEqual([
      'processing',
      'completed',
    ]);
  });

  it('sends the final webhook of a case the payer needs no authorization for', async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'no-auth' } });
    await settled(id, 'completed');
    const final = await eventually(async () =>
      eventsFor(receiver, id).find((event) => (event.data as JsonObject).status === 'completed'),
    );
    expect((final.data as JsonObject).outcome).toMatchObject({ detail_code: 'prior_auth_not_required' });
  });

  it("asks the sandbox's formulary when nothing is mocked: a drug the plan needs no authorization for completes", async () => {
    const { id } = await submit({
      prescription: { drug_name: 'Jardiance 10 mg tablet', quantity: 30, days_supply: 30 },
      mock_result: null,
    });
    const done = await settled(id, 'completed');
    expect(done.outcome).toMatchObject({ result: 'approved', detail_code: 'prior_auth_not_required' });
  });

  it("goes on to review with the payer's requirements and the questionnaire it names when authorization is needed", async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'auth-needed' } });
    const prepared = await settled(id, 'awaiting_review');
    const requirements = prepared.coverage_requirements as JsonObject;
    expect(requirements).toMatchObject({ source: 'crd', pa_needed: 'auth-needed', fallback_reason: null });
    expect((requirements.questionnaires as string[]).length).toBeGreaterThan(0);
  });

  it("goes on to review on the catalog's criteria, saying why, when the CRD service is unavailable", async () => {
    const { id } = await submit({ mock_result: { coverage_requirements: 'unavailable' } });
    const prepared = await settled(id, 'awaiting_review');
    expect(prepared.coverage_requirements).toMatchObject({
      source: 'catalog',
      fallback_reason: 'crd_unavailable',
    });
    const moves = prepared.status_history as JsonObject[];
    expect(moves[moves.length - 1].reason).toContain('crd_unavailable');
    expect((prepared.criteria as unknown[]).length).toBeGreaterThan(0);
  });

  it('refuses a coverage requirements answer the sandbox cannot play, naming the field', async () => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest({ mock_result: { coverage_requirements: 'maybe' } }));
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error)).toContain('coverage_requirements');
  });
});
