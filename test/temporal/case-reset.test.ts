import { randomUUID } from 'node:crypto';

import { temporal } from '@temporalio/proto';

import { JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import {
  authorizationFor,
  benefitVerificationRequest,
  incomeVerification,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
  uninsuredAttestation,
} from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';
import { CASE_STATUS } from '../../domain/temporal/search-attributes';
import { failNowSignal } from '../../workflows/case.messages';
import { priorAuthorizationOutcomeSignal } from '../../workflows/prior-authorization.messages';

const PA = '/prior-authorization';
const BV = '/benefit-verification';
const ENROLLMENT = '/patient-enrollment';
/** A copay-card program that takes any insured adult, and an assistance program that asks uninsured patients for their income. */
const OZEMPIC_SAVINGS_CARD = patientEnrollmentRequest().programId;
const MYABBVIE_ASSIST = 'prog_01jnnmj58jf1nen1dn9mmkb0r6';
const FINAL_STATUSES = ['completed', 'failed', 'cancelled'];
/** Every status of a prior authorization that ends approved or denied by the payer, once each. */
const EVERY_PA_STATUS = ['1 processing', '2 awaiting_review', '3 awaiting_outcome', '4 completed'];
const { EventType, ResetReapplyType } = temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
/** A history event's id, as the history gives it and the reset takes it. */
type EventId = NonNullable<HistoryEvent['eventId']>;

/** What a provider's receiver got about one case: every request, repeats included, in arrival order. */
interface Received {
  id: string;
  sequence: number;
  status: string;
}

describe('a case reset in Temporal Web', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;
  let endpointId: string;

  beforeAll(async () => {
    testApp = await startTestApp({
      // The sandbox payer pends at submission: the case waits awaiting_outcome for a reviewer's outcome.
      PAYER_POLL_INTERVAL_MS: '600000',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    });
    worker = await testApp.startWorker();
  });
  beforeEach(async () => {
    // An account per case: its endpoint receives that case's events only.
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider, [
      'prior_authorization.updated',
      'benefit_verification.updated',
      'patient_enrollment.updated',
    ]);
    endpointId = [...receiver.endpointIds][0]!;
  });
  afterEach(async () => {
    await receiver.stop();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const submit = async (path: string, body: object): Promise<string> => {
    const response = await testApp.http().post(path).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };
  const read = async (path: string, id: string): Promise<JsonObject> =>
    (await testApp.http().get(`${path}/${id}`).set(bearer(account.keys.provider))).body.data;
  const review = async (id: string, decision: 'approve' | 'reject') => {
    const response = await testApp
      .http()
      .post(`${PA}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision, reviewer: 'Dr. Reviewer' });
    expect(response.status).toBe(200);
  };
  const recordOutcome = async (path: string, id: string, outcome: object) => {
    const response = await testApp
      .http()
      .post(`${path}/${id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send(outcome);
    expect(response.status).toBe(200);
  };
  const history = async (id: string): Promise<HistoryEvent[]> =>
    (await testApp.temporalClient.workflow.getHandle(id).fetchHistory()).events ?? [];

  /**
   * Resets the case's current run as Temporal Web does: to the end of a completed workflow task, by
   * default without reapplying the signals and updates that came after it (the operator's choice).
   * Answers the new run's id.
   */
  const reset = async (
    id: string,
    workflowTaskCompletedId: EventId,
    reapply = ResetReapplyType.RESET_REAPPLY_TYPE_NONE,
  ): Promise<string> => {
    const client = testApp.temporalClient;
    const { runId } = await client.workflow.getHandle(id).describe();
    const answer: temporal.api.workflowservice.v1.IResetWorkflowExecutionResponse =
      await client.workflowService.resetWorkflowExecution({
        namespace: client.options.namespace,
        workflowExecution: { workflowId: id, runId },
        workflowTaskFinishEventId: workflowTaskCompletedId,
        requestId: randomUUID(),
        reason: 'Operator reset in a test',
        resetReapplyType: reapply,
      });
    return answer.runId!;
  };

  /** The reset point Temporal Web offers last: the run's last completed workflow task. */
  const lastWorkflowTask = async (id: string): Promise<EventId> => {
    const completed = (await history(id)).filter(
      (event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
    );
    return completed.at(-1)!.eventId!;
  };

  /** The first workflow task completed after the case moved to `status`: a point while it waited there. */
  const workflowTaskWhile = async (id: string, status: string): Promise<EventId> => {
    const events = await history(id);
    const moved = events.findIndex((event) => caseStatusSetBy(event) === status);
    const completed = events
      .slice(moved)
      .find((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    return completed!.eventId!;
  };

  /** Once the case's run is closed, every event it published is recorded: waits until all arrived. */
  const received = async (id: string): Promise<Received[]> => {
    await eventually(async () => {
      const { status } = await testApp.temporalClient.workflow.getHandle(id).describe();
      return status.name === 'RUNNING' ? undefined : true;
    });
    const [{ deliveries }] = await testApp.db.query<{ deliveries: number }>(
      `SELECT count(*)::int AS deliveries FROM webhook_deliveries WHERE endpoint_id = $1 AND retry_of IS NULL`,
      [endpointId],
    );
    return eventually(async () => {
      if (receiver.requests.length < deliveries) return undefined;
      return receiver.requests.map((request) => {
        const body = JSON.parse(request.rawBody.toString('utf8')) as JsonObject;
        expect(request.headers['x-webhook-id']).toBe(body.id);
        return { id: body.id, sequence: body.data.sequence, status: body.data.status };
      });
    });
  };

  const waitFor = (path: string, id: string, status: string) =>
    waitForStatus(testApp, account.keys.provider, path, id, status);
  const awaitingReview = async (): Promise<string> => {
    const id = await submit(PA, priorAuthorizationRequest());
    await waitFor(PA, id, 'awaiting_review');
    return id;
  };
  const awaitingOutcome = async (): Promise<string> => {
    const id = await awaitingReview();
    await review(id, 'approve');
    await waitFor(PA, id, 'awaiting_outcome');
    return id;
  };

  const statusesOf = (events: Received[]) => events.map((event) => `${event.sequence} ${event.status}`);
  const finalsOf = (events: Received[]) => events.filter((event) => FINAL_STATUSES.includes(event.status));

  it('a prior authorization reset while awaiting_review shows the new run, and its provider hears each status once', async () => {
    const id = await awaitingReview();

    const newRun = await reset(id, await lastWorkflowTask(id));
    expect((await testApp.temporalClient.workflow.getHandle(id).describe()).runId).toBe(newRun);
    // The reset point's workflow task moved the case there: the new run moves it again.
    await waitFor(PA, id, 'awaiting_review');

    await review(id, 'approve');
    await recordOutcome(PA, id, { result: 'approved' });
    await waitFor(PA, id, 'completed');

    const events = await received(id);
    expect(statusesOf(events)).toEqual(EVERY_PA_STATUS);
    expect(new Set(events.map((event) => event.id)).size).toBe(4);
  });

  it('a prior authorization reset while awaiting_outcome can still be decided, with one final notification', async () => {
    const id = await awaitingOutcome();

    await reset(id, await lastWorkflowTask(id));
    expect(await waitFor(PA, id, 'awaiting_outcome')).toMatchObject({
      review: { decision: 'approve' },
    });

    await recordOutcome(PA, id, { result: 'denied' });
    expect(await waitFor(PA, id, 'completed')).toMatchObject({
      outcome: { result: 'denied' },
    });
    const events = await received(id);
    expect(statusesOf(events)).toEqual(EVERY_PA_STATUS);
    expect(finalsOf(events)).toHaveLength(1);
  });

  it('a prior authorization reset while awaiting the provider’s answers, its signal reapplied, announces the request once', async () => {
    const id = await awaitingOutcome();
    const handle = testApp.temporalClient.workflow.getHandle(id);
    const asked = async () => ((await read(PA, id)).pending_request ? true : undefined);
    await handle.signal(priorAuthorizationOutcomeSignal, {
      result: 'other',
      detail_code: 'more_information_required',
    });
    await eventually(asked);

    await reset(id, await lastWorkflowTask(id), ResetReapplyType.RESET_REAPPLY_TYPE_SIGNAL);
    await eventually(asked);

    await recordOutcome(PA, id, { result: 'approved' });
    await waitFor(PA, id, 'completed');
    const events = await received(id);
    expect(statusesOf(events)).toEqual([
      '1 processing',
      '2 awaiting_review',
      '3 awaiting_outcome',
      '3 awaiting_outcome',
      '4 completed',
    ]);
    expect(new Set(events.map((event) => event.id)).size).toBe(5);
  });

  it('a prior authorization reset from awaiting_outcome back to awaiting_review and approved again is not announced twice', async () => {
    const id = await awaitingOutcome();

    await reset(id, await workflowTaskWhile(id, 'awaiting_review'));
    expect(await read(PA, id)).toMatchObject({ status: 'awaiting_review' });

    await review(id, 'approve');
    await recordOutcome(PA, id, { result: 'approved' });
    await waitFor(PA, id, 'completed');
    const events = await received(id);
    expect(statusesOf(events)).toEqual(EVERY_PA_STATUS);
  });

  it('a completed prior authorization reset behind its final status tells its provider nothing more', async () => {
    const id = await awaitingReview();
    await review(id, 'approve');
    await recordOutcome(PA, id, { result: 'approved' });
    await waitFor(PA, id, 'completed');
    const before = await received(id);

    await reset(id, await workflowTaskWhile(id, 'awaiting_review'));
    expect(await read(PA, id)).toMatchObject({ status: 'awaiting_review' });
    await review(id, 'reject');

    // GET shows the newest run, which the provider is never told about: the runbook forbids this reset.
    expect(await waitFor(PA, id, 'failed')).toMatchObject({
      failure: { code: 'rejected_at_review' },
    });
    const events = await received(id);
    expect(events).toEqual(before);
    expect(finalsOf(events)).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  it('a benefit verification reset while awaiting_review sends its provider one final notification', async () => {
    const id = await submit(
      BV,
      benefitVerificationRequest({
        mock_result: { status: 'completed', case: 'manual_verification_required' },
      }),
    );
    await waitFor(BV, id, 'awaiting_review');

    await reset(id, await lastWorkflowTask(id));
    await waitFor(BV, id, 'awaiting_review');

    await recordOutcome(BV, id, { status: 'completed', coverage_status: 'covered' });
    await waitFor(BV, id, 'completed');
    const events = await received(id);
    expect(finalsOf(events)).toEqual([expect.objectContaining({ status: 'completed' })]);
    expect(events).toHaveLength(1);
  });

  it('a benefit verification reset while showing attention for a sandbox outage still shows it, and is announced once', async () => {
    const id = await submit(
      BV,
      benefitVerificationRequest({
        mock_result: { status: 'completed', outage: { unavailable_for_seconds: 3600 } },
      }),
    );
    // The activity's own attempts come first; the case then waits minutes for its next call.
    const waiting = () =>
      eventually(async () => ((await read(BV, id)).attention ? read(BV, id) : undefined), 60_000);
    await waiting();

    await reset(id, await lastWorkflowTask(id));
    expect(await waiting()).toMatchObject({
      status: 'processing',
      attention: { reason: 'payer_unavailable' },
    });

    await testApp.temporalClient.workflow
      .getHandle(id)
      .signal(failNowSignal, { reason: 'outage_outlasting' });
    await waitFor(BV, id, 'failed');
    const events = await received(id);
    expect(statusesOf(events)).toEqual(['1 processing', '2 failed']);
    expect(new Set(events.map((event) => event.id)).size).toBe(2);
  });

  /** An enrollment carrying the authorization its program requires; it answers once submitted or stopped for information. */
  const enroll = async (overrides: Record<string, unknown> = {}): Promise<JsonObject> => {
    const body = { ...patientEnrollmentRequest(), ...overrides };
    const response = await testApp
      .http()
      .post(ENROLLMENT)
      .set(bearer(account.keys.provider))
      .send({ ...authorizationFor(body.programId as string), ...body });
    expect(response.status).toBe(201);
    return response.body.data;
  };
  const enrolledCard = {
    result: 'enrolled',
    member_id: 'ZZM123456789',
    bin: '999911',
    pcn: 'SBXCPN1',
    group: 'SBXOZM24',
  };

  it('a patient enrollment reset while awaiting_outcome takes its outcome once, with one final notification', async () => {
    const submitted = await enroll({ programId: OZEMPIC_SAVINGS_CARD });
    expect(submitted.status).toBe('awaiting_outcome');
    const id = submitted.id as string;

    const newRun = await reset(id, await lastWorkflowTask(id));
    expect((await testApp.temporalClient.workflow.getHandle(id).describe()).runId).toBe(newRun);
    await waitFor(ENROLLMENT, id, 'awaiting_outcome');

    await recordOutcome(ENROLLMENT, id, enrolledCard);
    expect(await waitFor(ENROLLMENT, id, 'completed')).toMatchObject({
      outcome: { result: 'enrolled', member_id: 'ZZM123456789' },
    });
    const events = await received(id);
    expect(statusesOf(events)).toEqual(['1 processing', '2 awaiting_outcome', '3 completed']);
    expect(new Set(events.map((event) => event.id)).size).toBe(3);
  });

  it('a patient enrollment reset while awaiting_review for information goes on once it is sent, announcing each status once', async () => {
    const asked = await enroll({
      programId: MYABBVIE_ASSIST,
      prescription: { drug_name: 'Humira' },
      patient: { ...patientEnrollmentRequest().patient, insurance_details: undefined },
      evidence: [uninsuredAttestation],
    });
    expect(asked.status).toBe('awaiting_review');
    const id = asked.id as string;

    await reset(id, await lastWorkflowTask(id));
    expect(await waitFor(ENROLLMENT, id, 'awaiting_review')).toMatchObject({
      missing_information: [expect.objectContaining({ field: 'evidence[type=income_verification]' })],
    });

    const sent = await testApp
      .http()
      .post(`${ENROLLMENT}/${id}/information`)
      .set(bearer(account.keys.provider))
      .send({ evidence: [incomeVerification(3_000_000)] });
    expect(sent.status).toBe(200);
    await waitFor(ENROLLMENT, id, 'awaiting_outcome');
    await recordOutcome(ENROLLMENT, id, { result: 'enrolled' });
    await waitFor(ENROLLMENT, id, 'completed');
    const events = await received(id);
    expect(statusesOf(events)).toEqual([
      '1 processing',
      '2 awaiting_review',
      '3 awaiting_outcome',
      '4 completed',
    ]);
    expect(finalsOf(events)).toHaveLength(1);
  });
});

/** The status a `CaseStatus` search attribute upsert sets, if the event is one. */
function caseStatusSetBy(event: HistoryEvent): string | undefined {
  const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
  const payload = fields?.[CASE_STATUS.name];
  return payload?.data ? (JSON.parse(Buffer.from(payload.data).toString('utf8')) as string) : undefined;
}
