import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { bearer, startTestApp, TestApp } from '../support/test-app';

const PATH = '/prior-authorization';

/** A live request carries no mock_result: the payer's answer cannot be scripted. */
function livePriorAuthorization(prescription: object) {
  const { mock_result: _mockResult, ...request } = priorAuthorizationRequest({
    patient: syntheticPatient({ last_name: 'Zzuniquesurname' }),
    diagnoses: [{ code: 'K50.90' }],
    prescription,
  });
  return request;
}

const REMICADE = { drug_name: 'Remicade 100 mg vial', quantity: 4 };
const OZEMPIC = { drug_name: 'Ozempic 1 mg pen', quantity: 1 };

/**
 * CONTRACT.md §10 and issue 14: a live prior authorization goes over Da Vinci PAS, which serves
 * medical-benefit drugs; pharmacy-benefit drugs need NCPDP SCRIPT ePA, which is not built.
 */
describe('prior authorization with a live key', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function liveAccount(withPasConnector: boolean) {
    const account = await testApp.createAccount();
    const keys = await testApp.createLiveKeys(account.accountId);
    if (withPasConnector) {
      const configured = await testApp
        .http()
        .put('/connectors/prior_authorization')
        .set(bearer(keys.admin))
        .send({ url: 'http://127.0.0.1:9/fhir', auth: { type: 'bearer', token: 'pas-token-0123456789' } });
      expect(configured.status).toBe(200);
    }
    return keys;
  }

  const create = (key: string, body: object) => testApp.http().post(PATH).set(bearer(key)).send(body);

  it('starts a medical-benefit prior authorization when the account has a PAS connector', async () => {
    const keys = await liveAccount(true);
    const response = await create(keys.provider, livePriorAuthorization(REMICADE));
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ object: 'prior_authorization', livemode: true });
  });

  it('refuses a medical-benefit prior authorization with 409 naming the connector when none is configured', async () => {
    const keys = await liveAccount(false);
    const response = await create(keys.provider, livePriorAuthorization(REMICADE));
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('PUT /connectors/prior_authorization'),
    });
  });

  it('refuses a pharmacy-benefit prior authorization with 409 naming the benefit and NCPDP SCRIPT ePA, never the patient', async () => {
    const keys = await liveAccount(true);
    const response = await create(keys.provider, livePriorAuthorization(OZEMPIC));
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('invalid_state');
    expect(response.body.error.message).toMatch(/pharmacy benefit.*NCPDP SCRIPT ePA/);
    expect(response.body.error.message).not.toContain('Zzuniquesurname');
  });

  it('refuses a drug whose benefit the catalog does not know, saying so', async () => {
    const keys = await liveAccount(true);
    const response = await create(
      keys.provider,
      livePriorAuthorization({ drug_name: 'Unlisted biologic', quantity: 1 }),
    );
    expect(response.status).toBe(409);
    expect(response.body.error.message).toMatch(/does not know this drug's benefit/);
  });

  it('still takes a pharmacy-benefit prior authorization with a test key, where the simulated payer answers', async () => {
    const account = await testApp.createAccount();
    const response = await create(
      account.keys.provider,
      priorAuthorizationRequest({ prescription: OZEMPIC }),
    );
    expect(response.status).toBe(201);
    expect(response.body.data.livemode).toBe(false);
  });
});
