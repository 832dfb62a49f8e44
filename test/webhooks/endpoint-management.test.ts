import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const SECRET = 'whsec_0123456789abcdef';

describe('webhook endpoint management', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const create = (body: Record<string, unknown>, key = account.keys.provider) =>
    testApp.http().post('/webhooks').set(bearer(key)).send(body);
  const valid = {
    name: 'Pharmacy system',
    url: 'http://127.0.0.1:9/hooks',
    secret: SECRET,
    events: ['prior_authorization.updated'],
  };

  it('creates an inactive endpoint and never returns its secret', async () => {
    const response = await create(valid);
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      object: 'webhook_endpoint',
      status: 'inactive',
      events: ['prior_authorization.updated'],
      secret_hint: '…cdef',
    });
    const fetched = await testApp
      .http()
      .get(`/webhooks/${response.body.data.id}`)
      .set(bearer(account.keys.provider));
    const listed = await testApp.http().get('/webhooks').set(bearer(account.keys.provider));
    for (const body of [response.body, fetched.body, listed.body])
      expect(JSON.stringify(body)).not.toContain(SECRET);
  });

  it("accepts events by the specification's titles and stores their machine names", async () => {
    const response = await create({
      ...valid,
      events: ['Benefit Verification Updated', 'prior_authorization.updated'],
    });
    expect(response.body.data.events).toEqual([
      'benefit_verification.updated',
      'prior_authorization.updated',
    ]);
  });

  it.each([
    ['a URL that is not http(s)', { url: 'ftp://files.example/hooks' }, 'url'],
    ['credentials in the URL', { url: 'https://user:pass@hooks.example/' }, 'url'],
    ['an unknown event', { events: ['payment.succeeded'] }, 'events'],
    ['an empty secret', { secret: '' }, 'secret'],
    ['a secret under 16 characters', { secret: 'short-secret' }, 'secret'],
  ])('refuses %s with 400 and the field named', async (_case, override, field) => {
    const response = await create({ ...valid, ...override });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  });

  it('changes name, URL, events and secret, keeping the secret hidden', async () => {
    const { id } = (await create(valid)).body.data;
    const response = await testApp
      .http()
      .patch(`/webhooks/${id}`)
      .set(bearer(account.keys.provider))
      .send({
        name: 'Renamed',
        url: 'http://127.0.0.1:9/v2',
        events: ['Patient Enrollment Updated'],
        secret: 'rotated-secret-0000',
      });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      name: 'Renamed',
      url: 'http://127.0.0.1:9/v2',
      events: ['patient_enrollment.updated'],
      secret_hint: '…0000',
    });
  });

  it('activates through activating to active within seconds, and deactivates at once', async () => {
    const { id } = (await create(valid)).body.data;
    const toggled = await testApp
      .http()
      .patch(`/webhooks/${id}`)
      .set(bearer(account.keys.provider))
      .send({ active: true });
    expect(toggled.body.data.status).toBe('activating');
    await eventually(async () => {
      const { body } = await testApp.http().get(`/webhooks/${id}`).set(bearer(account.keys.provider));
      return body.data.status === 'active';
    });
    const off = await testApp
      .http()
      .patch(`/webhooks/${id}`)
      .set(bearer(account.keys.provider))
      .send({ active: false });
    expect(off.body.data.status).toBe('inactive');
  });

  it('leaves an endpoint whose host does not resolve inactive, with the reason', async () => {
    const { id } = (await create({ ...valid, url: 'https://no-such-host.invalid/hooks' })).body.data;
    await testApp.http().patch(`/webhooks/${id}`).set(bearer(account.keys.provider)).send({ active: true });
    const endpoint = await eventually(async () => {
      const { body } = await testApp.http().get(`/webhooks/${id}`).set(bearer(account.keys.provider));
      return body.data.status === 'inactive' ? body.data : undefined;
    });
    expect(endpoint.status_reason).toMatch(/activation refused: no-such-host\.invalid does not resolve/);
  });

  it('deletes an endpoint, after which it is not found', async () => {
    const { id } = (await create(valid)).body.data;
    expect(
      (await testApp.http().delete(`/webhooks/${id}`).set(bearer(account.keys.provider))).body.data,
    ).toEqual({
      id,
      object: 'webhook_endpoint',
      deleted: true,
    });
    expect((await testApp.http().get(`/webhooks/${id}`).set(bearer(account.keys.provider))).status).toBe(404);
  });

  it("answers 404 for another account's endpoint and lists only the caller's own", async () => {
    const { id } = (await create(valid)).body.data;
    const other = await testApp.createAccount('Other clinic');
    expect((await testApp.http().get(`/webhooks/${id}`).set(bearer(other.keys.provider))).status).toBe(404);
    expect(
      (await testApp.http().patch(`/webhooks/${id}`).set(bearer(other.keys.provider)).send({ name: 'x' }))
        .status,
    ).toBe(404);
    expect((await testApp.http().delete(`/webhooks/${id}`).set(bearer(other.keys.provider))).status).toBe(
      404,
    );
    expect((await testApp.http().get('/webhooks').set(bearer(other.keys.provider))).body.data.data).toEqual(
      [],
    );
  });

  it('is for providers: a reviewer-only key gets 403', async () => {
    expect((await create(valid, account.keys.reviewer)).status).toBe(403);
  });
});
