import type { Response } from 'supertest';

import { eventsFor, JsonObject, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
} from '../support/case-requests';
import { ConnectorFailure, PayerDouble, ProgramHubDouble } from '../support/connector-doubles';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { startTestWorker, TestWorker } from '../support/workers';

const FINAL_STATUSES = ['completed', 'failed', 'cancelled'];

/** Fails every attempt, asking for a short wait so that the retries run out within a second or two. */
const UNAVAILABLE: ConnectorFailure = { transient: true, retryAfterMs: 100 };
/** Fails every attempt slowly enough that a cancellation arrives while the call is still being retried. */
const UNAVAILABLE_FOR_A_WHILE: ConnectorFailure = { transient: true, retryAfterMs: 500 };
const REFUSED: ConnectorFailure = { transient: false };

describe('a case whose connector fails', () => {
  const payer = new PayerDouble();
  const hub = new ProgramHubDouble();
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    // Outages are waited out for a second at most: what these tests see is how the waiting ends.
    testApp = await startTestApp({
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
      CASE_OUTAGE_FIRST_RETRY_MS: '100',
      BV_OUTAGE_DEADLINE_MS: '1000',
      PA_OUTAGE_DEADLINE_MS: '1000',
      PA_REVIEW_DUE_MS: '1000',
      ENROLLMENT_OUTAGE_DEADLINE_MS: '1000',
    });
    const { config, db, temporalClient } = testApp;
    worker = await startTestWorker({ config, db, temporalClient, connectors: { payer, programHub: hub } });
    account = await testApp.createAccount();
    const secret = 'whsec_connector_failures_01';
    receiver = await new TestReceiver(secret).start();
    const endpoint = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'case events',
        url: receiver.url,
        secret,
        events: ['prior_authorization.updated', 'benefit_verification.updated', 'patient_enrollment.updated'],
      });
    receiver.endpointIds.add(endpoint.body.data.id);
    await testApp
      .http()
      .patch(`/webhooks/${endpoint.body.data.id}`)
      .set(bearer(account.keys.provider))
      .send({ active: true });
    await waitForStatus(testApp, account.keys.provider, '/webhooks', endpoint.body.data.id, 'active');
  });
  afterEach(() => {
    payer.reset();
    hub.reset();
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const finalEventsOf = (id: string) =>
    eventsFor(receiver, id).filter((event) => FINAL_STATUSES.includes((event.data as JsonObject).status));

  describe.each([
    {
      caseType: 'a benefit verification',
      path: '/benefit-verification',
      body: benefitVerificationRequest,
      failingCall: 'checking benefits with the payer',
      fail: (failure: ConnectorFailure) => payer.failOn('checkBenefits', failure),
      calls: () => payer.callsTo('checkBenefits'),
      unavailable: 'payer_unavailable',
      rejected: 'payer_rejected',
      announcesCancellation: false,
    },
    {
      caseType: 'a prior authorization',
      path: '/prior-authorization',
      body: priorAuthorizationRequest,
      failingCall: 'prefilling the request with the payer',
      fail: (failure: ConnectorFailure) => payer.failOn('prefillPriorAuthorization', failure),
      calls: () => payer.callsTo('prefillPriorAuthorization'),
      unavailable: 'payer_unavailable',
      rejected: 'payer_rejected',
      announcesCancellation: true,
    },
    {
      caseType: 'a patient enrollment',
      path: '/patient-enrollment',
      body: () => patientEnrollmentRequest(),
      failingCall: 'submitting the enrollment to the program hub',
      fail: (failure: ConnectorFailure) => hub.failOn('submitEnrollment', failure),
      calls: () => hub.callsTo('submitEnrollment'),
      unavailable: 'program_unavailable',
      rejected: 'program_rejected',
      announcesCancellation: true,
    },
  ])('$caseType, $failingCall', (type) => {
    /** Submits without waiting for the answer: an enrollment answers only once screened and submitted. */
    const submit = () =>
      new Promise<Response>((resolve, reject) =>
        testApp
          .http()
          .post(type.path)
          .set(bearer(account.keys.provider))
          .send(type.body())
          .then(resolve, reject),
      );
    /** The id of the case the failing call is for: the one case this test submitted. */
    const submittedId = async (response: Promise<Response>): Promise<string> =>
      type.path === '/patient-enrollment'
        ? (hub.inputsTo('submitEnrollment')[0] as { caseId: string }).caseId
        : (await response).body.data.id;
    const waitFor = (id: string, status: string) =>
      waitForStatus(testApp, account.keys.provider, type.path, id, status);

    it(`fails with ${type.unavailable} once the connector stays unavailable through every retry and its outage deadline`, async () => {
      type.fail(UNAVAILABLE);
      const response = submit();
      await eventually(async () => type.calls() > 0);
      const failed = await waitFor(await submittedId(response), 'failed');
      expect(failed.failure).toMatchObject({ code: type.unavailable });
      expect(type.calls()).toBeGreaterThan(1);
    });

    it(`fails at once with ${type.rejected} when the connector refuses the request, trying it only once`, async () => {
      type.fail(REFUSED);
      const response = submit();
      await eventually(async () => type.calls() > 0);
      const failed = await waitFor(await submittedId(response), 'failed');
      expect(failed.failure).toMatchObject({ code: type.rejected });
      expect(type.calls()).toBe(1);
    });

    it('ends cancelled, with no failure, when cancelled while the call is being retried', async () => {
      type.fail(UNAVAILABLE_FOR_A_WHILE);
      const response = submit();
      await eventually(async () => type.calls() >= 2);
      const id = await submittedId(response);
      const cancelled = await testApp
        .http()
        .post(`${type.path}/${id}/cancel`)
        .set(bearer(account.keys.provider))
        .send({ reason: 'The patient changed pharmacy.' });
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', failure: null });
      expect(cancelled.body.data.status_history.at(-1)).toMatchObject({
        status: 'cancelled',
        reason: 'The patient changed pharmacy.',
      });
      await response;
      if (type.announcesCancellation) {
        await eventually(async () => finalEventsOf(id).length > 0);
        expect(finalEventsOf(id).map((event) => (event.data as JsonObject).status)).toEqual(['cancelled']);
      }
    });
  });
});
