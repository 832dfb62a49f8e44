import { execFile } from 'node:child_process';
import { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { temporal } from '@temporalio/proto';

import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
} from '../support/case-requests';
import { ConnectorFailure, PayerDouble, ProgramHubDouble } from '../support/connector-doubles';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { DIST } from '../support/processes';
import { signalWithTemporalCli } from '../support/temporal-cli';
import { startTestWorker, TestWorker } from '../support/workers';
import { CASE_ATTENTION } from '../../domain/temporal/search-attributes';
import { failNowSignal, retryNowSignal } from '../../workflows/case.messages';

const FINAL_STATUSES = ['completed', 'failed', 'cancelled'];

/**
 * A sandbox outage outlasts the connector's few quick retries (test-app.ts), about a second on the dev
 * server, and ends well before the deadline of the schedule that plays it.
 */
const SANDBOX_OUTAGE_SECONDS = 3;
const SANDBOX_OUTAGE_DEADLINE_MS = 10_000;
/**
 * How long a case waits out a connector that stays down: long enough for the test to see the
 * attention shown between the retries and the deadline. A benefit verification's and an enrollment's
 * deadline counts from the outage's start; a prior authorization's, before its review, is its review
 * target, counted from its creation, so it has longer, for the connector's own retries first.
 */
const STAYS_DOWN_DEADLINE_MS = 2_000;
const STAYS_DOWN_REVIEW_DUE_MS = STAYS_DOWN_DEADLINE_MS + 1_500;
/** Calls again soon and often while a connector is down, so a case goes on soon after it answers. */
const SHORT_OUTAGE_SCHEDULE = { CASE_OUTAGE_FIRST_RETRY_MS: '200', CASE_OUTAGE_LONGEST_RETRY_MS: '500' };

/** Fails every attempt, asking for a short wait so that the activity's retries run out within seconds. */
const UNAVAILABLE: ConnectorFailure = { transient: true, retryAfterMs: 100 };
const REFUSED: ConnectorFailure = { transient: false };

const payer = new PayerDouble();
const hub = new ProgramHubDouble();

/**
 * Each case type that waits out outages, the connector call a test makes fail, and the status the
 * case reaches once that call answers.
 */
const CASE_TYPES = [
  {
    caseType: 'a benefit verification',
    path: '/benefit-verification',
    object: 'benefit_verification',
    body: () => benefitVerificationRequest(),
    fail: (failure: ConnectorFailure) => payer.failOn('checkBenefits', failure),
    calls: () => payer.callsTo('checkBenefits'),
    unavailable: 'payer_unavailable',
    rejected: 'payer_rejected',
    goesOnTo: 'completed',
  },
  {
    caseType: 'a prior authorization',
    path: '/prior-authorization',
    object: 'prior_authorization',
    body: () => priorAuthorizationRequest(),
    fail: (failure: ConnectorFailure) => payer.failOn('prefillPriorAuthorization', failure),
    calls: () => payer.callsTo('prefillPriorAuthorization'),
    unavailable: 'payer_unavailable',
    rejected: 'payer_rejected',
    goesOnTo: 'awaiting_review',
  },
  {
    caseType: 'a patient enrollment',
    path: '/patient-enrollment',
    object: 'patient_enrollment',
    body: () => patientEnrollmentRequest(),
    fail: (failure: ConnectorFailure) => hub.failOn('submitEnrollment', failure),
    calls: () => hub.callsTo('submitEnrollment'),
    unavailable: 'program_unavailable',
    rejected: 'program_rejected',
    goesOnTo: 'completed',
  },
];
type CaseTypeUnderTest = (typeof CASE_TYPES)[number];

/** An app and worker whose cases wait out outages on the schedule `env` sets, and a receiver of their events. */
async function startCaseService(env: Record<string, string>) {
  const testApp = await startTestApp({
    WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    PAYER_POLL_INTERVAL_MS: '200',
    ...env,
  });
  const { config, db, temporalClient } = testApp;
  const worker = await startTestWorker({
    config,
    db,
    temporalClient,
    connectors: { payer, programHub: hub },
  });
  const account = await testApp.createAccount();
  const receiver = await subscribeReceiver(testApp, account.keys.provider, [
    'benefit_verification.updated',
    'prior_authorization.updated',
    'patient_enrollment.updated',
  ]);
  return { testApp, worker, account, receiver };
}

describe('a case whose connector is unavailable', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  /**
   * Submits without waiting for the answer (an enrollment answers only once screened and submitted)
   * and answers the new case's id.
   */
  const submit = async (type: CaseTypeUnderTest, body: object = type.body()): Promise<string> => {
    const callsBefore = type.calls();
    const response = testApp.http().post(type.path).set(bearer(account.keys.provider)).send(body);
    if (type.path !== '/patient-enrollment') {
      const created = await response;
      expect(created.status).toBe(201);
      return created.body.data.id;
    }
    void response.then(() => undefined);
    await eventually(async () => type.calls() > callsBefore);
    return (hub.inputsTo('submitEnrollment')[callsBefore] as { caseId: string }).caseId;
  };
  const read = async (type: CaseTypeUnderTest, id: string): Promise<JsonObject> =>
    (await testApp.http().get(`${type.path}/${id}`).set(bearer(account.keys.provider))).body.data;
  // The activity's own few attempts come first (test-app.ts), about a second apart on the dev server.
  const waitForAttention = (type: CaseTypeUnderTest, id: string) =>
    eventually(async () => {
      const shown = await read(type, id);
      return shown.attention ? shown : undefined;
    }, 30_000);
  const waitFor = (type: CaseTypeUnderTest, id: string, status: string, timeoutMs = 30_000) =>
    waitForStatus(testApp, account.keys.provider, type.path, id, status, timeoutMs);
  const finalEventsOf = (id: string) =>
    eventsFor(receiver, id).filter((event) => FINAL_STATUSES.includes((event.data as JsonObject).status));
  /** The final events the provider received, once one arrived. */
  const finalEventOf = async (id: string) => {
    await eventually(async () => finalEventsOf(id).length > 0);
    return finalEventsOf(id);
  };
  const finalStatusesOf = async (id: string) =>
    (await finalEventOf(id)).map((event) => (event.data as JsonObject).status);
  /** The `CaseAttention` search attribute operators' saved query filters on. */
  const attentionAttributeOf = async (id: string) =>
    (await testApp.temporalClient.workflow.getHandle(id).describe()).typedSearchAttributes.get(
      CASE_ATTENTION,
    );
  /**
   * Waits until the case went on past the failing call and sees it to its end (a prior authorization
   * is approved at review; the sandbox payer then approves it): the provider hears one final status.
   */
  const waitUntilGoneOn = async (type: CaseTypeUnderTest, id: string) => {
    const goneOn = await waitFor(type, id, type.goesOnTo);
    expect(goneOn.attention).toBeNull();
    if (type.goesOnTo === 'awaiting_review') {
      const reviewed = await testApp
        .http()
        .post(`${type.path}/${id}/review`)
        .set(bearer(account.keys.reviewer))
        .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
      expect(reviewed.status).toBe(200);
      await waitFor(type, id, 'completed');
    }
    expect(await finalStatusesOf(id)).toEqual(['completed']);
  };

  afterEach(() => {
    payer.reset();
    hub.reset();
  });

  const stopCaseService = async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  };

  describe('on a short outage schedule, through outages a few seconds long', () => {
    beforeAll(async () => {
      ({ testApp, worker, account, receiver } = await startCaseService({
        ...SHORT_OUTAGE_SCHEDULE,
        BV_OUTAGE_DEADLINE_MS: String(SANDBOX_OUTAGE_DEADLINE_MS),
        ENROLLMENT_OUTAGE_DEADLINE_MS: String(SANDBOX_OUTAGE_DEADLINE_MS),
        // A PA waits out an outage before its review until its review target.
        PA_REVIEW_DUE_MS: String(SANDBOX_OUTAGE_DEADLINE_MS),
      }));
    });
    afterAll(stopCaseService);

    it.each([
      {
        type: CASE_TYPES[0],
        body: benefitVerificationRequest({
          mock_result: { status: 'completed', outage: { unavailable_for_seconds: SANDBOX_OUTAGE_SECONDS } },
        }),
      },
      {
        type: CASE_TYPES[1],
        body: priorAuthorizationRequest({
          mock_result: { result: 'approved', outage: { unavailable_for_seconds: SANDBOX_OUTAGE_SECONDS } },
        }),
      },
      {
        type: CASE_TYPES[2],
        body: {
          ...patientEnrollmentRequest(),
          mock_result: { outage: { unavailable_for_seconds: SANDBOX_OUTAGE_SECONDS } },
        },
      },
    ])(
      'shows attention on $type.caseType while a sandbox outage lasts, then goes on',
      async ({ type, body }) => {
        const id = await submit(type, body);
        const waiting = await waitForAttention(type, id);
        expect(waiting.status).toBe('processing');
        expect(waiting.attention).toEqual({
          reason: type.unavailable,
          since: expect.any(String),
          next_retry_at: expect.any(String),
        });
        expect(Date.parse(waiting.attention.next_retry_at)).toBeGreaterThan(
          Date.parse(waiting.attention.since),
        );
        await waitUntilGoneOn(type, id);
      },
    );

    describe.each(CASE_TYPES)('$caseType', (type) => {
      it('shows attention while its connector is down, then goes on by itself once it answers', async () => {
        type.fail(UNAVAILABLE);
        const id = await submit(type);
        const waiting = await waitForAttention(type, id);
        expect(waiting).toMatchObject({ status: 'processing', attention: { reason: type.unavailable } });
        expect(await attentionAttributeOf(id)).toBe(type.unavailable);
        payer.reset();
        hub.reset();
        await waitUntilGoneOn(type, id);
        expect(await attentionAttributeOf(id)).toBeUndefined();
      });
    });
  });

  describe('on a short outage schedule and deadline, while a connector stays down', () => {
    beforeAll(async () => {
      ({ testApp, worker, account, receiver } = await startCaseService({
        ...SHORT_OUTAGE_SCHEDULE,
        BV_OUTAGE_DEADLINE_MS: String(STAYS_DOWN_DEADLINE_MS),
        ENROLLMENT_OUTAGE_DEADLINE_MS: String(STAYS_DOWN_DEADLINE_MS),
        PA_REVIEW_DUE_MS: String(STAYS_DOWN_REVIEW_DUE_MS),
      }));
    });
    afterAll(stopCaseService);

    it('fails a benefit verification with payer_unavailable, once, when a sandbox outage outlasts the deadline', async () => {
      const [bv] = CASE_TYPES;
      const id = await submit(
        bv,
        benefitVerificationRequest({
          mock_result: { status: 'completed', outage: { unavailable_for_seconds: 3600 } },
        }),
      );
      const { attention } = await waitForAttention(bv, id);
      const failed = await waitFor(bv, id, 'failed', 60_000);
      expect(failed).toMatchObject({ failure: { code: 'payer_unavailable' }, attention: null });
      expect(Date.parse(failed.updated_at) - Date.parse(attention.since)).toBeGreaterThanOrEqual(
        STAYS_DOWN_DEADLINE_MS,
      );
      expect(await finalStatusesOf(id)).toEqual(['failed']);
    });

    describe.each(CASE_TYPES)('$caseType', (type) => {
      it(`fails with ${type.unavailable}, once, when its connector stays down past the deadline`, async () => {
        type.fail(UNAVAILABLE);
        const id = await submit(type);
        await waitForAttention(type, id);
        const failed = await waitFor(type, id, 'failed', 60_000);
        expect(failed).toMatchObject({ failure: { code: type.unavailable }, attention: null });
        expect(await attentionAttributeOf(id)).toBeUndefined();
        expect(await finalStatusesOf(id)).toEqual(['failed']);
      });

      it(`fails at once with ${type.rejected}, never showing attention, when its connector refuses the request`, async () => {
        type.fail(REFUSED);
        const id = await submit(type);
        const failed = await waitFor(type, id, 'failed');
        expect(failed).toMatchObject({ failure: { code: type.rejected }, attention: null });
        expect(type.calls()).toBe(1);
        expect(await finalStatusesOf(id)).toEqual(['failed']);
        expect(
          eventsFor(receiver, id).map((event) => (event.data as JsonObject).attention),
        ).not.toContainEqual(expect.objectContaining({ reason: expect.any(String) }));
      });
    });
  });

  describe('on the default outage schedule, where an operator acts first', () => {
    let operatorKey: string;
    beforeAll(async () => {
      // The operator acts on the attention, not on the connector's own quick retries: one attempt a
      // call, so the attention shows a retry sooner.
      ({ testApp, worker, account, receiver } = await startCaseService({
        CONNECTOR_RETRY_MAX_ATTEMPTS: '1',
      }));
      const operators = await testApp.accounts.createAccount('Platform operators');
      ({ secret: operatorKey } = await testApp.accounts.createApiKey({
        accountId: operators.id,
        roles: ['operator'],
        label: 'operator on call',
      }));
    });
    afterAll(stopCaseService);

    const handle = (id: string) => testApp.temporalClient.workflow.getHandle(id);
    const operatorAction = (
      type: CaseTypeUnderTest,
      id: string,
      action: 'retry' | 'fail',
      key: string,
      body: object = {},
    ) => testApp.http().post(`${type.path}/${id}/${action}`).set(bearer(key)).send(body);
    /** The audit events of one action about one case, in the account that owns it. */
    const auditTrailAbout = async (id: string, action: string) =>
      (
        await testApp
          .http()
          .get('/audit-events')
          .query({ target_id: id, action })
          .set(bearer(account.keys.admin))
      ).body.data.data as JsonObject[];

    describe.each(CASE_TYPES)('$caseType', (type) => {
      it('calls the connector again at once on a retryNow signal, and goes on once it answers', async () => {
        type.fail(UNAVAILABLE);
        const id = await submit(type);
        const waiting = await waitForAttention(type, id);
        expect(Date.parse(waiting.attention.next_retry_at) - Date.now()).toBeGreaterThan(60_000);
        payer.reset();
        hub.reset();
        await handle(id).signal(retryNowSignal, {});
        await waitUntilGoneOn(type, id);
      });

      it('retries at once on POST /retry with an operator key, audited in the account that owns the case', async () => {
        type.fail(UNAVAILABLE);
        const id = await submit(type);
        await waitForAttention(type, id);
        payer.reset();
        hub.reset();
        const retried = await operatorAction(type, id, 'retry', operatorKey);
        expect(retried.status).toBe(200);
        expect(retried.body.data.id).toBe(id);
        await waitUntilGoneOn(type, id);
        expect(await auditTrailAbout(id, 'case.retried_by_operator')).toContainEqual(
          expect.objectContaining({
            actor: expect.objectContaining({ type: 'operator' }),
            target: { object: type.object, id },
          }),
        );
      });

      it("ends failed with the operator's reason on a failNow signal, keeping the note out of the case and its events", async () => {
        type.fail(UNAVAILABLE);
        const id = await submit(type);
        await waitForAttention(type, id);
        await handle(id).signal(failNowSignal, {
          reason: 'outage_outlasting',
          note: 'Portal down for maintenance all weekend.',
        });
        const failed = await waitFor(type, id, 'failed');
        expect(failed).toMatchObject({
          failure: {
            code: 'failed_by_operator',
            message: expect.stringContaining('operator ended the case'),
          },
          attention: null,
        });
        expect(JSON.stringify(failed)).not.toContain('maintenance');
        expect(await finalStatusesOf(id)).toEqual(['failed']);
        expect(JSON.stringify(eventsFor(receiver, id))).not.toContain('maintenance');
      });

      it('ends the case failed on POST /fail with an operator key, with one final notification', async () => {
        type.fail(UNAVAILABLE);
        const id = await submit(type);
        await waitForAttention(type, id);
        const ended = await operatorAction(type, id, 'fail', operatorKey, {
          reason: 'connector_misconfigured',
        });
        expect(ended.status).toBe(200);
        expect(ended.body.data).toMatchObject({
          status: 'failed',
          failure: { code: 'failed_by_operator', message: expect.stringContaining('configuration') },
        });
        expect(await finalStatusesOf(id)).toEqual(['failed']);
        expect(await auditTrailAbout(id, 'case.failed_by_operator')).toContainEqual(
          expect.objectContaining({ target: { object: type.object, id } }),
        );
      });
    });

    it('takes a reviewer’s outcome at once while the program hub stays down, and ends with that outcome only', async () => {
      const [, , enrollment] = CASE_TYPES;
      hub.failOn('checkEnrollment', UNAVAILABLE);
      const id = await submit(enrollment);
      expect(await waitForAttention(enrollment, id)).toMatchObject({
        status: 'awaiting_outcome',
        attention: { reason: 'program_unavailable' },
      });

      const recorded = await testApp
        .http()
        .post(`${enrollment.path}/${id}/outcome`)
        .set(bearer(account.keys.reviewer))
        .send({
          result: 'enrolled',
          member_id: 'ZZM123456789',
          bin: '999911',
          pcn: 'SBXCPN1',
          group: 'SBXOZM24',
        });
      expect(recorded.status).toBe(200);
      expect(recorded.body.data).toMatchObject({ status: 'completed', attention: null });
      expect(await finalStatusesOf(id)).toEqual(['completed']);
    });

    it('announces a benefit verification cancelled while it shows attention, once, as cancelled', async () => {
      const [bv] = CASE_TYPES;
      bv.fail(UNAVAILABLE);
      const id = await submit(bv);
      await waitForAttention(bv, id);

      const cancelled = await testApp
        .http()
        .post(`${bv.path}/${id}/cancel`)
        .set(bearer(account.keys.provider))
        .send({ reason: 'Patient switched pharmacies.' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', attention: null });
      expect(await finalStatusesOf(id)).toEqual(['cancelled']);
    });

    /** The API's port on loopback, for commands run outside this process. */
    const apiPort = async () => {
      if (!testApp.app.getHttpServer().address()) await testApp.app.listen(0, '127.0.0.1');
      return (testApp.app.getHttpServer().address() as AddressInfo).port;
    };
    /** The admin CLI, run asynchronously: it calls back into this very process's API. */
    const adminCli = async (...args: string[]) => {
      const port = await apiPort();
      return promisify(execFile)(
        process.execPath,
        [path.join(DIST, 'admin/cli.js'), ...args, '--api', `http://127.0.0.1:${port}`],
        { env: { ...process.env, OPERATOR_API_KEY: operatorKey, LOG_LEVEL: 'silent' } },
      );
    };

    it('retries a case from the admin CLI, then ends another one failed with a reason', async () => {
      const [bv] = CASE_TYPES;
      bv.fail(UNAVAILABLE);
      const retriedId = await submit(bv);
      const endedId = await submit(bv);
      await waitForAttention(bv, retriedId);
      await waitForAttention(bv, endedId);
      const ended = await adminCli('cases:fail', endedId, '--reason', 'submitted_elsewhere');
      expect(JSON.parse(ended.stdout).data).toMatchObject({
        id: endedId,
        status: 'failed',
        failure: { code: 'failed_by_operator' },
      });
      payer.reset();
      const retried = await adminCli('cases:retry', retriedId);
      expect(JSON.parse(retried.stdout).data.id).toBe(retriedId);
      await waitUntilGoneOn(bv, retriedId);
    });

    it('ends a case failed on a failNow signal sent with the Temporal CLI through the codec, its note encrypted in history', async () => {
      const [bv] = CASE_TYPES;
      bv.fail(UNAVAILABLE);
      const id = await submit(bv);
      await waitForAttention(bv, id);
      const cli = await signalWithTemporalCli(testApp, operatorKey, {
        workflowId: id,
        name: 'failNow',
        input: { reason: 'outage_outlasting', note: 'Clearinghouse maintenance window' },
      });
      expect(cli.stderr).toBe('');
      const failed = await waitFor(bv, id, 'failed');
      expect(failed.failure.code).toBe('failed_by_operator');
      const history = await handle(id).fetchHistory();
      expect(
        Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1'),
      ).not.toContain('maintenance window');
    });

    it('announces attention as a non-final update while a case waits', async () => {
      const [bv] = CASE_TYPES;
      bv.fail(UNAVAILABLE);
      const id = await submit(bv);
      await waitForAttention(bv, id);
      await eventually(async () => eventsFor(receiver, id).length > 0);
      expect(eventsFor(receiver, id).map((event) => event.data as JsonObject)).toEqual([
        expect.objectContaining({
          status: 'processing',
          attention: expect.objectContaining({ reason: 'payer_unavailable' }),
        }),
      ]);
      await handle(id).signal(failNowSignal, { reason: 'outage_outlasting' });
      await waitFor(bv, id, 'failed');
    });

    it('refuses retry and fail from keys without the operator role', async () => {
      const [bv] = CASE_TYPES;
      bv.fail(UNAVAILABLE);
      const id = await submit(bv);
      await waitForAttention(bv, id);
      expect((await operatorAction(bv, id, 'retry', account.keys.admin)).status).toBe(403);
      expect(
        (await operatorAction(bv, id, 'fail', account.keys.provider, { reason: 'outage_outlasting' })).status,
      ).toBe(403);
      await handle(id).signal(failNowSignal, { reason: 'outage_outlasting' });
      await waitFor(bv, id, 'failed');
    });

    it('answers 409 to a retry of a case that needs no attention, and 400 to a fail without a known reason', async () => {
      const [bv] = CASE_TYPES;
      const id = await submit(bv);
      await waitFor(bv, id, 'completed');
      expect((await operatorAction(bv, id, 'retry', operatorKey)).status).toBe(409);
      const unknownReason = await operatorAction(bv, id, 'fail', operatorKey, { reason: 'bored' });
      expect(unknownReason.status).toBe(400);
      expect(JSON.stringify(unknownReason.body)).toContain('reason');
    });
  });
});
