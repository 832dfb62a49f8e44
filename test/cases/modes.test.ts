import { eventsFor, JsonObject, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  clinicalEligibilityRequest,
  priorAuthorizationRequest,
} from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const CLINICAL_ELIGIBILITY = '/clinical-eligibility';
const SECRET = 'whsec_modes_receiver_000001';

/**
 * docs/decisions.md#modes: test and live keys of one account, each mode blind to the other's objects. Live
 * cases here are clinical eligibility checks, which need no connector in either mode.
 */
describe('test and live modes', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  const live = { provider: '', reviewer: '', admin: '' };

  beforeAll(async () => {
    testApp = await startTestApp({ WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic in two modes');
    Object.assign(live, await testApp.createLiveKeys(account.accountId));
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const post = (key: string, path: string, body: object) =>
    testApp.http().post(path).set(bearer(key)).send(body);
  const get = (key: string, path: string) => testApp.http().get(path).set(bearer(key));

  it('creates a key in the mode asked for, test by default, and names the mode in its prefix', async () => {
    const testKey = await post(account.keys.admin, '/api-keys', { label: 'plain', roles: ['provider'] });
    const liveKey = await post(live.admin, '/api-keys', {
      label: 'production',
      roles: ['provider'],
      mode: 'live',
    });
    expect(testKey.body.data).toMatchObject({ livemode: false, secret: expect.stringMatching(/^hak_test_/) });
    expect(liveKey.body.data).toMatchObject({ livemode: true, secret: expect.stringMatching(/^hak_live_/) });

    const listed = (await get(account.keys.admin, '/api-keys')).body.data.data as JsonObject[];
    expect(listed.find((key) => key.id === liveKey.body.data.id)).toMatchObject({ livemode: true });
    expect(listed.find((key) => key.id === testKey.body.data.id)).toMatchObject({ livemode: false });
  });

  it('refuses a mode that does not exist', async () => {
    const response = await post(account.keys.admin, '/api-keys', {
      label: 'staging',
      roles: ['provider'],
      mode: 'staging',
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error.details)).toContain('mode');
  });

  it('lets only a live admin key create or revoke live keys, so a leaked test key opens nothing live', async () => {
    const refused = await post(account.keys.admin, '/api-keys', {
      label: 'escalation',
      roles: ['admin'],
      mode: 'live',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/live admin key/);
    const liveKey = await post(live.admin, '/api-keys', { label: 'kept', roles: ['provider'], mode: 'live' });
    const revoke = (key: string) =>
      testApp.http().delete(`/api-keys/${liveKey.body.data.id}`).set(bearer(key));
    expect((await revoke(account.keys.admin)).status).toBe(403);
    expect((await revoke(live.admin)).status).toBe(200);
  });

  it("refuses a test admin key's changes to connectors and formularies, which live data goes to", async () => {
    const connector = await testApp
      .http()
      .put('/connectors/eligibility')
      .set(bearer(account.keys.admin))
      .send({
        url: 'https://clearinghouse.example/270',
        auth: { type: 'none' },
        submitter_id: 'A1',
        receiver_id: 'B1',
      });
    const formulary = await testApp
      .http()
      .put('/formularies/SBX01')
      .set(bearer(account.keys.admin))
      .set('Content-Type', 'text/csv')
      .send('payer_id,drug_name,coverage\nSBX01,Ozempic,covered\n');
    expect([connector.status, formulary.status]).toEqual([403, 403]);
  });

  it("keeps a test case out of a live key's sight: reads, lists, decisions and cancel find nothing", async () => {
    const created = await post(account.keys.provider, '/prior-authorization', priorAuthorizationRequest());
    const id = created.body.data.id as string;
    expect(created.body.data.livemode).toBe(false);

    expect((await get(live.provider, `/prior-authorization/${id}`)).status).toBe(404);
    const listed = (await get(live.provider, '/prior-authorization')).body.data.data as JsonObject[];
    expect(listed.map((item) => item.id)).not.toContain(id);
    const review = await post(live.reviewer, `/prior-authorization/${id}/review`, {
      decision: 'approve',
      reviewer: 'Live Reviewer',
    });
    expect(review.status).toBe(404);
    const cancel = await post(live.provider, `/prior-authorization/${id}/cancel`, { reason: 'Wrong mode.' });
    expect(cancel.status).toBe(404);

    expect((await get(account.keys.provider, `/prior-authorization/${id}`)).body.data).toMatchObject({
      id,
      livemode: false,
    });
  });

  it("keeps a live case out of a test key's sight, exactly like another account's case", async () => {
    const created = await post(live.provider, CLINICAL_ELIGIBILITY, clinicalEligibilityRequest());
    const id = created.body.data.id as string;

    const shown = await get(live.provider, `${CLINICAL_ELIGIBILITY}/${id}`);
    expect(shown.body.data).toMatchObject({ id, livemode: true });
    const hidden = await get(account.keys.provider, `${CLINICAL_ELIGIBILITY}/${id}`);
    const otherAccount = await testApp.createAccount('Another clinic');
    const elsewhere = await get(otherAccount.keys.provider, `${CLINICAL_ELIGIBILITY}/${id}`);
    expect(hidden.status).toBe(404);
    const { request_id: _hiddenRequest, ...hiddenError } = hidden.body.error as JsonObject;
    const { request_id: _elsewhereRequest, ...elsewhereError } = elsewhere.body.error as JsonObject;
    expect(hiddenError).toEqual(elsewhereError);

    const testList = (await get(account.keys.provider, CLINICAL_ELIGIBILITY)).body.data.data as JsonObject[];
    expect(testList.map((item) => item.id)).not.toContain(id);
    const liveList = (await get(live.provider, CLINICAL_ELIGIBILITY)).body.data.data as JsonObject[];
    expect(liveList.map((item) => item.id)).toContain(id);
    expect(liveList.every((item) => item.livemode === true)).toBe(true);
  });

  it('refuses mock_result from a live key with a 400 that names the field and says why', async () => {
    const response = await post(
      live.provider,
      '/benefit-verification',
      benefitVerificationRequest({ mock_result: { status: 'completed' } }),
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'mock_result', issue: expect.stringContaining('live mode') }],
    });
    expect(response.body.error.message).toMatch(/test keys.*real payer/);

    const paResponse = await post(live.provider, '/prior-authorization', priorAuthorizationRequest());
    expect(paResponse.status).toBe(400);
    expect(paResponse.body.error.details).toEqual([expect.objectContaining({ field: 'mock_result' })]);
  });

  it('takes the same Idempotency-Key in test and in live mode as two different requests', async () => {
    const key = `modes-${Date.now()}`;
    const body = clinicalEligibilityRequest();
    const send = (apiKey: string) =>
      testApp.http().post(CLINICAL_ELIGIBILITY).set(bearer(apiKey)).set('Idempotency-Key', key).send(body);
    const inTest = await send(account.keys.provider);
    const inLive = await send(live.provider);
    const liveAgain = await send(live.provider);
    expect([inTest.status, inLive.status, liveAgain.status]).toEqual([201, 201, 201]);
    expect(inLive.body.data.id).not.toBe(inTest.body.data.id);
    expect(liveAgain.body.data.id).toBe(inLive.body.data.id);
    expect(liveAgain.headers['idempotent-replayed']).toBe('true');
  });

  describe('webhooks', () => {
    const receivers: Record<'test' | 'live', TestReceiver> = {} as never;
    const endpointIds: Record<'test' | 'live', string> = {} as never;

    beforeAll(async () => {
      for (const [mode, key] of [
        ['test', account.keys.provider],
        ['live', live.provider],
      ] as const) {
        receivers[mode] = await new TestReceiver(SECRET).start();
        const created = await post(key, '/webhooks', {
          name: `${mode} receiver`,
          url: receivers[mode].url,
          secret: SECRET,
          events: ['clinical_eligibility.updated'],
        });
        expect(created.body.data.livemode).toBe(mode === 'live');
        endpointIds[mode] = created.body.data.id as string;
        receivers[mode].endpointIds.add(endpointIds[mode]);
        await testApp.http().patch(`/webhooks/${endpointIds[mode]}`).set(bearer(key)).send({ active: true });
        await waitForStatus(testApp, key, '/webhooks', endpointIds[mode], 'active');
      }
    });
    afterAll(async () => {
      await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
    });

    it("sends each case's events only to the endpoints of its own mode", async () => {
      const testCase = (await post(account.keys.provider, CLINICAL_ELIGIBILITY, clinicalEligibilityRequest()))
        .body.data;
      const liveCase = (await post(live.provider, CLINICAL_ELIGIBILITY, clinicalEligibilityRequest())).body
        .data;
      const finalEvent = (mode: 'test' | 'live', id: string) =>
        eventually(async () =>
          eventsFor(receivers[mode], id).find((event) => event.data.status === 'completed'),
        );

      const [testEvent, liveEvent] = await Promise.all([
        finalEvent('test', testCase.id as string),
        finalEvent('live', liveCase.id as string),
      ]);
      expect(testEvent.data.livemode).toBe(false);
      expect(liveEvent.data.livemode).toBe(true);
      expect(eventsFor(receivers.test, liveCase.id as string)).toEqual([]);
      expect(eventsFor(receivers.live, testCase.id as string)).toEqual([]);
    });

    it("lists and finds only the caller's mode's endpoints, and their deliveries show the mode", async () => {
      const testListed = (await get(account.keys.provider, '/webhooks')).body.data.data as JsonObject[];
      const liveListed = (await get(live.provider, '/webhooks')).body.data.data as JsonObject[];
      expect(testListed.map((endpoint) => endpoint.id)).toEqual([endpointIds.test]);
      expect(liveListed.map((endpoint) => endpoint.id)).toEqual([endpointIds.live]);
      expect((await get(account.keys.provider, `/webhooks/${endpointIds.live}`)).status).toBe(404);
      expect((await get(live.provider, `/webhooks/${endpointIds.test}/deliveries`)).status).toBe(404);

      const deliveries = await eventually(async () => {
        const page = await get(live.provider, `/webhooks/${endpointIds.live}/deliveries`);
        const data = page.body.data.data as JsonObject[];
        return data.length > 0 ? data : undefined;
      });
      expect(deliveries.every((delivery) => delivery.livemode === true)).toBe(true);
    });
  });
});
