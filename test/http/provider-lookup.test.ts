import { SANDBOX_NPIS } from '../../infrastructure/providers/sandbox-registry';
import { LoopbackNpiRegistry } from '../support/loopback-npi-registry';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('GET /providers/lookup', () => {
  const sandboxRegistry = new LoopbackNpiRegistry();
  const liveRegistry = new LoopbackNpiRegistry();
  let testApp: TestApp;
  let account: TestAccount;
  let liveProviderKey: string;

  beforeAll(async () => {
    const [sandboxUrl, liveUrl] = await Promise.all([sandboxRegistry.start(), liveRegistry.start()]);
    testApp = await startTestApp({ SANDBOX_NPI_REGISTRY_URL: sandboxUrl, NPI_REGISTRY_URL: liveUrl });
    account = await testApp.createAccount();
    liveProviderKey = (await testApp.createLiveKeys(account.accountId)).provider;
  });
  afterEach(() => {
    sandboxRegistry.recover();
    liveRegistry.recover();
  });
  afterAll(async () => {
    await testApp.close();
    await Promise.all([sandboxRegistry.stop(), liveRegistry.stop()]);
  });

  const lookup = (query: string, key = account.keys.provider) =>
    testApp.http().get(`/providers/lookup?${query}`).set(bearer(key));

  it("answers an NPI with the registry's record in the contract's shape", async () => {
    const response = await lookup(`npi=${SANDBOX_NPIS.active}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      error: null,
      data: {
        object: 'provider_registry_record',
        npi: '1234567893',
        type: 'individual',
        name: 'AMADOU REVIEWSWORTH',
        credential: 'MD',
        taxonomy: { code: '207Q00000X', description: 'Family Medicine' },
        practice_address: {
          line1: '100 SANDBOX WAY',
          line2: 'SUITE 200',
          city: 'PORTLAND',
          state: 'OR',
          postal_code: '972010000',
          phone: '503-555-0100',
        },
        active: true,
      },
    });
  });

  it('answers an organization and a deactivated NPI, the latter as inactive', async () => {
    expect((await lookup(`npi=${SANDBOX_NPIS.organization}`)).body.data).toMatchObject({
      type: 'organization',
      name: 'SANDBOX RIVERSIDE FAMILY PRACTICE',
      credential: null,
    });
    expect((await lookup(`npi=${SANDBOX_NPIS.deactivated}`)).body.data).toMatchObject({ active: false });
  });

  it('answers 404 for an NPI the registry does not return', async () => {
    const response = await lookup(`npi=${SANDBOX_NPIS.notReturned}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('answers a last name and state with a list of the individuals practising there', async () => {
    const response = await lookup('last_name=Quintero&state=or');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(response.body.data.data.map((record: { name: string }) => record.name)).toEqual([
      'LUCIA QUINTERO',
      'MATEO R QUINTERO',
    ]);
    expect(sandboxRegistry.requests.at(-1)).toBe(
      '/api/?version=2.1&last_name=QUINTERO&state=OR&enumeration_type=NPI-1&limit=21',
    );
  });

  it('asks for a last name as the registry spells it, without accents', async () => {
    const response = await lookup(`last_name=${encodeURIComponent("d'Árcy-Nguyen")}&state=wa`);
    expect(response.body.data.data.map((record: { npi: string }) => record.npi)).toEqual([
      SANDBOX_NPIS.activeHyphenated,
    ]);
  });

  it('asks for a last name typed with a typographic apostrophe with the plain one', async () => {
    const response = await lookup(`last_name=${encodeURIComponent('D’Arcy-Nguyen')}&state=WA`);
    expect(sandboxRegistry.requests.at(-1)).toContain('last_name=D%27ARCY-NGUYEN&');
    expect(response.body.data.data.map((record: { npi: string }) => record.npi)).toEqual([
      SANDBOX_NPIS.activeHyphenated,
    ]);
  });

  it.each([
    ['neither form', '', ['npi']],
    ['both forms', `npi=${SANDBOX_NPIS.active}&last_name=Quintero&state=OR`, ['npi']],
    ['a last name without a state', 'last_name=Quintero', ['state']],
    ['a state without a last name', 'state=OR', ['npi', 'last_name']],
    ['an NPI whose check digit is wrong', 'npi=1234567890', ['npi']],
    ['a wildcard in the last name', 'last_name=Qu*&state=OR', ['last_name']],
  ])('answers 400 naming the fields for %s', async (_, query, fields) => {
    const response = await lookup(query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
    const named = response.body.error.details.map((detail: { field: string }) => detail.field);
    expect(named).toEqual(expect.arrayContaining(fields));
  });

  it("answers 400 on the field the registry refuses, without the registry's words", async () => {
    sandboxRegistry.refuseQueries('last_name');
    const response = await lookup('last_name=Refused&state=OR');
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { field: 'last_name', issue: 'the NPI registry cannot search by this value' },
    ]);
    expect(JSON.stringify(response.body)).not.toContain('two characters');
  });

  it('answers 503 registry_unavailable with Retry-After when the registry is down, and again once it is back', async () => {
    const outage = await lookup(`npi=${SANDBOX_NPIS.registryDown}`);
    expect(outage.status).toBe(503);
    expect(outage.body.error.code).toBe('registry_unavailable');
    expect(outage.headers['retry-after']).toBe('30');

    sandboxRegistry.down = 'reset';
    expect((await lookup('last_name=Elsewhere&state=OR')).status).toBe(503);
    sandboxRegistry.recover();
    expect((await lookup('last_name=Elsewhere&state=OR')).body.data.data).toHaveLength(1);
  });

  it('answers 503 when the live registry answers neither results nor Errors, and keeps no "not returned"', async () => {
    liveRegistry.reply = { status: 200, body: '{}' };
    const outage = await lookup(`npi=${SANDBOX_NPIS.organization}`, liveProviderKey);
    expect(outage.status).toBe(503);
    expect(outage.body.error.code).toBe('registry_unavailable');
    expect(outage.headers['retry-after']).toBe('30');

    liveRegistry.recover();
    const found = await lookup(`npi=${SANDBOX_NPIS.organization}`, liveProviderKey);
    expect(found.status).toBe(200);
    expect(found.body.data.name).toBe('SANDBOX RIVERSIDE FAMILY PRACTICE');
  });

  it('answers a repeated lookup from the cache, without asking the registry again', async () => {
    await lookup(`npi=${SANDBOX_NPIS.nameMismatch}`);
    const served = sandboxRegistry.requestsServed;
    const again = await lookup(`npi=${SANDBOX_NPIS.nameMismatch}`);
    expect(again.body.data.name).toBe('MORGAN ELSEWHERE');
    expect(sandboxRegistry.requestsServed).toBe(served);
  });

  it("asks the live registry for a live key, and the sandbox's for a test key", async () => {
    const [liveBefore, sandboxBefore] = [liveRegistry.requestsServed, sandboxRegistry.requestsServed];
    const response = await lookup(`npi=${SANDBOX_NPIS.activeHyphenated}`, liveProviderKey);
    expect(response.status).toBe(200);
    expect(liveRegistry.requestsServed - liveBefore).toBe(1);
    expect(sandboxRegistry.requestsServed).toBe(sandboxBefore);
  });

  it('is refused to a key without the provider role', async () => {
    const response = await lookup(`npi=${SANDBOX_NPIS.active}`, account.keys.reviewer);
    expect(response.status).toBe(403);
  });
});
