import type { CdsHooksRequest } from '../../infrastructure/connectors/crd/cds-hooks';
import { answerOrderSign } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { answerQuestionnairePackageOperation } from '../../infrastructure/connectors/dtr/simulated-dtr-service';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { ClearinghouseReply, ClearinghouseServer } from '../support/clearinghouse-server';
import { approved, PasServer } from '../support/pas-server';
import { bearer, startTestApp, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';
const REMICADE_QUESTIONNAIRE = 'http://sandbox.healthcare-access-api.example/fhir/Questionnaire/remicade';
const INFORMATION_ORIGIN = 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/information-origin';
const DTR_TOKEN = 'dtr-token-live-e2e-000001';
const AUTHORIZATION = { number: 'AUTH-DTR-0007', quantity: 4, start: '2026-12-01', end: '2027-05-31' };
const FHIR_JSON = { 'Content-Type': 'application/fhir+json' };

/** How the loopback DTR service answers: as the payer serves its packages, or failing. */
type DtrBehaviour = 'serve' | 'fail';

/**
 * A live Remicade (medical benefit) request without mock_result: Crohn's disease after a course of
 * prednisone, and nothing about tuberculosis screening, which the payer's questionnaire asks a person.
 */
function livePriorAuthorization() {
  const { mock_result: _mockResult, ...request } = priorAuthorizationRequest({
    patient: syntheticPatient({ last_name: 'Zzdtrsurname' }),
    diagnoses: [{ code: 'K50.90' }],
    prescription: { drug_name: 'Remicade 100 mg vial', quantity: 4 },
    evidence: [],
    visit_notes: [
      {
        content: "Crohn's disease; prednisone for 8 weeks without remission.",
        created_at: '2026-10-02T10:00:00Z',
      },
    ],
  });
  return request;
}

/**
 * A live prior authorization asks the account's DTR service (a loopback HTTP server serving
 * the sandbox payer's packages) for the questionnaire its CRD service named, prefills it with the
 * payer's CQL, and sends the answers in the PAS Claim once people have answered the rest.
 */
let testApp: TestApp;
let worker: TestWorker;
let crd: ClearinghouseServer;
let dtr: ClearinghouseServer;
let dtrBehaviour: DtrBehaviour = 'serve';
let pas: PasServer;
let keys: Awaited<ReturnType<TestApp['createLiveKeys']>>;
let payerUrls: { pasUrl: string; crdUrl: string };

beforeAll(async () => {
  crd = new ClearinghouseServer(({ body }) => ({
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(answerOrderSign(JSON.parse(body) as CdsHooksRequest, 'auth-needed')),
  }));
  dtr = new ClearinghouseServer(({ body }): ClearinghouseReply => {
    if (dtrBehaviour === 'fail') return { status: 500, headers: FHIR_JSON, body: '{}' };
    const answer = answerQuestionnairePackageOperation(JSON.parse(body));
    return { status: answer.status, headers: FHIR_JSON, body: JSON.stringify(answer.body) };
  });
  pas = new PasServer();
  const [crdUrl, dtrUrl, pasUrl] = await Promise.all([crd.start(), dtr.start(), pas.start()]);
  payerUrls = { pasUrl, crdUrl };
  // The CRD connector needs a public address to publish its keys at; this loopback CRD service never fetches them.
  testApp = await startTestApp({ PUBLIC_API_URL: 'https://api.clinic.example' });
  worker = await testApp.startWorker();
  keys = await liveKeysWith(payerUrls);
  await configure(keys, 'questionnaire', {
    url: `${new URL(dtrUrl).origin}/fhir`,
    auth: { type: 'bearer', token: DTR_TOKEN },
    timeout_ms: 2000,
  });
});

/** A live account whose PAS and CRD connectors point to the loopback services. */
async function liveKeysWith({ pasUrl, crdUrl }: { pasUrl: string; crdUrl: string }) {
  const account = await testApp.createAccount();
  const live = await testApp.createLiveKeys(account.accountId);
  await configure(live, 'prior_authorization', {
    url: pasUrl,
    auth: { type: 'bearer', token: 'pas-token-0123456789' },
  });
  await configure(live, 'coverage_requirements', {
    url: crdUrl,
    client_id: 'clinic-crd-0001',
    timeout_ms: 2000,
  });
  return live;
}

async function configure(live: typeof keys, kind: string, body: object): Promise<void> {
  const response = await testApp.http().put(`/connectors/${kind}`).set(bearer(live.admin)).send(body);
  expect(response.status).toBe(200);
}

afterAll(async () => {
  await worker.stop();
  await testApp.close();
  await Promise.all([crd.stop(), dtr.stop(), pas.stop()]);
});

const submitted = async (behaviour: DtrBehaviour, provider = keys.provider): Promise<string> => {
  dtrBehaviour = behaviour;
  const response = await testApp.http().post(PATH).set(bearer(provider)).send(livePriorAuthorization());
  expect(response.status).toBe(201);
  return (response.body.data as JsonObject).id as string;
};
const settled = (id: string, status: string, provider = keys.provider) =>
  waitForStatus(testApp, provider, PATH, id, status);
const itemsOf = (record: JsonObject) => (record.questionnaire as JsonObject).items as JsonObject[];

describe("a live prior authorization answers the payer's questionnaire from its DTR service", () => {
  it('prefills the package the DTR service sends, asked for with the connector’s token', async () => {
    const calls = dtr.requests.length;
    const prepared = await settled(await submitted('serve'), 'awaiting_review');
    const [call] = dtr.requests.slice(calls);
    expect(call!.url).toBe('/fhir/Questionnaire/$questionnaire-package');
    expect(call!.headers.authorization).toBe(`Bearer ${DTR_TOKEN}`);
    expect(JSON.parse(call!.body)).toMatchObject({
      resourceType: 'Parameters',
      parameter: [{ name: 'questionnaire', valueCanonical: REMICADE_QUESTIONNAIRE }],
    });
    const questionnaire = prepared.questionnaire as JsonObject;
    expect(questionnaire).toMatchObject({ status: 'in_progress', prefill_failure: null });
    expect(questionnaire.canonical).toMatch(new RegExp(`^${REMICADE_QUESTIONNAIRE}\\|`));
    expect(itemsOf(prepared).find((item) => item.link_id === 'adult')).toMatchObject({
      answer: true,
      origin: 'auto',
    });
    // The payer's questionnaire has no expression for it: only a person can answer it.
    expect(questionnaire.pending).toContain('tuberculosis_screening');
  });

  it('sends the answered questionnaire in the PAS Claim once the rest is answered and the reviewer approves', async () => {
    const id = await submitted('serve');
    const prepared = await settled(id, 'awaiting_review');
    const pending = (prepared.questionnaire as JsonObject).pending as string[];
    const answered = await testApp
      .http()
      .post(`${PATH}/${id}/questionnaire`)
      .set(bearer(keys.provider))
      .send({ answers: pending.map((link_id) => ({ link_id, value: true })), author: 'Dr. Example' });
    expect(answered.status).toBe(200);
    expect(answered.body.data.questionnaire).toMatchObject({ status: 'completed', pending: [] });
    pas.script(id, { submit: [approved(AUTHORIZATION)] });
    const reviewed = await testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
    expect(reviewed.status).toBe(200);
    const completed = await settled(id, 'completed');
    expect(completed.outcome).toMatchObject({
      result: 'approved',
      authorization_number: AUTHORIZATION.number,
    });

    const [sent] = pas.requestsFor(id, 'submit');
    const entries = sent!.bundle.entry as JsonObject[];
    const claim = entries.find((entry) => entry.resource.resourceType === 'Claim')!.resource as JsonObject;
    const referenced = new Set(
      (claim.supportingInfo as JsonObject[]).map((info) => info.valueReference?.reference as string),
    );
    const response = entries.find(
      (entry) => referenced.has(entry.fullUrl) && entry.resource.resourceType === 'QuestionnaireResponse',
    )?.resource as JsonObject;
    expect(response).toMatchObject({ questionnaire: completed.questionnaire.canonical, status: 'completed' });
    const origins = new Map(
      (response.item as JsonObject[]).map((item) => {
        const origin = (item.answer[0].extension as JsonObject[]).find(
          (ext) => ext.url === INFORMATION_ORIGIN,
        );
        const source = (origin!.extension as JsonObject[]).find((part) => part.url === 'source');
        return [item.linkId as string, source!.valueCode as string];
      }),
    );
    expect(origins.get('adult')).toBe('auto');
    expect(origins.get('tuberculosis_screening')).toBe('manual');
  });

  it('goes on to review without items, saying dtr_unavailable, when the DTR service fails (500)', async () => {
    const prepared = await settled(await submitted('fail'), 'awaiting_review');
    expect(prepared.coverage_requirements).toMatchObject({ source: 'crd', pa_needed: 'auth-needed' });
    expect(prepared.questionnaire).toMatchObject({
      prefill_failure: 'dtr_unavailable',
      items: [],
      pending: [],
    });
  });

  it('asks no DTR service, and keeps no questionnaire, when the account has no questionnaire connector', async () => {
    const withoutDtr = await liveKeysWith(payerUrls);
    const calls = dtr.requests.length;
    const id = await submitted('serve', withoutDtr.provider);
    const prepared = await settled(id, 'awaiting_review', withoutDtr.provider);
    expect(prepared.coverage_requirements).toMatchObject({ source: 'crd', pa_needed: 'auth-needed' });
    expect(prepared.questionnaire ?? null).toBeNull();
    expect(dtr.requests.length).toBe(calls);
  });
});
