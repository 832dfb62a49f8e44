import { eventsFor, JsonObject, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest, syntheticPatient } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const SECRET = 'whsec_thin_notifications_0001';

/** Every text a patient object holds, long enough to be telling (not "US" or "IL"). */
function patientTexts(value: unknown): string[] {
  if (typeof value === 'string') return value.length >= 3 ? [value] : [];
  if (value && typeof value === 'object') return Object.values(value).flatMap(patientTexts);
  return [];
}

describe('a thin and a full endpoint of one account', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let thin: TestReceiver;
  let full: TestReceiver;
  let thinEndpointId: string;
  let fullEndpointId: string;

  /** An endpoint as a provider makes one: created, toggled on, and active once verified. */
  async function activeEndpoint(receiver: TestReceiver, options: { thin?: boolean } = {}): Promise<string> {
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: options.thin ? 'queue without PHI' : 'pharmacy system',
        url: receiver.url,
        secret: SECRET,
        events: ['benefit_verification.updated'],
        ...options,
      });
    const id = created.body.data.id as string;
    receiver.endpointIds.add(id);
    await testApp.http().patch(`/webhooks/${id}`).set(bearer(account.keys.provider)).send({ active: true });
    await waitForStatus(testApp, account.keys.provider, '/webhooks', id, 'active');
    return id;
  }

  beforeAll(async () => {
    testApp = await startTestApp({ WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    thin = await new TestReceiver(SECRET).start();
    full = await new TestReceiver(SECRET).start();
    thinEndpointId = await activeEndpoint(thin, { thin: true });
    fullEndpointId = await activeEndpoint(full);
  });
  afterAll(async () => {
    await Promise.all([thin.stop(), full.stop()]);
    await worker.stop();
    await testApp.close();
  });

  /** Runs a benefit verification to its end; answers its id and the patient it was submitted for. */
  async function completedCase() {
    const patient = syntheticPatient();
    const submitted = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest({ patient }));
    const id = submitted.body.data.id as string;
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', id, 'completed');
    const received = (receiver: TestReceiver) =>
      eventually(async () => {
        const events = receiver.notifications.filter((event) => (event.data as JsonObject).id === id);
        return events.some((event) => (event.data as JsonObject).status === 'completed') ? events : undefined;
      });
    return { id, patient, thinEvents: await received(thin), fullEvents: await received(full) };
  }

  const rawBodiesFor = (receiver: TestReceiver, eventIds: string[]) =>
    receiver.requests.filter((request) => eventIds.includes(String(request.headers['x-webhook-id'])));

  it('the thin one receives only the case’s id, object, status and livemode, and no patient field anywhere in the body', async () => {
    const { id, patient, thinEvents } = await completedCase();

    for (const event of thinEvents) {
      expect(event.data).toEqual({
        id,
        object: 'benefit_verification',
        status: expect.any(String),
        livemode: false,
      });
    }
    const bodies = rawBodiesFor(
      thin,
      thinEvents.map((event) => event.id),
    ).map((request) => request.rawBody.toString('utf8'));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      for (const text of patientTexts(patient)) expect(body).not.toContain(text);
    }
  });

  it('the thin one receives the same events, ids, types, titles, descriptions and times, signed over the exact bytes sent', async () => {
    const { thinEvents, fullEvents } = await completedCase();

    const withoutData = ({ data: _data, ...event }: JsonObject) => event;
    const thinById = new Map(thinEvents.map((event) => [event.id, withoutData(event)]));
    for (const event of fullEvents) expect(thinById.get(event.id)).toEqual(withoutData(event));
    expect(
      rawBodiesFor(
        thin,
        thinEvents.map((event) => event.id),
      ).every((request) => request.verified),
    ).toBe(true);
  });

  it('the full one receives the whole case, patient included', async () => {
    const { id, patient, fullEvents } = await completedCase();

    const shown = (await testApp.http().get(`/benefit-verification/${id}`).set(bearer(account.keys.provider)))
      .body.data as JsonObject;
    const last = eventsFor(full, id).at(-1)!;
    expect(fullEvents.length).toBeGreaterThan(0);
    expect(last.data).toEqual({ ...shown, sequence: shown.status_history.length });
    expect(last.data.request.patient.last_name).toBe(patient.last_name);
  });

  it('a thin notification names a case its receiver fetches in full with GET', async () => {
    const { thinEvents, patient } = await completedCase();

    const completed = thinEvents.find((event) => (event.data as JsonObject).status === 'completed')!;
    const { id } = completed.data as JsonObject;
    const fetched = await testApp
      .http()
      .get(`/benefit-verification/${id}`)
      .set(bearer(account.keys.provider));
    expect(fetched.status).toBe(200);
    expect(fetched.body.data).toMatchObject({
      id,
      status: 'completed',
      request: { patient: { last_name: patient.last_name } },
    });
  });

  it('an endpoint switched to thin receives thin notifications from then on, test events included', async () => {
    const receiver = await new TestReceiver(SECRET).start();
    try {
      const endpointId = await activeEndpoint(receiver);
      const patched = await testApp
        .http()
        .patch(`/webhooks/${endpointId}`)
        .set(bearer(account.keys.provider))
        .send({ thin: true });
      expect(patched.body.data.thin).toBe(true);
      expect(
        (await testApp.http().get(`/webhooks/${endpointId}`).set(bearer(account.keys.provider))).body.data
          .thin,
      ).toBe(true);

      await testApp.http().post(`/webhooks/${endpointId}/test`).set(bearer(account.keys.provider));
      const [notification] = await eventually(async () =>
        receiver.notifications.length ? receiver.notifications : undefined,
      );
      expect(notification!.type).toBe('webhook.test');
      expect(notification!.data).toEqual({ id: endpointId, object: 'webhook_endpoint', livemode: false });
    } finally {
      await receiver.stop();
    }
  });

  it('endpoints are full unless created or changed to thin', async () => {
    const thinOf = async (id: string) =>
      (await testApp.http().get(`/webhooks/${id}`).set(bearer(account.keys.provider))).body.data.thin;
    expect(await thinOf(fullEndpointId)).toBe(false);
    expect(await thinOf(thinEndpointId)).toBe(true);
  });

  it('a thin that is not a boolean is refused with 400 naming the field', async () => {
    const response = await testApp
      .http()
      .patch(`/webhooks/${thinEndpointId}`)
      .set(bearer(account.keys.provider))
      .send({ thin: 'yes' });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toEqual(['thin']);
  });

  it('a notification’s id is its event’s id and its X-Webhook-Id, and GET /events/{id} shows the data it carried', async () => {
    const submitted = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest());
    const caseId = submitted.body.data.id as string;
    const [notification] = await eventually(async () => {
      const events = eventsFor(full, caseId);
      return events.length ? events : undefined;
    });
    const request = full.requests.find(
      (received) => JSON.parse(received.rawBody.toString('utf8')).id === notification!.id,
    )!;
    expect(request.headers['x-webhook-id']).toBe(notification!.id);

    const event = await testApp.http().get(`/events/${notification!.id}`).set(bearer(account.keys.provider));
    expect(event.status).toBe(200);
    expect(event.body.data).toEqual({ ...notification, object: 'event', livemode: false });
  });

  it('GET /events lists what the receiver received, with the same data, so a receiver that was down catches up', async () => {
    const caughtUpFrom = new Date().toISOString();
    const submitted = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest());
    const caseId = submitted.body.data.id as string;
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', caseId, 'completed');
    const received = await eventually(async () => {
      const events = eventsFor(full, caseId);
      return events.some((event) => event.data.status === 'completed') ? events : undefined;
    });

    const listed = (
      await testApp
        .http()
        .get('/events')
        .query({ created_after: caughtUpFrom, type: 'benefit_verification.updated' })
        .set(bearer(account.keys.provider))
    ).body.data.data as JsonObject[];
    const oldestFirst = listed.filter((event) => event.data.id === caseId).reverse();
    expect(oldestFirst.map(({ id, data }) => ({ id, data }))).toEqual(
      received.map(({ id, data }) => ({ id, data })),
    );
  });
});
