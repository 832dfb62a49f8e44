import { createWorkerWebhooks } from '../../activities';
import type { PublishEventInput } from '../../infrastructure/webhooks/webhook-publisher';
import { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
import { eventsFor, JsonObject, waitForStatus } from '../support/case-journeys';
import { authorizationFor, benefitVerificationRequest, enrollmentPatient } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const SECRET = 'whsec_case_event_bodies_0001';
const HUMIRA_ASSISTANCE = 'prog_01jnnmj58jf1nen1dn9mmkb0r6';

const uninsuredEnrollment = () => ({
  programId: HUMIRA_ASSISTANCE,
  ...authorizationFor(HUMIRA_ASSISTANCE),
  patient: enrollmentPatient({ first_name: 'Bodies', email: 'bodies@example.test' }),
  prescription: { drug_name: 'Humira' },
  evidence: [
    { type: 'uninsured_attestation', date_created: '2026-11-01T10:00:00Z', content: { insured: false } },
  ],
});
const incomeEvidence = {
  type: 'income_verification',
  date_created: '2026-11-01T10:00:00Z',
  content: { household_size: 2, annual_household_income_cents: 3_000_000 },
};

/**
 * Case event inputs carry the case and its request; those of runs from before local publishing carry
 * the case alone, and the worker's publisher reads the request from the case's memo. Receivers must
 * not see the difference: each notification's `data` is the case as GET shows it, request included,
 * with the event's `sequence`.
 */
describe('the case in a case event', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300', WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    receiver = await new TestReceiver(SECRET).start();
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'case event bodies',
        url: receiver.url,
        secret: SECRET,
        events: ['benefit_verification.updated', 'patient_enrollment.updated'],
      });
    receiver.endpointIds.add(created.body.data.id);
    await testApp
      .http()
      .patch(`/webhooks/${created.body.data.id}`)
      .set(bearer(account.keys.provider))
      .send({ active: true });
    await waitForStatus(testApp, account.keys.provider, '/webhooks', created.body.data.id, 'active');
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const read = async (path: string, id: string) =>
    (await testApp.http().get(`${path}/${id}`).set(bearer(account.keys.provider))).body.data as JsonObject;

  const completedVerification = async () => {
    const submitted = (
      await testApp
        .http()
        .post('/benefit-verification')
        .set(bearer(account.keys.provider))
        .send(benefitVerificationRequest())
    ).body.data as JsonObject;
    const id = submitted.id as string;
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'completed');
    return { id, submitted };
  };

  it('is the case as GET shows it, request included, with the sequence of the event', async () => {
    const { id, submitted } = await completedVerification();
    const [event] = await eventually(async () => {
      const events = eventsFor(receiver, id);
      return events.length ? events : undefined;
    });

    const shown = await read('/benefit-verification', id);
    expect(event!.data).toEqual({ ...shown, sequence: shown.status_history.length });
    expect(event!.data.request.patient.first_name).toBe(submitted.request.patient.first_name);
  });

  it('holds the request as the workflow replaced it once information arrived later', async () => {
    const submitted = await testApp
      .http()
      .post('/patient-enrollment')
      .set(bearer(account.keys.provider))
      .send(uninsuredEnrollment());
    const id = submitted.body.data.id as string;
    expect(submitted.body.data.status).toBe('awaiting_review');
    await testApp
      .http()
      .post(`/patient-enrollment/${id}/information`)
      .set(bearer(account.keys.provider))
      .send({ evidence: [incomeEvidence] });
    await waitForStatus(testApp, account.keys.provider, '/patient-enrollment', id, 'completed');
    const events = await eventually(async () => {
      const received = eventsFor(receiver, id);
      return received.some((event) => event.data.status === 'completed') ? received : undefined;
    });

    const evidenceTypes = (event: JsonObject) =>
      event.data.request.evidence.map((item: JsonObject) => item.type as string);
    const before = events.find((event) => event.data.status === 'awaiting_review')!;
    const afterward = events.filter((event) => event.data.sequence > before.data.sequence);
    expect(evidenceTypes(before)).toEqual(['uninsured_attestation']);
    expect(afterward.map((event) => event.data.status)).toEqual(['awaiting_outcome', 'completed']);
    expect(afterward.map(evidenceTypes)).toEqual([
      ['uninsured_attestation', 'income_verification'],
      ['uninsured_attestation', 'income_verification'],
    ]);
    const shown = await read('/patient-enrollment', id);
    expect(afterward[1]!.data).toEqual({ ...shown, sequence: shown.status_history.length });
  });

  it("takes the request from the case's memo when an older run published the case alone", async () => {
    const { id, submitted } = await completedVerification();
    const { request: _request, ...shownAlone } = await read('/benefit-verification', id);
    await testApp.app.get(WebhookPublisher).publish({
      eventId: 'evt_published_by_an_older_run',
      accountId: account.accountId,
      type: 'benefit_verification.updated',
      data: { ...shownAlone, sequence: 99 },
      createdAt: new Date().toISOString(),
      caseId: id,
    });

    const event = await eventually(async () =>
      eventsFor(receiver, id).find((received) => received.data.sequence === 99),
    );
    expect(event.data.request).toEqual(submitted.request);
  });

  it('is sent as it was recorded when the event already holds the request, as events published before the change do', async () => {
    const recorded = {
      id: 'bv_recorded_before',
      object: 'benefit_verification',
      status: 'completed',
      request: { patient: { first_name: 'Earlier' } },
      sequence: 2,
    };
    await testApp.app.get(WebhookPublisher).publish({
      eventId: 'evt_recorded_before_slim_inputs',
      accountId: account.accountId,
      type: 'benefit_verification.updated',
      data: recorded,
      createdAt: new Date().toISOString(),
    });

    const [event] = await eventually(async () => {
      const events = eventsFor(receiver, 'bv_recorded_before');
      return events.length ? events : undefined;
    });
    expect(event!.data).toEqual(recorded);
  });

  /**
   * A worker publishes a move's event from inside the workflow task that commits the move, so the
   * event exists before GET can show it. These publish an event ahead of its case, the way that task
   * does, through the worker's own webhook path.
   */
  describe('sent by its first attempt', () => {
    const awaitingReview = async () => {
      const submitted = await testApp
        .http()
        .post('/patient-enrollment')
        .set(bearer(account.keys.provider))
        .send(uninsuredEnrollment());
      expect(submitted.body.data.status).toBe('awaiting_review');
      return submitted.body.data as JsonObject;
    };
    const aheadOfTheCase = (eventId: string, shown: JsonObject, moment: string): PublishEventInput => {
      const { request, ...withoutRequest } = shown;
      return {
        eventId,
        accountId: account.accountId,
        type: 'patient_enrollment.updated',
        data: {
          ...withoutRequest,
          status: 'awaiting_outcome',
          updated_at: moment,
          sequence: shown.status_history.length + 1,
        },
        createdAt: moment,
        caseId: shown.id,
        request,
      };
    };
    const workerWebhooks = (webhooks: { commitWaitMs: number; handOffMs?: number }) =>
      createWorkerWebhooks({
        config: { ...testApp.config, webhooks: { ...testApp.config.webhooks, ...webhooks } },
        db: testApp.db,
        temporalClient: testApp.temporalClient,
        taskQueue: testApp.config.temporal.taskQueue,
      });
    afterEach(() => {
      receiver.onNotification = async () => undefined;
    });

    it('reaches a receiver that reads the case back only once GET shows the move it announces', async () => {
      const shown = await awaitingReview();
      const id = shown.id as string;
      const readBack: JsonObject[] = [];
      receiver.onNotification = async (notification) => {
        if (notification.id === 'evt_ahead_of_its_move') readBack.push(await read('/patient-enrollment', id));
      };
      const { publisher, firstAttempts } = workerWebhooks({ commitWaitMs: 60_000 });

      await publisher.publish(aheadOfTheCase('evt_ahead_of_its_move', shown, new Date().toISOString()));
      const moved = await testApp
        .http()
        .post(`/patient-enrollment/${id}/information`)
        .set(bearer(account.keys.provider))
        .send({ evidence: [incomeEvidence] });
      expect(moved.status).toBe(200);
      await firstAttempts.settle();

      expect(readBack.map((seen) => seen.status)).not.toContain('awaiting_review');
      expect(readBack).toHaveLength(1);
    });

    it('is sent by its first attempt after its wait even when the case never shows the move', async () => {
      const shown = await awaitingReview();
      // A wait longer than the room after the send: the delivery is owned for the wait too.
      const { publisher, firstAttempts } = workerWebhooks({ commitWaitMs: 300, handOffMs: 200 });
      const publishedAt = Date.now();

      await publisher.publish(aheadOfTheCase('evt_never_committed', shown, '2999-01-01T00:00:00.000Z'));
      await firstAttempts.settle();

      const received = receiver.requests.find((sent) =>
        sent.rawBody.toString().includes('"evt_never_committed"'),
      );
      expect(received).toBeDefined();
      expect(received!.receivedAt - publishedAt).toBeGreaterThanOrEqual(300);
    });
  });
});
