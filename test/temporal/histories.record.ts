import { writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { temporal } from '@temporalio/proto';

import { pdfDocument, scannedPage } from '../../bench/document-corpus';
import { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
import type { CdsHooksRequest } from '../../infrastructure/connectors/crd/cds-hooks';
import { answerOrderSign } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { AdaptivePayer, answerQuestionnaire, preparedAdaptiveCase } from '../support/adaptive-payer';
import { ClearinghouseServer } from '../support/clearinghouse-server';
import { cardImage } from '../support/insurance-cards';
import { JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import {
  authorizationFor,
  benefitVerificationRequest,
  incomeVerification,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
  syntheticPatient,
  uninsuredAttestation,
  XELJANZ_MEETING_CRITERIA,
} from '../support/case-requests';
import { REPLAY_FIXTURE_KEYS } from '../support/history';
import {
  LINK_BASE_URL,
  mailedLink,
  startAuthorizationWithClock,
  submitLinkPage,
} from '../support/provider-authorizations';
import { approved as approvedByPas, PasServer } from '../support/pas-server';
import { addToManifest, HISTORIES } from '../support/recorded-histories';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';
import { requestFailNowUpdate, requestRetryNowUpdate } from '../../workflows/case.messages';

/**
 * Records the histories that test/temporal/replay.test.ts replays: one run of each path through each
 * workflow, encrypted with the fixed replay key. Histories accumulate: each recording is a new
 * generation beside the old ones, which stay as the proof that runs started under older code still
 * replay. Run with `HISTORY_GENERATION=<name> npm run record:histories`; an existing file is never
 * overwritten, and each new file joins the manifest the replay test checks them against.
 */
const GENERATION = process.env.HISTORY_GENERATION;

describe('recording workflow histories', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    if (!GENERATION || !/^[a-z0-9-]+$/.test(GENERATION)) {
      throw new Error('Name the generation of histories to record: HISTORY_GENERATION=<lowercase-name>');
    }
    testApp = await startTestApp({
      PAYLOAD_ENCRYPTION_KEYS: REPLAY_FIXTURE_KEYS,
      PAYER_POLL_INTERVAL_MS: '300',
      CASE_REVIEW_REMINDER_MS: '1000',
      CASE_REVIEW_EXPIRY_MS: '2000',
      // A payer deadline that passes while the simulated payer waits for answers, so a run records the overdue notice.
      PA_STANDARD_DUE_MS: '1500',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
      // Outages a sandbox case simulates are waited out on a schedule of seconds, not hours.
      CASE_OUTAGE_FIRST_RETRY_MS: '3000',
      CASE_OUTAGE_LONGEST_RETRY_MS: '3000',
      BV_OUTAGE_DEADLINE_MS: '30000',
      ENROLLMENT_OUTAGE_DEADLINE_MS: '20000',
      // Signing links name paths of this app.
      PUBLIC_API_URL: LINK_BASE_URL,
    });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  async function record(workflowId: string, name: string, app: TestApp = testApp): Promise<void> {
    const handle = app.temporalClient.workflow.getHandle(workflowId);
    await handle.result();
    const { type } = await handle.describe();
    // Binary protobuf: the SDK's JSON form needs protobufjs type identity, which jest's module sandbox breaks.
    const bytes = temporal.api.history.v1.History.encode(await handle.fetchHistory()).finish();
    const file = `${type}--${name}--${GENERATION}.binpb`;
    writeFileSync(path.join(HISTORIES, file), bytes, { flag: 'wx' });
    addToManifest(file);
  }

  /**
   * A live account on an app and worker of their own: a review window of its own, since the recording
   * app's two seconds may pass while the payer's services are asked; a public URL, which CRD's JWT names.
   */
  async function inLiveApp(
    run: (liveApp: TestApp, keys: Record<'provider' | 'reviewer' | 'admin', string>) => Promise<void>,
    env: Record<string, string> = {},
  ): Promise<void> {
    const liveApp = await startTestApp({
      PAYLOAD_ENCRYPTION_KEYS: REPLAY_FIXTURE_KEYS,
      PUBLIC_API_URL: 'https://api.clinic.example',
      ...env,
    });
    const liveWorker = await liveApp.startWorker();
    try {
      await run(liveApp, await liveApp.createLiveKeys((await liveApp.createAccount()).accountId));
    } finally {
      await liveWorker.stop();
      await liveApp.close();
    }
  }

  const post = async (route: string, body: unknown) =>
    (
      await testApp
        .http()
        .post(route)
        .set(bearer(account.keys.provider))
        .send(body as object)
    ).body.data as JsonObject;
  const approveAtReview = async (priorAuthorizationId: string) => {
    await waitForStatus(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      priorAuthorizationId,
      'awaiting_review',
    );
    await decide(`/prior-authorization/${priorAuthorizationId}/review`, {
      decision: 'approve',
      reviewer: 'Dr. R',
    });
  };
  const signThroughPage = async (accountId: string, authorizationId: string) => {
    const link = await mailedLink(testApp, accountId, authorizationId, 'provider_authorization.signing_link');
    const signed = await submitLinkPage(testApp, link, { typed_name: 'Amadou Reviewsworth', attest: 'yes' });
    if (signed.status !== 200) throw new Error(`signing answered ${signed.status}`);
  };
  const decide = (route: string, body: unknown) =>
    testApp
      .http()
      .post(route)
      .set(bearer(account.keys.reviewer))
      .send(body as object);

  it('records prior authorizations: approved, rejected, cancelled, expired', async () => {
    const approved = await post('/prior-authorization', priorAuthorizationRequest());
    await approveAtReview(approved.id);
    await record(approved.id, 'approved-by-payer');

    const rejected = await post('/prior-authorization', priorAuthorizationRequest());
    await waitForStatus(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      rejected.id,
      'awaiting_review',
    );
    await decide(`/prior-authorization/${rejected.id}/review`, { decision: 'reject', reviewer: 'Dr. R' });
    await record(rejected.id, 'rejected-at-review');

    const cancelled = await post('/prior-authorization', priorAuthorizationRequest());
    await waitForStatus(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      cancelled.id,
      'awaiting_review',
    );
    await testApp
      .http()
      .post(`/prior-authorization/${cancelled.id}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Duplicate' });
    await record(cancelled.id, 'cancelled-in-review');

    const expired = await post('/prior-authorization', priorAuthorizationRequest());
    await record(expired.id, 'review-expired');
  });

  it('records prior authorizations through the payer exchange: information requested, overdue, answered; partial; not submitted', async () => {
    const reviewed = async (mockResult: Record<string, unknown>, overrides: Record<string, unknown> = {}) => {
      const created = await post(
        '/prior-authorization',
        priorAuthorizationRequest({ mock_result: mockResult, ...overrides }),
      );
      await waitForStatus(
        testApp,
        account.keys.provider,
        '/prior-authorization',
        created.id,
        'awaiting_review',
      );
      await decide(`/prior-authorization/${created.id}/review`, { decision: 'approve', reviewer: 'Dr. R' });
      return created.id as string;
    };
    const caseOf = async (id: string) =>
      (await testApp.http().get(`/prior-authorization/${id}`).set(bearer(account.keys.provider))).body
        .data as JsonObject;

    const asked = await reviewed({ result: 'other' });
    const overdue = await eventually(async () => {
      const current = await caseOf(asked);
      return current.overdue && current.pending_request ? current : undefined;
    });
    await testApp
      .http()
      .post(`/prior-authorization/${asked}/information`)
      .set(bearer(account.keys.provider))
      .send({
        answers: [
          { question_id: overdue.pending_request.questions[0].id, answer: 'A1c 8.4 % on 2026-10-20.' },
        ],
      });
    await record(asked, 'information-overdue-then-approved');

    await record(
      await reviewed(
        { result: 'partially_approved' },
        { prescription: { drug_name: 'Ozempic', quantity: 4 } },
      ),
      'partially-approved',
    );
    await record(await reviewed({ result: 'not_submitted' }), 'not-submitted');
  });

  it("records prior authorizations after the payer's CRD service: no authorization needed, and its service unavailable", async () => {
    const notNeeded = await post(
      '/prior-authorization',
      priorAuthorizationRequest({ mock_result: { coverage_requirements: 'no-auth' } }),
    );
    await record(notNeeded.id, 'completed-no-authorization-needed');

    const fellBack = await post(
      '/prior-authorization',
      priorAuthorizationRequest({
        mock_result: { result: 'approved', coverage_requirements: 'unavailable' },
      }),
    );
    await approveAtReview(fellBack.id);
    await record(fellBack.id, 'approved-after-crd-unavailable');
  });

  it("records a prior authorization whose payer's questionnaire waits for one answer, given through the API, then approved", async () => {
    const created = await post(
      '/prior-authorization',
      priorAuthorizationRequest({
        evidence: [],
        visit_notes: [
          { content: 'Patient has taken metformin for 6 months.', created_at: '2026-10-02T10:00:00Z' },
        ],
      }),
    );
    await waitForStatus(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      created.id,
      'awaiting_review',
    );
    await testApp
      .http()
      .post(`/prior-authorization/${created.id}/questionnaire`)
      .set(bearer(account.keys.provider))
      .send({ answers: [{ link_id: 'a1c_at_least_7', value: true }], author: 'Dr. R' });
    await decide(`/prior-authorization/${created.id}/review`, { decision: 'approve', reviewer: 'Dr. R' });
    await record(created.id, 'questionnaire-answered-then-approved');
  });

  /**
   * Answers the loopback adaptive payer's dinner order (location and hamburger, then its follow-up) as
   * an integration does, checks that its service then calls it complete, and approves the case over PAS.
   */
  async function answerDinnerOrderThenApprove(
    liveApp: TestApp,
    keys: Record<'provider' | 'reviewer', string>,
    payer: AdaptivePayer,
    id: string,
    authorizationNumber: string,
  ): Promise<void> {
    await answerQuestionnaire(liveApp, keys.provider, id, [
      { link_id: 'LOC.1', value: 'Ward 4' },
      { link_id: '3.1', value: { system: null, code: 'Hamburger', display: null } },
    ]);
    const completed = await answerQuestionnaire(liveApp, keys.provider, id, [
      { link_id: '3.3', value: 'No onions' },
    ]);
    if (completed.status !== 'completed') throw new Error(`the questionnaire is ${completed.status}`);
    payer.pas.script(id, {
      submit: [
        approvedByPas({ number: authorizationNumber, quantity: 4, start: '2026-12-01', end: '2027-05-31' }),
      ],
    });
    const review = await liveApp
      .http()
      .post(`/prior-authorization/${id}/review`)
      .set(bearer(keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. R' });
    if (review.status !== 200) throw new Error(`approval answered ${review.status}`);
  }

  it("records a live prior authorization whose payer's adaptive questionnaire is served over four $next-question rounds, then approved", async () => {
    // Live mode, against loopback payer services (test/dtr/payer-questionnaires.test.ts).
    const payer = new AdaptivePayer();
    // The names first, which the payer's CQL answers, so prefill asks again at once: two rounds before review.
    payer.dtr.behaviour = 'names-first';
    await inLiveApp(async (liveApp, keys) => {
      await payer.connect(liveApp, keys.admin);
      const id = await preparedAdaptiveCase(liveApp, keys.provider, 'Replay');
      await answerDinnerOrderThenApprove(liveApp, keys, payer, id, 'AUTH-REPLAY-0001');
      const rounds = payer.dtr.nextQuestionRequests().length;
      if (rounds !== 4) throw new Error(`$next-question was asked ${rounds} times, not 4`);
      await record(id, 'adaptive-questionnaire-answered-then-approved', liveApp);
    }).finally(() => payer.stop());
  });

  it("records a live prior authorization whose payer's DTR service fails the adaptive round after one the CQL answered, asked again on the outage schedule, then approved", async () => {
    // Live mode, against loopback payer services (test/dtr/payer-questionnaires.test.ts): the
    // names come alone and the CQL answers them, so prefill asks again at once, and that round fails.
    const payer = new AdaptivePayer();
    payer.dtr.behaviour = 'names-first';
    payer.dtr.failOnceAfterServing = (served) => served.includes('PBD') && !served.includes('LOC');
    await inLiveApp(
      async (liveApp, keys) => {
        await payer.connect(liveApp, keys.admin);
        const id = await preparedAdaptiveCase(liveApp, keys.provider, 'Replay');
        // Asked again by no one but the outage schedule (patch retry-failed-last-adaptive-round).
        const retried = await eventually(async () => {
          const read = await liveApp.http().get(`/prior-authorization/${id}`).set(bearer(keys.provider));
          const questionnaire = read.body.data.questionnaire as JsonObject;
          return questionnaire.prefill_failure === null ? questionnaire : undefined;
        });
        if (JSON.stringify(retried.pending) !== JSON.stringify(['LOC.1', '3.1']))
          throw new Error(`the retried round left ${JSON.stringify(retried.pending)} pending`);
        await answerDinnerOrderThenApprove(liveApp, keys, payer, id, 'AUTH-REPLAY-0004');
        // Two at prefill (the second failed), the retry, one after each answer.
        const rounds = payer.dtr.nextQuestionRequests().length;
        if (rounds !== 5) throw new Error(`$next-question was asked ${rounds} times, not 5`);
        await record(id, 'adaptive-round-failed-then-retried-then-approved', liveApp);
      },
      // The failed round is asked again after a second, not the default five minutes.
      { CASE_OUTAGE_FIRST_RETRY_MS: '1000', CASE_OUTAGE_LONGEST_RETRY_MS: '1000' },
    ).finally(() => payer.stop());
  });

  it('records a sandbox prior authorization whose adaptive round after an answer proposes its question from the evidence, then approved', async () => {
    // An app of its own: the recording app's review expires within two seconds.
    const sandboxApp = await startTestApp({
      PAYLOAD_ENCRYPTION_KEYS: REPLAY_FIXTURE_KEYS,
      PAYER_POLL_INTERVAL_MS: '300',
    });
    const sandboxWorker = await sandboxApp.startWorker();
    try {
      const { keys } = await sandboxApp.createAccount();
      const route = '/prior-authorization';
      const send = (path: string, key: string, body: object) =>
        sandboxApp.http().post(path).set(bearer(key)).send(body);
      const created = await send(
        route,
        keys.provider,
        priorAuthorizationRequest({
          ...XELJANZ_MEETING_CRITERIA,
          visit_notes: [{ content: 'QuantiFERON negative in January.', created_at: '2026-10-02T10:00:00Z' }],
        }),
      );
      const id = created.body.data.id as string;
      await waitForStatus(sandboxApp, keys.provider, route, id, 'awaiting_review');
      await send(`${route}/${id}/questionnaire`, keys.provider, {
        answers: [{ link_id: 'tnf_inhibitor_trial', value: true }],
      });
      // Served by the round the answer asked for, and proposed (patch adaptive-round-proposals).
      await eventually(async () => {
        const read = await sandboxApp.http().get(`${route}/${id}`).set(bearer(keys.provider));
        const items = (read.body.data.questionnaire as JsonObject).items as JsonObject[];
        return items.find((item) => item.link_id === 'tuberculosis_screening' && item.origin === 'proposed');
      });
      await send(`${route}/${id}/questionnaire`, keys.provider, {
        answers: [{ link_id: 'tuberculosis_screening', value: true }],
      });
      const review = await send(`${route}/${id}/review`, keys.reviewer, {
        decision: 'approve',
        reviewer: 'Dr. R',
      });
      if (review.status !== 200) throw new Error(`approval answered ${review.status}`);
      await record(id, 'adaptive-later-round-proposed-then-approved', sandboxApp);
    } finally {
      await sandboxWorker.stop();
      await sandboxApp.close();
    }
  });

  it("records live prior authorizations that asked the account's CRD service: no authorization needed; authorization needed, then approved by the payer; the service answering 503, then approved on the catalog's criteria", async () => {
    // Live mode, against a loopback CRD service and PAS server (test/cases/coverage-requirements.test.ts);
    // no DTR connector, so a named questionnaire is not fetched and the case goes to review on CRD alone.
    let paNeeded: 'no-auth' | 'auth-needed' = 'no-auth';
    const crd = new ClearinghouseServer(({ body }) => ({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(answerOrderSign(JSON.parse(body) as CdsHooksRequest, paNeeded)),
    }));
    const pas = new PasServer();
    await inLiveApp(async (liveApp, keys) => {
      const [crdUrl, pasUrl] = await Promise.all([crd.start(), pas.start()]);
      for (const [kind, settings] of [
        ['prior_authorization', { url: pasUrl, auth: { type: 'bearer', token: 'pas-token-replay-0001' } }],
        [
          'coverage_requirements',
          {
            url: `${new URL(crdUrl).origin}/cds-services/crd-order-sign`,
            client_id: 'clinic-crd-replay',
            timeout_ms: 2000,
          },
        ],
      ] as const) {
        const configured = await liveApp
          .http()
          .put(`/connectors/${kind}`)
          .set(bearer(keys.admin))
          .send(settings);
        expect(configured.status).toBe(200);
      }
      const settled = (id: string, status: string) =>
        waitForStatus(liveApp, keys.provider, '/prior-authorization', id, status);
      // A live request carries no mock_result: the loopback service answers it.
      const submitted = async () => {
        const { mock_result: _mockResult, ...request } = priorAuthorizationRequest({
          patient: syntheticPatient({ first_name: 'Replay', last_name: 'Zzcrdlive' }),
          diagnoses: [{ code: 'K50.90' }],
          prescription: { drug_name: 'Remicade 100 mg vial', quantity: 4 },
        });
        const created = await liveApp
          .http()
          .post('/prior-authorization')
          .set(bearer(keys.provider))
          .send(request);
        expect(created.status).toBe(201);
        return (created.body.data as JsonObject).id as string;
      };
      // Each run is checked before it is recorded, so a file never holds a path other than its name's.
      const requirementsOfApprovedAfterReview = async (id: string, number: string) => {
        const prepared = await settled(id, 'awaiting_review');
        pas.script(id, {
          submit: [approvedByPas({ number, quantity: 4, start: '2026-12-01', end: '2027-05-31' })],
        });
        const review = await liveApp
          .http()
          .post(`/prior-authorization/${id}/review`)
          .set(bearer(keys.reviewer))
          .send({ decision: 'approve', reviewer: 'Dr. R' });
        expect(review.status).toBe(200);
        expect(await settled(id, 'completed')).toMatchObject({
          outcome: { result: 'approved', authorization_number: number },
        });
        return prepared.coverage_requirements;
      };

      const notNeeded = await submitted();
      expect(await settled(notNeeded, 'completed')).toMatchObject({
        outcome: { result: 'approved', detail_code: 'prior_auth_not_required' },
        coverage_requirements: { source: 'crd', pa_needed: 'no-auth' },
        submission: null,
      });
      await record(notNeeded, 'live-completed-no-authorization-needed', liveApp);

      paNeeded = 'auth-needed';
      const needed = await submitted();
      expect(await requirementsOfApprovedAfterReview(needed, 'AUTH-REPLAY-0002')).toMatchObject({
        source: 'crd',
        pa_needed: 'auth-needed',
        fallback_reason: null,
      });
      await record(needed, 'live-approved-after-authorization-needed', liveApp);

      crd.script.push({ status: 503 });
      const fellBack = await submitted();
      expect(await requirementsOfApprovedAfterReview(fellBack, 'AUTH-REPLAY-0003')).toMatchObject({
        source: 'catalog',
        fallback_reason: 'crd_unavailable',
      });
      await record(fellBack, 'live-approved-after-crd-unavailable', liveApp);
      expect(crd.requests).toHaveLength(3);
    }).finally(() => Promise.all([crd.stop(), pas.stop()]));
  });

  it('records benefit verifications: completed, failed, verified manually', async () => {
    const completed = await post('/benefit-verification', benefitVerificationRequest());
    await record(completed.id, 'completed');
    const failed = await post(
      '/benefit-verification',
      benefitVerificationRequest({ mock_result: { status: 'failed' } }),
    );
    await record(failed.id, 'failed');
    const manual = await post(
      '/benefit-verification',
      benefitVerificationRequest({
        mock_result: { status: 'completed', case: 'manual_verification_required' },
      }),
    );
    await waitForStatus(
      testApp,
      account.keys.provider,
      '/benefit-verification',
      manual.id,
      'awaiting_review',
    );
    await decide(`/benefit-verification/${manual.id}/outcome`, {
      status: 'completed',
      coverage_status: 'covered',
    });
    await record(manual.id, 'verified-manually');
  });

  it('records cases that read their documents: a benefit verification from a card image, a clinical eligibility check from a PDF note', async () => {
    const card = await cardImage({ memberName: 'REPLAY SAMPLE' });
    const fromCardRequest: Record<string, unknown> = benefitVerificationRequest({
      insurance: [{ file_content: card.toString('base64') }],
    });
    delete fromCardRequest.insurance_content;
    const fromCard = await post('/benefit-verification', fromCardRequest);
    await record(fromCard.id, 'completed-from-card-image');

    const note = pdfDocument([{ lines: ['Progress note', 'A1c 8.1 %. On metformin for 8 months.'] }]);
    const check = await testApp
      .http()
      .post('/clinical-eligibility')
      .set(bearer(account.keys.provider))
      .send({
        patient: benefitVerificationRequest().patient,
        drugs: [{ name: 'Ozempic', quantity: 1 }],
        diagnoses: [{ code: 'E11.9' }],
        evidence: [
          {
            title: 'Progress note',
            date_created: new Date().toISOString(),
            asset: { fileType: 'application/pdf', fileContent: note.toString('base64') },
          },
        ],
      });
    await record(check.body.clinical_elgibility_id, 'completed-from-pdf-note');
  });

  it('records prior authorizations from a card image: approved, and failed on a page that is no card', async () => {
    const fromCard = async (document: Buffer) => {
      const request: Record<string, unknown> = priorAuthorizationRequest({
        patient: syntheticPatient({ insurance: [{ file_content: document.toString('base64') }] }),
      });
      delete request.insurance_content;
      return post('/prior-authorization', request);
    };
    const approved = await fromCard(await cardImage({ memberName: 'REPLAY SAMPLE' }));
    await approveAtReview(approved.id);
    await record(approved.id, 'approved-from-card-image');

    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient.']);
    const unreadable = await fromCard(letter.scan);
    await record(unreadable.id, 'failed-card-unreadable');
  });

  it('records a prior authorization whose progress note is a PDF, approved', async () => {
    const note = pdfDocument([{ lines: ['Progress note', 'Metformin for 6 months; A1c 8.1 %.'] }]);
    const fromNote = await post(
      '/prior-authorization',
      priorAuthorizationRequest({
        visit_notes: [],
        evidence: [
          {
            title: 'Progress note',
            date_created: '2026-10-02T10:00:00Z',
            asset: { fileType: 'application/pdf', fileContent: note.toString('base64') },
          },
        ],
      }),
    );
    await approveAtReview(fromNote.id);
    await record(fromNote.id, 'approved-from-pdf-note');
  });

  it('records a clinical eligibility check and enrollments: enrolled, more information then enrolled, ineligible', async () => {
    const check = await testApp
      .http()
      .post('/clinical-eligibility')
      .set(bearer(account.keys.provider))
      .send({
        patient: benefitVerificationRequest().patient,
        drugs: [
          { name: 'Ozempic', quantity: 1 },
          { name: 'Repatha', quantity: 1 },
        ],
        diagnoses: [{ code: 'E11.9' }, { description: 'hypertension' }],
        visit_notes: [
          { content: 'A1c 8.1 %. On metformin for 8 months.', created_at: new Date().toISOString() },
        ],
      });
    await record(check.body.clinical_elgibility_id, 'completed');

    const enrollment = (overrides: Record<string, unknown>) => ({
      programId: 'prog_01jnzn5t37ydrsw602nch4aqg1',
      patient: {
        first_name: 'Replay',
        last_name: 'Fixture',
        date_of_birth: '1975-03-02',
        address: {
          street: '1 Way',
          city: 'Portland',
          state_province: 'OR',
          zip_postal_code: '97201',
          country: 'US',
        },
        email: 'replay@example.test',
        phone: '+1 503 555 0100',
        insurance_details: { data: { payer: 'Blue Horizon Health', membership_number: 'ZZBHH555000111' } },
      },
      prescription: { drug_name: 'Ozempic' },
      ...overrides,
    });
    const enrolled = await post('/patient-enrollment', enrollment({}));
    await record(enrolled.id, 'enrolled');

    const needsIncome = await post(
      '/patient-enrollment',
      enrollment({
        programId: 'prog_01jnnmj58jf1nen1dn9mmkb0r6',
        ...authorizationFor('prog_01jnnmj58jf1nen1dn9mmkb0r6'),
        prescription: { drug_name: 'Humira' },
        evidence: [uninsuredAttestation],
      }),
    );
    await testApp
      .http()
      .post(`/patient-enrollment/${needsIncome.id}/information`)
      .set(bearer(account.keys.provider))
      .send({ evidence: [incomeVerification(3_000_000)] });
    await record(needsIncome.id, 'information-then-enrolled');

    const ineligible = await post(
      '/patient-enrollment',
      enrollment({
        patient: {
          ...enrollment({}).patient,
          insurance_details: { data: { payer: 'Evergreen Senior Rx', membership_number: 'EVG1' } },
        },
      }),
    );
    await record(ineligible.id, 'ineligible');
  });

  it('records a retention run that purges a closed case, and a patient erasure of an open and a closed case', async () => {
    const expired = await post('/benefit-verification', benefitVerificationRequest());
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', expired.id, 'completed');
    // Older than any retention the recording's configuration allows.
    await testApp.db.query(
      `UPDATE case_summaries SET updated_at = now() - interval '36500 days' WHERE case_id = $1`,
      [expired.id],
    );
    const retentionRun = `case-retention-recording-${expired.id}`;
    await testApp.temporalClient.workflow.start('caseRetentionWorkflow', {
      workflowId: retentionRun,
      taskQueue: testApp.config.temporal.taskQueue,
    });
    await record(retentionRun, 'purged-one');

    const patient = syntheticPatient({ internal_id: 'replay-erased-patient' });
    const closed = await post('/benefit-verification', benefitVerificationRequest({ patient }));
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', closed.id, 'completed');
    const open = await post('/prior-authorization', priorAuthorizationRequest({ patient }));
    await waitForStatus(testApp, account.keys.provider, '/prior-authorization', open.id, 'awaiting_review');
    const erasure = await testApp
      .http()
      .post('/patients/erasure')
      .set(bearer(account.keys.admin))
      .send({ patient_internal_id: 'replay-erased-patient' });
    await record(erasure.body.data.id, 'erased-open-and-closed');
  });

  it('records cases waiting out connector outages: recovered, outlasting the deadline, retried then failed by an operator', async () => {
    const outage = (seconds: number) => ({ outage: { unavailable_for_seconds: seconds } });
    const recovered = await post(
      '/benefit-verification',
      benefitVerificationRequest({ mock_result: { status: 'completed', ...outage(14) } }),
    );
    const outlasted = await post(
      '/benefit-verification',
      benefitVerificationRequest({ mock_result: { status: 'completed', ...outage(3600) } }),
    );
    const operated = await post(
      '/benefit-verification',
      benefitVerificationRequest({ mock_result: { status: 'completed', ...outage(3600) } }),
    );
    const paRecovered = await post(
      '/prior-authorization',
      priorAuthorizationRequest({ mock_result: { result: 'approved', ...outage(14) } }),
    );
    const handle = testApp.temporalClient.workflow.getHandle(operated.id);
    // Each is taken only while the case waits between calls, and refused while a call's attempts run.
    const whenWaiting = (send: () => Promise<unknown>) =>
      eventually(
        () =>
          send().then(
            () => true,
            () => undefined,
          ),
        60_000,
      );
    await whenWaiting(() => handle.executeUpdate(requestRetryNowUpdate, { args: [{}] }));
    await whenWaiting(() =>
      handle.executeUpdate(requestFailNowUpdate, { args: [{ reason: 'outage_outlasting' }] }),
    );
    await record(operated.id, 'retried-then-failed-by-operator');
    await record(recovered.id, 'outage-recovered');
    await record(outlasted.id, 'outage-outlasted');

    // The recording's review window is two seconds: the prepared case expires in review.
    await record(paRecovered.id, 'outage-recovered-then-review-expired');

    const enrollment = await post('/patient-enrollment', {
      ...patientEnrollmentRequest(),
      ...authorizationFor(patientEnrollmentRequest().programId),
      mock_result: outage(14),
    });
    await record(enrollment.id, 'outage-recovered');
  }, 240_000);

  it("records prescribers' authorizations: unsigned, reminded then lapsed; signed through the page, reminded before renewal then lapsed; revoked through the API", async () => {
    // One pending authorization per prescriber and account: each run has an account of its own.
    const accounts = await Promise.all([0, 1, 2].map(() => testApp.createAccount()));
    const unsigned = await startAuthorizationWithClock(testApp, accounts[0]!.accountId, {
      signingLinkTtlMs: 2_000,
      signingReminderAfterMs: 1_000,
      renewalReminderBeforeMs: 0,
      periodMs: 60_000,
    });
    const signedThenLapsed = await startAuthorizationWithClock(testApp, accounts[1]!.accountId, {
      signingLinkTtlMs: 60_000,
      signingReminderAfterMs: 30_000,
      renewalReminderBeforeMs: 1_000,
      periodMs: 2_000,
    });
    await signThroughPage(accounts[1]!.accountId, signedThenLapsed);
    await record(unsigned, 'reminded-then-expired');
    await record(signedThenLapsed, 'signed-renewal-reminded-then-expired');

    const revoked = await startAuthorizationWithClock(testApp, accounts[2]!.accountId, {
      signingLinkTtlMs: 60_000,
      signingReminderAfterMs: 30_000,
      renewalReminderBeforeMs: 0,
      periodMs: 60_000,
    });
    await signThroughPage(accounts[2]!.accountId, revoked);
    await testApp
      .http()
      .post(`/provider-authorizations/${revoked}/revoke`)
      .set(bearer(accounts[2]!.keys.provider));
    await record(revoked, 'signed-then-revoked');
  });

  it('records webhook activation and a delivery retried after a failure', async () => {
    const endpoints = (await testApp.http().get('/webhooks').set(bearer(account.keys.provider))).body.data
      .data;
    await record(`activation-${endpoints[0].id}`, 'activated');

    receiver.script.push(500);
    const [deliveryId] = await testApp.app.get(WebhookPublisher).publish({
      eventId: 'evt_replay_fixture_delivery',
      accountId: account.accountId,
      type: 'prior_authorization.updated',
      data: { id: 'pa_fixture', object: 'prior_authorization', status: 'processing' },
      createdAt: new Date().toISOString(),
    });
    await eventually(async () =>
      receiver.requests.some(
        (request) =>
          request.headers['x-webhook-id'] === 'evt_replay_fixture_delivery' && receiver.script.length === 0,
      ),
    );
    await record(deliveryId!, 'retried-then-delivered');
  });
});
