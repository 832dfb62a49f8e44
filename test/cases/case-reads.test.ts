import { temporal } from '@temporalio/proto';

import { decodePayload } from '../../infrastructure/temporal/sealed-memos';
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
});
