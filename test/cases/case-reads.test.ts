import { temporal } from '@temporalio/proto';

import type { CaseRecord } from '../../domain/cases/case-model';
import { summaryOf } from '../../domain/cases/case-summary';
import { CaseSummariesRepository } from '../../infrastructure/cases/case-summaries.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { decodePayload } from '../../infrastructure/temporal/sealed-memos';
import { reviewDecisionSignal } from '../../workflows/prior-authorization.messages';
import { benefitVerificationRequest, priorAuthorizationRequest } from '../support/case-requests';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const EventType = temporal.api.enums.v1.EventType;

describe('reading cases without a worker, from a memo that holds the request once', () => {
  let testApp: TestApp;
  let worker: TestWorker | undefined;
  let account: TestAccount;
  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(() => testApp.close());

  const submit = async (path: string, body: object) =>
    (await testApp.http().post(path).set(bearer(account.keys.provider)).send(body)).body.data as JsonObject;

  const historyOf = async (id: string) => testApp.temporalClient.workflow.getHandle(id).fetchHistory();

  const decodeMemoField = (payload: temporal.api.common.v1.IPayload) =>
    decodePayload<JsonObject>(testApp.temporalClient.options.loadedDataConverter, payload);

  it('answers GET and list of a running case, request included, while no worker runs', async () => {
    worker = await testApp.startWorker();
    const submitted = priorAuthorizationRequest();
    const { id } = await submit('/prior-authorization', submitted);
    const inReview = await waitForStatus(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      id,
      'awaiting_review',
    );
    await worker.stop();
    worker = undefined;

    const read = await testApp.http().get(`/prior-authorization/${id}`).set(bearer(account.keys.provider));
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(inReview);
    expect(read.body.data.request.patient.first_name).toBe(submitted.patient.first_name);

    const listed = await testApp
      .http()
      .get('/prior-authorization?status=awaiting_review')
      .set(bearer(account.keys.provider));
    expect(listed.body.data.data.find((item: JsonObject) => item.id === id)).toEqual(inReview);
  });

  it('writes the request into the memo once, and each later memo write carries only what changed', async () => {
    worker = await testApp.startWorker();
    const { id } = await submit('/benefit-verification', benefitVerificationRequest());
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'completed');

    const events = (await historyOf(id)).events ?? [];
    const started = events[0]!.workflowExecutionStartedEventAttributes!;
    expect(await decodeMemoField(started.memo!.fields!.request!)).toMatchObject({
      drugs: [{ name: 'Ozempic' }],
    });
    const memoWrites = events.filter(
      (event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
    );
    expect(memoWrites.length).toBeGreaterThan(0);
    for (const write of memoWrites) {
      const changed = await decodeMemoField(
        write.workflowPropertiesModifiedEventAttributes!.upsertedMemo!.fields!.case!,
      );
      expect(changed).not.toHaveProperty('request');
      expect(changed).toHaveProperty('status');
    }
  });

  it('publishes case events from a local activity, so no activity task carries the case', async () => {
    worker = await testApp.startWorker();
    const { id } = await submit('/benefit-verification', benefitVerificationRequest());
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'completed');

    const events = (await historyOf(id)).events ?? [];
    const activityTypes = events
      .filter((event) => event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
      .map((event) => event.activityTaskScheduledEventAttributes!.activityType!.name);
    expect(activityTypes).toEqual(['checkCaseBenefits']);
    expect(events.some((event) => event.eventType === EventType.EVENT_TYPE_MARKER_RECORDED)).toBe(true);
  });

  /** A prior authorization awaiting review, whose worker has stopped, so its memo stays as it is. */
  async function inReviewWithNoWorker(): Promise<{ id: string; inReview: JsonObject }> {
    worker = await testApp.startWorker();
    const { id } = await submit('/prior-authorization', priorAuthorizationRequest());
    const inReview = await waitForStatus(
      testApp,
      account.keys.provider,
      '/prior-authorization',
      id,
      'awaiting_review',
    );
    await worker.stop();
    worker = undefined;
    return { id, inReview };
  }

  /** A reviewer's decision the stopped worker has yet to take up: a workflow task stays pending. */
  const decisionPending = (id: string) =>
    testApp.temporalClient.workflow
      .getHandle(id)
      .signal(reviewDecisionSignal, { decision: 'approve', reviewer: 'reviewer@example.test' });

  it('answers GET with the move a pending workflow task wrote to the read model before Temporal committed its memo', async () => {
    const { id, inReview } = await inReviewWithNoWorker();
    await decisionPending(id);

    // What the task's local activity writes, with the move's event, before the task completes.
    const at = new Date(Date.parse(String(inReview.updated_at)) + 1000).toISOString();
    const moved = {
      ...inReview,
      status: 'awaiting_outcome',
      updated_at: at,
      status_history: [
        ...(inReview.status_history as object[]),
        { status: 'awaiting_outcome', at, reason: null },
      ],
    } as unknown as CaseRecord;
    await new CaseSummariesRepository(testApp.db).record(
      summaryOf(moved, { accountId: account.accountId, patientRef: 'patient-ref-of-the-test' }),
      new SecretBox(testApp.config.encryption!).sealText(JSON.stringify(moved)),
    );

    const read = await testApp.http().get(`/prior-authorization/${id}`).set(bearer(account.keys.provider));
    expect(read.body.data.status).toBe('awaiting_outcome');
    expect(read.body.data.status_history).toEqual(moved.status_history);
  });

  it('answers GET from the memo where the read model holds an older move of the case', async () => {
    const { id, inReview } = await inReviewWithNoWorker();
    await decisionPending(id);
    await testApp.db.query(
      `UPDATE case_summaries SET sequence = sequence - 1, status = 'submitted' WHERE case_id = $1`,
      [id],
    );

    const read = await testApp.http().get(`/prior-authorization/${id}`).set(bearer(account.keys.provider));
    expect(read.body.data).toEqual(inReview);
  });
});
