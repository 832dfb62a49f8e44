import { Worker } from '@temporalio/worker';

import type { PriorAuthorizationCase } from '../../domain/cases/prior-authorization';
import { PRIOR_AUTHORIZATION_CONSOLE } from '../../src/cases/types/prior-authorization/prior-authorization.console';
import { AdaptivePayer, answerQuestionnaire, preparedAdaptiveCase } from '../support/adaptive-payer';
import { consoleGet, consolePost, signedInPerson } from '../support/console-cases';
import { ConsoleBrowser, cookiesFrom } from '../support/console-session';

import type { CdsHooksRequest } from '../../infrastructure/connectors/crd/cds-hooks';
import { answerOrderSign } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { answerQuestionnairePackageOperation } from '../../infrastructure/connectors/dtr/simulated-dtr-service';
import { workerDataConverter } from '../../infrastructure/temporal/temporal-connection';
import { testEnvironment } from '../harness/environment';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import {
  priorAuthorizationRequest,
  syntheticPatient,
  WITHOUT_A1C,
  XELJANZ_MEETING_CRITERIA,
} from '../support/case-requests';
import { ClearinghouseReply, ClearinghouseServer } from '../support/clearinghouse-server';
import { approved, PasServer } from '../support/pas-server';
import { resourceUrn } from '../../infrastructure/connectors/pas/pas-request';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';
import {
  payerQuestionnaireAnswersSignal,
  reviewDecisionSignal,
} from '../../workflows/prior-authorization.messages';
import { LoopbackAdaptiveDtr } from './loopback-adaptive-dtr';

const PATH = '/prior-authorization';
const INFORMATION_ORIGIN = 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/information-origin';
const AUTHORIZATION = { number: 'AUTH-DTR-0001', quantity: 4, start: '2026-12-01', end: '2027-05-31' };
const HAMBURGER = { system: null, code: 'Hamburger', display: null };
const FHIR_JSON = { 'Content-Type': 'application/fhir+json' };

type LiveKeys = Awaited<ReturnType<TestApp['createLiveKeys']>>;

/**
 * Prior authorizations answering their payer's questionnaire, on one app (issue 45). Live ones against
 * loopback payer services (CRD, DTR and PAS over real HTTP): first a DTR service (playing Inferno's
 * adaptive dinner order) that serves its questionnaire through `$next-question`: the case gets the
 * first questions, prefilled by the package's CQL; each answer a person gives asks the service for what
 * follows; approval waits until the service says it is complete; the answers then go to PAS. Then, for
 * another account, one that serves whole packages (the sandbox payer's). Then, for a test-mode account,
 * the sandbox's own chain, CRD → DTR → review → PAS: the sandbox payer's CRD answer names the drug's
 * questionnaire, its DTR service serves the package generated from the catalog's criteria, and the
 * payer's CQL prefills it from the record before review. Last, for a third live account, what the
 * console's case page tells a reviewer of an adaptive questionnaire.
 */
let testApp: TestApp;
let worker: TestWorker;
let crd: ClearinghouseServer;
let dtr: LoopbackAdaptiveDtr;
let pas: PasServer;
let keys: LiveKeys;
let crdUrl: string;
let dtrUrl: string;
let pasUrl: string;

beforeAll(async () => {
  crd = new ClearinghouseServer(({ body }) => ({
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(answerOrderSign(JSON.parse(body) as CdsHooksRequest, 'auth-needed')),
  }));
  dtr = new LoopbackAdaptiveDtr();
  pas = new PasServer();
  [crdUrl, dtrUrl, pasUrl] = await Promise.all([crd.start(), dtr.start(), pas.start()]);
  await startApp();
});

afterAll(async () => {
  await stopApp();
  await Promise.all([crd.stop(), dtr.stop(), pas.stop()]);
});

async function startApp(): Promise<void> {
  // The CRD connector needs a public address to publish its keys at; this loopback CRD service never fetches them.
  testApp = await startTestApp({
    PUBLIC_API_URL: 'https://api.clinic.example',
    // A failed $next-question round is asked again on this schedule.
    CASE_OUTAGE_FIRST_RETRY_MS: '500',
    CASE_OUTAGE_LONGEST_RETRY_MS: '2000',
    // The sandbox payer decides on its second check: a short interval completes approved cases quickly.
    PAYER_POLL_INTERVAL_MS: '300',
    // Short, for the console's payer whose CQL never ends: the limit counts from when a ready thread
    // takes the task, and every other package here, and the criteria engine, takes milliseconds.
    CLINICAL_EVALUATION_TIMEOUT_MS: '2000',
  });
  worker = await testApp.startWorker();
  keys = await liveAccount();
  await configureDtr(2000);
}

/** A live account whose PAS and CRD connectors point to the loopback services. */
async function liveAccount(): Promise<LiveKeys> {
  const account = await testApp.createAccount();
  const live = await testApp.createLiveKeys(account.accountId);
  await configure(
    'prior_authorization',
    { url: pasUrl, auth: { type: 'bearer', token: 'pas-token-0123456789' } },
    live.admin,
  );
  await configure(
    'coverage_requirements',
    { url: crdUrl, client_id: 'clinic-crd-0001', timeout_ms: 2000 },
    live.admin,
  );
  return live;
}

async function stopApp(): Promise<void> {
  await worker.stop();
  await testApp.close();
}

const configureDtr = (timeoutMs: number) =>
  configure('questionnaire', {
    url: dtrUrl,
    auth: { type: 'bearer', token: 'dtr-token-adaptive-0001' },
    timeout_ms: timeoutMs,
  });

async function configure(kind: string, body: object, admin = keys.admin): Promise<void> {
  const response = await testApp.http().put(`/connectors/${kind}`).set(bearer(admin)).send(body);
  expect(response.status).toBe(200);
}

beforeEach(() => {
  dtr.behaviour = 'serve';
  dtr.packageBehaviour = 'serve';
  dtr.failOnceAfterServing = undefined;
});

/** A live Remicade request without mock_result; its payer's CRD answer names a questionnaire. */
async function preparedCase(): Promise<{ id: string; prepared: JsonObject }> {
  const { mock_result: _mockResult, ...request } = priorAuthorizationRequest({
    patient: syntheticPatient({ first_name: 'Rosa', last_name: 'Zzadaptive' }),
    diagnoses: [{ code: 'K50.90' }],
    prescription: { drug_name: 'Remicade 100 mg vial', quantity: 4 },
    evidence: [],
  });
  const created = await testApp.http().post(PATH).set(bearer(keys.provider)).send(request);
  expect(created.status).toBe(201);
  const id = (created.body.data as JsonObject).id as string;
  return { id, prepared: await waitForStatus(testApp, keys.provider, PATH, id, 'awaiting_review') };
}

const answer = (id: string, answers: { link_id: string; value: unknown }[]) =>
  testApp
    .http()
    .post(`${PATH}/${id}/questionnaire`)
    .set(bearer(keys.provider))
    .send({ answers, author: 'Dr. Example' });

const approve = (id: string, reviewerKey = keys.reviewer) =>
  testApp
    .http()
    .post(`${PATH}/${id}/review`)
    .set(bearer(reviewerKey))
    .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });

const linkIdsOf = (questionnaire: JsonObject) =>
  (questionnaire.items as JsonObject[]).map((item) => item.link_id as string);

describe("a live prior authorization answers its payer's adaptive questionnaire", () => {
  it('gets the first questions at prefill, the patient’s names answered by the payer’s CQL, and says it is adaptive', async () => {
    const { prepared } = await preparedCase();
    const questionnaire = prepared.questionnaire as JsonObject;
    expect(questionnaire).toMatchObject({
      adaptive: true,
      status: 'in_progress',
      prefill_failure: null,
      pending: ['LOC.1', '3.1'],
    });
    expect((questionnaire.items as JsonObject[]).find((item) => item.link_id === 'PBD.1')).toMatchObject({
      answer: 'Zzadaptive',
      origin: 'auto',
    });
  });

  it('shows the next questions in the answer to the answers that call for them', async () => {
    const { id } = await preparedCase();
    const answered = await answer(id, [
      { link_id: 'LOC.1', value: 'Ward 4' },
      { link_id: '3.1', value: HAMBURGER },
    ]);
    expect(answered.status).toBe(200);
    const questionnaire = answered.body.data.questionnaire as JsonObject;
    expect(linkIdsOf(questionnaire)).toEqual(expect.arrayContaining(['3.2.a', '3.3']));
    // Nothing required is left, but the service has not said it is done.
    expect(questionnaire).toMatchObject({ status: 'in_progress', pending: [] });
  });

  it('asks for the next questions when the answers come by signal (Temporal Web)', async () => {
    const { id } = await preparedCase();
    await testApp.temporalClient.workflow
      .getHandle(id)
      .signal(payerQuestionnaireAnswersSignal, { answers: [{ link_id: '3.1', value: HAMBURGER }] });
    const shown = await eventually(async () => {
      const read = await testApp.http().get(`${PATH}/${id}`).set(bearer(keys.provider));
      const questionnaire = read.body.data.questionnaire as JsonObject;
      return linkIdsOf(questionnaire).includes('3.2.a') ? questionnaire : undefined;
    });
    expect(shown).toMatchObject({ status: 'in_progress', pending: ['LOC.1'] });
  });

  it('refuses approval (409) until the service says the questionnaire is complete, then sends its answers to PAS', async () => {
    const { id } = await preparedCase();
    await answer(id, [
      { link_id: 'LOC.1', value: 'Ward 4' },
      { link_id: '3.1', value: HAMBURGER },
    ]);
    const early = await approve(id);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/adaptive questionnaire is not complete/);

    const completed = await answer(id, [{ link_id: '3.3', value: 'No onions' }]);
    expect(completed.body.data.questionnaire).toMatchObject({ status: 'completed', pending: [] });
    pas.script(id, { submit: [approved(AUTHORIZATION)] });
    expect((await approve(id)).status).toBe(200);
    await waitForStatus(testApp, keys.provider, PATH, id, 'completed');

    const [sent] = pas.requestsFor(id, 'submit');
    const response = (sent!.bundle.entry as JsonObject[]).find(
      (entry) => entry.resource.resourceType === 'QuestionnaireResponse',
    )!.resource as JsonObject;
    expect(response.status).toBe('completed');
    const origins = new Map<string, string>();
    const visit = (items: JsonObject[]): void => {
      for (const item of items) {
        const origin = (item.answer?.[0]?.extension as JsonObject[] | undefined)?.find(
          (ext) => ext.url === INFORMATION_ORIGIN,
        );
        if (origin) origins.set(item.linkId, origin.extension[0].valueCode);
        visit(item.item ?? []);
      }
    };
    visit(response.item as JsonObject[]);
    expect(Object.fromEntries(origins)).toMatchObject({
      'PBD.1': 'auto',
      'LOC.1': 'manual',
      '3.1': 'manual',
      '3.3': 'manual',
    });
  });

  it('replays the history of its rounds without non-determinism', async () => {
    const { id } = await preparedCase();
    await answer(id, [{ link_id: '3.1', value: HAMBURGER }]);
    await answer(id, [{ link_id: '3.3', value: 'No onions' }]);
    const history = await testApp.temporalClient.workflow.getHandle(id).fetchHistory();
    await Worker.runReplayHistory(
      {
        workflowBundle: { codePath: testEnvironment().workflowBundlePath },
        dataConverter: workerDataConverter(testApp.config.encryption!),
      },
      history,
      id,
    );
  });

  it('keeps the questionnaire as it was, saying dtr_unavailable, when the service fails a round, and asks again with the next answer', async () => {
    const { id } = await preparedCase();
    dtr.behaviour = 'fail';
    const failed = await answer(id, [{ link_id: '3.1', value: HAMBURGER }]);
    expect(failed.status).toBe(200);
    expect(failed.body.data.questionnaire).toMatchObject({
      status: 'in_progress',
      prefill_failure: 'dtr_unavailable',
    });
    expect(linkIdsOf(failed.body.data.questionnaire)).not.toContain('3.2.a');

    dtr.behaviour = 'serve';
    const asked = await answer(id, [{ link_id: 'LOC.1', value: 'Ward 4' }]);
    expect(asked.body.data.questionnaire).toMatchObject({ prefill_failure: null });
    expect(linkIdsOf(asked.body.data.questionnaire)).toContain('3.2.a');
  });

  it('keeps the questionnaire as it was, saying dtr_answer_too_large, when the service answers a round with more than 1 MB', async () => {
    const { id } = await preparedCase();
    dtr.behaviour = 'large';
    const failed = await answer(id, [{ link_id: '3.1', value: HAMBURGER }]);
    expect(failed.status).toBe(200);
    expect(failed.body.data.questionnaire).toMatchObject({ prefill_failure: 'dtr_answer_too_large' });
    expect(linkIdsOf(failed.body.data.questionnaire)).not.toContain('3.2.a');
  });

  it('asks a failed round again on the outage schedule, without another answer, once the service is back', async () => {
    const { id } = await preparedCase();
    dtr.behaviour = 'fail';
    const failed = await answer(id, [{ link_id: '3.1', value: HAMBURGER }]);
    expect(failed.body.data.questionnaire).toMatchObject({ prefill_failure: 'dtr_unavailable' });
    dtr.behaviour = 'serve';
    const retried = await eventually(async () => {
      const read = await testApp.http().get(`${PATH}/${id}`).set(bearer(keys.provider));
      const questionnaire = read.body.data.questionnaire as JsonObject;
      return linkIdsOf(questionnaire).includes('3.2.a') ? questionnaire : undefined;
    });
    expect(retried).toMatchObject({ prefill_failure: null, pending: ['LOC.1'] });
  });

  it('asks again on the outage schedule, with what it was served, when the service fails the round after the one the CQL answered, and is completed once answered', async () => {
    // At prefill the names come alone, answered by the CQL, so the next round follows at once, and fails.
    dtr.behaviour = 'names-first';
    // The round after the one that served the names alone.
    dtr.failOnceAfterServing = (served) => served.includes('PBD') && !served.includes('LOC');
    const calls = dtr.nextQuestionRequests().length;
    const { id, prepared } = await preparedCase();
    const moved = (prepared.status_history as JsonObject[]).at(-1)!;
    expect(moved.reason).toMatch(
      /The payer's DTR service did not serve the next questions of its adaptive questionnaire \(dtr_unavailable\)/,
    );

    const retried = await eventually(async () => {
      const read = await testApp.http().get(`${PATH}/${id}`).set(bearer(keys.provider));
      const questionnaire = read.body.data.questionnaire as JsonObject;
      return linkIdsOf(questionnaire).includes('3.1') ? questionnaire : undefined;
    });
    expect(retried).toMatchObject({ prefill_failure: null, pending: ['LOC.1', '3.1'] });
    // The retry, asked by no one, sent what the round before the failed one served and the CQL answered.
    const patient = `Patient/${resourceUrn(id, 'patient').slice('urn:uuid:'.length)}`;
    const [, failed, retry] = dtr
      .nextQuestionRequests()
      .slice(calls)
      .filter((asked) => asked.subject.reference === patient);
    expect(JSON.stringify(retry!.item)).toContain('"valueString":"Zzadaptive"');
    expect(retry!.contained).toEqual(failed!.contained);

    await answer(id, [
      { link_id: 'LOC.1', value: 'Ward 4' },
      { link_id: '3.1', value: HAMBURGER },
    ]);
    const completed = await answer(id, [{ link_id: '3.3', value: 'No onions' }]);
    expect(completed.body.data.questionnaire).toMatchObject({ status: 'completed', pending: [] });
    pas.script(id, { submit: [approved(AUTHORIZATION)] });
    expect((await approve(id)).status).toBe(200);
    await waitForStatus(testApp, keys.provider, PATH, id, 'completed');
  });

  it('asks again on the outage schedule when, after an answer, the service fails the round after one the CQL answered', async () => {
    // Every round adds a name the CQL answers, so the rounds after an answer go on until one fails.
    dtr.behaviour = 'endless';
    const { id } = await preparedCase();
    // At prefill the rounds stopped after 50 (PBD-0 to PBD-49); after the answer the first serves PBD-50.
    dtr.failOnceAfterServing = (served) => served.includes('PBD-50');
    const failed = await answer(id, [{ link_id: 'PBD-0.1', value: 'Zzadaptive' }]);
    expect(failed.body.data.questionnaire).toMatchObject({ prefill_failure: 'dtr_unavailable' });
    const retried = await eventually(async () => {
      const read = await testApp.http().get(`${PATH}/${id}`).set(bearer(keys.provider));
      const questionnaire = read.body.data.questionnaire as JsonObject;
      return questionnaire.prefill_failure === null ? questionnaire : undefined;
    });
    expect(linkIdsOf(retried).length).toBeGreaterThan(linkIdsOf(failed.body.data.questionnaire).length);
  });

  it('answers an answer a rejection overtakes at once, without waiting for the round that would have asked about it', async () => {
    const { id } = await preparedCase();
    // The round after the first answer hangs under a 10 s connector limit, well past the 4 s in which the
    // overtaken answer must come back; once that is shown, the hung call is failed rather than waited out.
    await configureDtr(10_000);
    dtr.behaviour = 'hang';
    try {
      const asked = dtr.nextQuestionRequests().length;
      const first = answer(id, [{ link_id: '3.1', value: HAMBURGER }]).then((response) => response);
      await eventually(async () => dtr.nextQuestionRequests().length > asked || undefined);
      const second = answer(id, [{ link_id: 'LOC.1', value: 'Ward 4' }]).then((response) => response);
      await eventually(async () => {
        const read = await testApp.http().get(`${PATH}/${id}`).set(bearer(keys.provider));
        const items = read.body.data.questionnaire.items as JsonObject[];
        return items.find((item) => item.link_id === 'LOC.1')?.answer === 'Ward 4' || undefined;
      });
      const rejected = testApp
        .http()
        .post(`${PATH}/${id}/review`)
        .set(bearer(keys.reviewer))
        .send({ decision: 'reject', reviewer: 'Dr. Reviewer' })
        .then((response) => response);
      const overtaken = Date.now();
      expect((await second).status).toBe(200);
      expect(Date.now() - overtaken).toBeLessThan(4_000);
      dtr.failHanging();
      await Promise.all([first, rejected]);
    } finally {
      dtr.failHanging();
      await configureDtr(2000);
    }
  });
});

/**
 * A live Remicade (medical benefit) request without mock_result: Crohn's disease after a course of
 * prednisone, and nothing about tuberculosis screening, which the payer's questionnaire asks a person.
 */
function remicadeAfterPrednisone() {
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
 * A payer whose DTR service serves whole packages (a loopback HTTP server serving the sandbox payer's):
 * the case asks it for the questionnaire its CRD service named, prefills it with the payer's CQL, and
 * sends the answers in the PAS Claim once people have answered the rest.
 */
describe("a live prior authorization answers the payer's questionnaire from its DTR service", () => {
  const REMICADE_QUESTIONNAIRE = 'http://sandbox.healthcare-access-api.example/fhir/Questionnaire/remicade';
  const DTR_TOKEN = 'dtr-token-live-e2e-000001';
  let packages: ClearinghouseServer;
  let packagesServe: 'serve' | 'fail' = 'serve';
  let clinic: LiveKeys;

  beforeAll(async () => {
    packages = new ClearinghouseServer(({ body }): ClearinghouseReply => {
      if (packagesServe === 'fail') return { status: 500, headers: FHIR_JSON, body: '{}' };
      const served = answerQuestionnairePackageOperation(JSON.parse(body));
      return { status: served.status, headers: FHIR_JSON, body: JSON.stringify(served.body) };
    });
    const packagesUrl = await packages.start();
    clinic = await liveAccount();
    await configure(
      'questionnaire',
      {
        url: `${new URL(packagesUrl).origin}/fhir`,
        auth: { type: 'bearer', token: DTR_TOKEN },
        timeout_ms: 2000,
      },
      clinic.admin,
    );
  });
  afterAll(() => packages.stop());

  const submitted = async (behaviour: 'serve' | 'fail', provider = clinic.provider): Promise<string> => {
    packagesServe = behaviour;
    const response = await testApp.http().post(PATH).set(bearer(provider)).send(remicadeAfterPrednisone());
    expect(response.status).toBe(201);
    return (response.body.data as JsonObject).id as string;
  };
  const settled = (id: string, status: string, provider = clinic.provider) =>
    waitForStatus(testApp, provider, PATH, id, status);
  const itemsOf = (record: JsonObject) => (record.questionnaire as JsonObject).items as JsonObject[];

  it('prefills the package the DTR service sends, asked for with the connector’s token', async () => {
    const calls = packages.requests.length;
    const prepared = await settled(await submitted('serve'), 'awaiting_review');
    const [call] = packages.requests.slice(calls);
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
      .set(bearer(clinic.provider))
      .send({ answers: pending.map((link_id) => ({ link_id, value: true })), author: 'Dr. Example' });
    expect(answered.status).toBe(200);
    expect(answered.body.data.questionnaire).toMatchObject({ status: 'completed', pending: [] });
    pas.script(id, { submit: [approved(AUTHORIZATION)] });
    const reviewed = await testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(clinic.reviewer))
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
    const withoutDtr = await liveAccount();
    const calls = packages.requests.length;
    const id = await submitted('serve', withoutDtr.provider);
    const prepared = await settled(id, 'awaiting_review', withoutDtr.provider);
    expect(prepared.coverage_requirements).toMatchObject({ source: 'crd', pa_needed: 'auth-needed' });
    expect(prepared.questionnaire ?? null).toBeNull();
    expect(packages.requests.length).toBe(calls);
  });
});

describe('on the sandbox (a test-mode account)', () => {
  const OZEMPIC_QUESTIONNAIRE = 'http://sandbox.healthcare-access-api.example/fhir/Questionnaire/ozempic';
  let account: TestAccount;

  beforeAll(async () => {
    account = await testApp.createAccount();
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
  const answerAs = (id: string, body: object, key = account.keys.provider) =>
    testApp.http().post(`${PATH}/${id}/questionnaire`).set(bearer(key)).send(body);
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
      expect((await approve(id, account.keys.reviewer)).status).toBe(200);
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
      const refused = await approve(id, account.keys.reviewer);
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
      const refused = await answerAs(id, { answers: [{ link_id: 'a1c_at_least_7', value: 'yes' }] });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body.error)).toContain('a1c_at_least_7');
    });

    it('answers 400 naming an item the questionnaire does not have', async () => {
      const { id } = await submit(WITHOUT_A1C);
      await settled(id, 'awaiting_review');
      const refused = await answerAs(id, { answers: [{ link_id: 'no_such_item', value: true }] });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body.error)).toContain('no_such_item');
    });

    it("records a person's answer as manual, with its author, and completes the questionnaire", async () => {
      const { id } = await submit(WITHOUT_A1C);
      await settled(id, 'awaiting_review');
      const answered = await answerAs(id, {
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
      await answerAs(id, { answers: [{ link_id: 'a1c_at_least_7', value: true }] });

      const cleared = await answerAs(id, { answers: [{ link_id: 'a1c_at_least_7', value: null }] });

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
      const refused = await answerAs(id, { answers: [{ link_id: 'a1c_at_least_7' }] });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body.error)).toContain('null to clear it');
    });

    it('is submitted once the reviewer answers the missing item and approves', async () => {
      const { id } = await submit(WITHOUT_A1C);
      await settled(id, 'awaiting_review');
      const answered = await answerAs(
        id,
        { answers: [{ link_id: 'a1c_at_least_7', value: true }] },
        account.keys.reviewer,
      );
      expect(answered.status).toBe(200);
      expect((await approve(id, account.keys.reviewer)).status).toBe(200);
      await settled(id, 'completed');
    });

    it('marks an answer changed from what the CQL gave as an override', async () => {
      const { id } = await submit();
      await settled(id, 'awaiting_review');
      const answered = await answerAs(id, { answers: [{ link_id: 'metformin_trial', value: false }] });
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
      await approve(id, account.keys.reviewer);
      await settled(id, 'completed');
      const refused = await answerAs(id, { answers: [{ link_id: 'adult', value: true }] });
      expect(refused.status).toBe(409);
    });

    it('has no questionnaire when the payer names none (CRD unavailable): the review goes on the criteria', async () => {
      const { id } = await submit({ mock_result: { coverage_requirements: 'unavailable' } });
      const prepared = await settled(id, 'awaiting_review');
      expect(prepared.questionnaire ?? null).toBeNull();
      expect((await answerAs(id, { answers: [{ link_id: 'adult', value: true }] })).status).toBe(409);
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
      const answered = await answerAs(id, { answers: [{ link_id: 'tuberculosis_screening', value: true }] });
      expect(answered.status).toBe(200);
      expect(answered.body.data.questionnaire).toMatchObject({ status: 'completed', pending: [] });
      expect((await approve(id, account.keys.reviewer)).status).toBe(200);
      await settled(id, 'completed');
    });

    it('proposes from the evidence the question a later round serves after a person answers', async () => {
      const { id } = await submit({
        ...XELJANZ_MEETING_CRITERIA,
        visit_notes: [{ content: 'QuantiFERON negative in January.', created_at: '2026-10-02T10:00:00Z' }],
      });
      const prepared = await settled(id, 'awaiting_review');
      expect((prepared.questionnaire as JsonObject).pending).toEqual(['tnf_inhibitor_trial']);

      await answerAs(id, { answers: [{ link_id: 'tnf_inhibitor_trial', value: true }] });
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
});

/**
 * The case page of a live prior authorization whose payer's questionnaire is adaptive (a loopback DTR
 * service playing Inferno's dinner order, for another live account): a reviewer reads why approval
 * waits when nothing is left for a person, and what a failed `$next-question` round means, never that
 * the payer's CQL did not run unless it did.
 */
describe("the console's case page for a payer's adaptive questionnaire", () => {
  const PAGES = '/console/prior-authorizations';
  let payer: AdaptivePayer;
  let providerKey: string;
  let reviewer: ConsoleBrowser;

  beforeAll(async () => {
    const account = await testApp.createAccount('Clinic Adaptive');
    const keys = await testApp.createLiveKeys(account.accountId);
    providerKey = keys.provider;
    payer = new AdaptivePayer();
    await payer.connect(testApp, keys.admin);
    const person = await signedInPerson(testApp, account.accountId, ['reviewer'], 'Dr. Ada Reviewer');
    const live = await consolePost(testApp, person, '/console/mode', { mode: 'live', return_to: PAGES });
    reviewer = { ...person, cookie: cookiesFrom(live.headers['set-cookie'], person.cookie) };
  });
  afterAll(() => payer.stop());
  beforeEach(() => {
    payer.dtr.behaviour = 'serve';
    payer.dtr.servesExpressions = true;
    payer.dtr.packageBehaviour = 'serve';
  });

  const consoleCase = () => preparedAdaptiveCase(testApp, providerKey, 'Rosa');
  const answered = (id: string, answers: { link_id: string; value: unknown }[]) =>
    answerQuestionnaire(testApp, providerKey, id, answers);

  /** The notices of the case page's questionnaire section, as a person reads them. */
  async function questionnaireNotices(id: string): Promise<string[]> {
    return noticesIn((await consoleGet(testApp, reviewer, `${PAGES}/${id}`)).text);
  }

  /**
   * The notices the case page shows of the case as it is, but for a questionnaire without `adaptive`,
   * as on a case whose workflow closed or continued as new before the flag was added.
   */
  async function noticesWithoutAdaptiveFlag(id: string): Promise<string[]> {
    const read = await testApp.http().get(`/prior-authorization/${id}`).set(bearer(providerKey));
    const pa = read.body.data as PriorAuthorizationCase;
    const { adaptive: _adaptive, ...unflagged } = pa.questionnaire!;
    return noticesIn(
      PRIOR_AUTHORIZATION_CONSOLE.view.reviewerSections!({ ...pa, questionnaire: unflagged }).markup,
    );
  }

  function noticesIn(page: string): string[] {
    const section =
      /<section[^>]*aria-labelledby="payer-questionnaire-heading"[^>]*>([\s\S]*?)<\/section>/.exec(page)![1]!;
    return [...section.matchAll(/<p class="notice notice-error"[^>]*>([\s\S]*?)<\/p>/g)].map((match) =>
      match[1]!
        .replace(/<[^>]*>/g, '')
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }

  describe("when the payer's questionnaire service answers or fails its rounds", () => {
    it('says the payer has more questions to ask while nothing is left for a person and the service has not said it is complete', async () => {
      const id = await consoleCase();
      expect(
        await answered(id, [
          { link_id: 'LOC.1', value: 'Ward 4' },
          { link_id: '3.1', value: HAMBURGER },
        ]),
      ).toMatchObject({ adaptive: true, status: 'in_progress', pending: [], prefill_failure: null });

      expect(await questionnaireNotices(id)).toEqual([
        'The payer has more questions to ask: its questionnaire service has not said the questionnaire is complete, so approval waits. They appear here once it sends them; it is asked again with each answer.',
      ]);
    });

    it("says the payer's questionnaire service could not be reached for its next questions, that the next answer asks it again and the case may on its own, and how to retry at once, when a round failed with nothing pending", async () => {
      const id = await consoleCase();
      payer.dtr.behaviour = 'fail';
      expect(
        await answered(id, [
          { link_id: 'LOC.1', value: 'Ward 4' },
          { link_id: '3.1', value: HAMBURGER },
        ]),
      ).toMatchObject({ status: 'in_progress', pending: [], prefill_failure: 'dtr_unavailable' });

      expect(await questionnaireNotices(id)).toEqual([
        "The payer's questionnaire service could not be reached for its next questions (dtr_unavailable), so some may not be shown yet. Approval waits until it says the questionnaire is complete. The next answer asks it again, and the case may ask it again on its own after a wait; to retry at once without changing anything, save an answer again as it stands.",
      ]);
    });

    it("names the failed round, not the payer's CQL, when a round failed with a required item still pending", async () => {
      const id = await consoleCase();
      payer.dtr.behaviour = 'fail';
      expect(await answered(id, [{ link_id: '3.1', value: HAMBURGER }])).toMatchObject({
        pending: ['LOC.1'],
        prefill_failure: 'dtr_unavailable',
      });

      const notices = await questionnaireNotices(id);
      expect(notices[0]).toMatch(
        /^The payer's questionnaire service could not be reached for its next questions/,
      );
      expect(notices[1]).toBe('Approval waits for 1 required item(s): LOC.1.');
      expect(notices.join(' ')).not.toContain('CQL');
    });

    it("names the failed round, not the payer's CQL, when a round failed and no answer is the CQL's", async () => {
      // Served questions that no expression answers leave nothing on the page that tells an adaptive questionnaire apart.
      payer.dtr.servesExpressions = false;
      const id = await consoleCase();
      payer.dtr.behaviour = 'fail';
      expect(await answered(id, [{ link_id: 'LOC.1', value: 'Ward 4' }])).toMatchObject({
        adaptive: true,
        pending: ['PBD.1', 'PBD.2', '3.1'],
        prefill_failure: 'dtr_unavailable',
      });

      const notices = await questionnaireNotices(id);
      expect(notices[0]).toMatch(
        /^The payer's questionnaire service could not be reached for its next questions/,
      );
      expect(notices.join(' ')).not.toContain('CQL');
    });

    it('says the payer has more questions to ask on a case whose questionnaire does not say it is adaptive', async () => {
      const id = await consoleCase();
      await answered(id, [
        { link_id: 'LOC.1', value: 'Ward 4' },
        { link_id: '3.1', value: HAMBURGER },
      ]);

      expect(await noticesWithoutAdaptiveFlag(id)).toEqual([
        'The payer has more questions to ask: its questionnaire service has not said the questionnaire is complete, so approval waits. They appear here once it sends them; it is asked again with each answer.',
      ]);
    });

    it("names a failed round, not the payer's CQL, on a case whose questionnaire does not say it is adaptive", async () => {
      const id = await consoleCase();
      payer.dtr.behaviour = 'fail';
      await answered(id, [{ link_id: '3.1', value: HAMBURGER }]);

      const notices = await noticesWithoutAdaptiveFlag(id);
      expect(notices[0]).toMatch(
        /^The payer's questionnaire service could not be reached for its next questions \(dtr_unavailable\)/,
      );
      expect(notices.join(' ')).not.toContain('CQL');
    });
  });

  describe("when the payer's CQL runs past the clinical evaluation time limit", () => {
    it("names the payer's CQL, cql_timed_out, not its questionnaire service, in the case and on its page, when the CQL of the round that served the questions ran past its time limit", async () => {
      payer.dtr.packageBehaviour = 'endless-cql';
      const id = await consoleCase();

      const read = await testApp.http().get(`/prior-authorization/${id}`).set(bearer(providerKey));
      const pa = read.body.data as PriorAuthorizationCase;
      expect(pa.questionnaire).toMatchObject({ adaptive: true, prefill_failure: 'cql_timed_out' });
      // The service served its first questions; the CQL answered none of them.
      expect(pa.questionnaire!.items.find((item) => item.link_id === 'PBD.1')).toMatchObject({
        answer: null,
      });
      expect(pa.questionnaire!.items.map((item) => item.link_id)).toContain('3.1');
      expect(pa.status_history.at(-1)!.reason).toMatch(
        /The payer's CQL did not prefill its questionnaire \(cql_timed_out\)/,
      );
      const notices = await questionnaireNotices(id);
      expect(notices[0]).toBe(
        "The payer's CQL did not prefill the questions its service last served (cql_timed_out): they wait for a person.",
      );
      expect(notices.join(' ')).not.toContain('questionnaire service');
    });
  });
});
