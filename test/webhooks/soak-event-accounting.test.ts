import { CASE_EVENTS, eventAccounting, PatientGet } from '../../bench/soak-event-accounting';
import { newId } from '../../domain/ids';
import type { CreatePriorAuthorizationDto } from '../../src/cases/types/prior-authorization/prior-authorization.dto';
import { PRIOR_AUTHORIZATION } from '../../src/cases/types/prior-authorization/prior-authorization.case-type';
import { priorAuthorizationRequest } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { createActiveEndpoint, PublishEvent, publishEventActivity } from '../support/webhook-endpoints';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const SECRET = 'whsec_soak_accounting_0001';

describe('the soak’s accounting of events', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;
  let endpointId: string;
  let publishEvent: PublishEvent;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    publishEvent = publishEventActivity(testApp);
    account = await testApp.createAccount();
    receiver = await new TestReceiver(SECRET).start();
    endpointId = await createActiveEndpoint(
      testApp,
      account.keys.provider,
      { name: 'soak', url: receiver.url, secret: SECRET, events: CASE_EVENTS },
      receiver,
    );
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  /** A case event as a worker's publishing activity records it: the event and its delivery at once. */
  async function publishCaseEvent(): Promise<string> {
    const eventId = newId('event');
    const { case: record } = PRIOR_AUTHORIZATION.create.input(
      priorAuthorizationRequest() as unknown as CreatePriorAuthorizationDto,
      {
        caseId: newId('priorAuthorization'),
        accountId: account.accountId,
        documents: [],
        now: new Date(),
        settings: testApp.config.cases,
        livemode: false,
      },
    );
    await publishEvent({
      eventId,
      accountId: account.accountId,
      type: 'prior_authorization.updated',
      data: { ...record, sequence: 1 },
      createdAt: new Date().toISOString(),
    });
    return eventId;
  }

  const acknowledgements = {
    get acknowledged() {
      return new Map(receiver.notifications.map((notification) => [notification.id, 1]));
    },
  };

  it('counts an event recorded while it reads the delivery log as delivered, not as listed without a delivery', async () => {
    const earlier = await publishCaseEvent();
    await eventually(async () => acknowledgements.acknowledged.has(earlier));
    let later: Promise<string> | undefined;
    const get: PatientGet = async (route) => {
      const answer = await testApp.http().get(route).set(bearer(account.keys.provider));
      // A case still finishing after the drain records its event right after the delivery log was read.
      if (route.startsWith('/webhooks/')) await (later ??= publishCaseEvent());
      return { status: answer.status, body: answer.body };
    };

    const accounting = await eventAccounting(get, acknowledgements, endpointId, {
      deadline: Date.now() + 20_000,
      pollMs: 100,
    });

    expect(accounting).toMatchObject({
      expected: 2,
      delivered: 2,
      notFannedOut: [],
      overdue: [],
      lost: [],
      complete: true,
    });
    expect(acknowledgements.acknowledged.has(await later!)).toBe(true);
  });
});
