import { type JsonObject, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest } from '../support/case-requests';
import { cookiesFrom, hiddenFieldsOf } from '../support/console-session';
import { LoopbackNpiRegistry } from '../support/loopback-npi-registry';
import { LoopbackSmtpServer } from '../support/loopback-smtp';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const CREDENTIALS = { username: 'clinic-mailer', password: 'mailer-password-7c1e' };
const AMADOU = { npi: '1234567893', first_name: 'Amadou', last_name: 'Reviewsworth' };
const PUBLIC_API_URL = 'https://api.clinic-service.example';

/**
 * Live mode end to end: the NPI checked against a real NPPES API on loopback, the signing link
 * mailed through the account's SMTP connector to a real SMTP server on loopback, and enforcement on
 * by default.
 */
describe('provider authorizations in live mode', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let registry: LoopbackNpiRegistry;
  let smtp: LoopbackSmtpServer;
  let account: TestAccount;
  let live: TestAccount['keys'];

  beforeAll(async () => {
    registry = new LoopbackNpiRegistry();
    smtp = new LoopbackSmtpServer({ security: 'starttls', credentials: CREDENTIALS });
    const [registryUrl, smtpPort] = await Promise.all([registry.start(), smtp.start()]);
    testApp = await startTestApp({ NPI_REGISTRY_URL: registryUrl, PUBLIC_API_URL });
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Riverside Clinic');
    live = await testApp.createLiveKeys(account.accountId, { authorizeTestPrescriber: false });
    const configured = await testApp
      .http()
      .put('/connectors/mail')
      .set(bearer(live.admin))
      .send({
        host: '127.0.0.1',
        port: smtpPort,
        security: 'starttls',
        ...CREDENTIALS,
        from: 'prior-auth@clinic.example',
        ca_certificate: smtp.certificate,
        timeout_ms: 5_000,
      });
    expect(configured.status).toBe(200);
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
    await Promise.all([registry.stop(), smtp.stop()]);
  });

  /**
   * What a live BV is refused for: no authorization of its prescriber, or, once that passes, the live
   * eligibility connector this account has not set (this suite is about the authorization only).
   */
  const verificationRefusal = async () =>
    (
      await testApp
        .http()
        .post('/benefit-verification')
        .set(bearer(live.provider))
        .send(benefitVerificationRequest())
    ).body.error?.code;

  it('refuses a live BV’s prescriber until they, checked in NPPES and mailed over SMTP, sign', async () => {
    expect(await verificationRefusal()).toBe('provider_not_authorized');

    const created = await testApp
      .http()
      .post('/provider-authorizations')
      .set(bearer(live.provider))
      .send({ ...AMADOU, email: 'amadou@practice.example' });
    expect(created.status).toBe(201);
    expect(registry.requests.some((request) => request.includes('number=1234567893'))).toBe(true);

    const mail = await eventually(async () =>
      smtp.received.find((message) => message.to.includes('amadou@practice.example')),
    );
    expect(mail.secure).toBe(true);
    expect(mail.user).toBe(CREDENTIALS.username);
    const link = /https:\/\/\S+\/console\/provider-authorization\/sign\/[A-Za-z0-9_-]{43}/.exec(
      mail.text,
    )![0];
    const path = link.slice(PUBLIC_API_URL.length);
    const page = await testApp.http().get(path);
    expect(page.text).toContain('Riverside Clinic');
    const signed = await testApp
      .http()
      .post(path)
      .set('Cookie', cookiesFrom(page.headers['set-cookie']))
      .type('form')
      .send({ ...hiddenFieldsOf(page.text), typed_name: 'Amadou Reviewsworth', attest: 'yes' });
    expect(signed.status).toBe(200);
    const shown = await testApp
      .http()
      .get(`/provider-authorizations/${created.body.data.id}`)
      .set(bearer(live.provider));
    expect((shown.body.data as JsonObject).status).toBe('signed');

    expect(await verificationRefusal()).toBe('invalid_state');
    const testMode = await testApp
      .http()
      .get(`/provider-authorizations/${created.body.data.id}`)
      .set(bearer(account.keys.provider));
    expect(testMode.status).toBe(404);
  });

  it('answers 503 registry_unavailable with Retry-After while NPPES is down, and creates nothing', async () => {
    registry.down = 'status';
    try {
      const refused = await testApp.http().post('/provider-authorizations').set(bearer(live.provider)).send({
        npi: '1000000012',
        first_name: 'Elodie',
        last_name: "D'Arcy-Nguyen",
        email: 'e@practice.example',
      });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('registry_unavailable');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      registry.recover();
    }
    const listed = await testApp
      .http()
      .get('/provider-authorizations')
      .query({ npi: '1000000012' })
      .set(bearer(live.provider));
    expect(listed.body.data.data).toEqual([]);
  });
  it('lapses an authorization at once when the SMTP server refuses its signing link for good, freeing the NPI', async () => {
    smtp.behaviour = 'reject';
    let id: string;
    try {
      const created = await testApp.http().post('/provider-authorizations').set(bearer(live.provider)).send({
        npi: '1000000012',
        first_name: 'Elodie',
        last_name: "D'Arcy-Nguyen",
        email: 'nobody@practice.example',
      });
      expect(created.status).toBe(201);
      id = created.body.data.id as string;
      await waitForStatus(testApp, live.provider, '/provider-authorizations', id, 'expired', 15_000);
    } finally {
      smtp.behaviour = 'accept';
    }
    const again = await testApp.http().post('/provider-authorizations').set(bearer(live.provider)).send({
      npi: '1000000012',
      first_name: 'Elodie',
      last_name: "D'Arcy-Nguyen",
      email: 'elodie@practice.example',
    });
    expect(again.status).toBe(201);
  });

  it('refuses a live authorization with 409 naming the mail connector when the account has none', async () => {
    const other = await testApp.createAccount();
    const keys = await testApp.createLiveKeys(other.accountId, { authorizeTestPrescriber: false });
    const refused = await testApp
      .http()
      .post('/provider-authorizations')
      .set(bearer(keys.provider))
      .send({ ...AMADOU, email: 'amadou@practice.example' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('PUT /connectors/mail');
    const listed = await testApp.http().get('/provider-authorizations').set(bearer(keys.provider));
    expect(listed.body.data.data).toEqual([]);
  });
});
