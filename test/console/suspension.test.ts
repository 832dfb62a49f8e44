import { reviewDecisionSignal } from '../../workflows/prior-authorization.messages';
import { eventsFor, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { priorAuthorizationRequest } from '../support/case-requests';
import {
  cookiesFrom,
  createConsolePerson,
  csrfTokenOf,
  signInWithPassword,
} from '../support/console-session';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const SUSPENDED_MESSAGE = 'This account is suspended';

describe('a suspended account', () => {
  let testApp: TestApp;
  let worker: TestWorker;

  beforeAll(async () => {
    testApp = await startTestApp({
      // Every request reads the key afresh, so a suspension applies from the next request on.
      API_KEY_CACHE_TTL_MS: '0',
      PAYER_POLL_INTERVAL_MS: '300',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
    });
    worker = await testApp.startWorker();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const suspend = (account: TestAccount) => testApp.accounts.setAccountStatus(account.accountId, 'suspended');
  const reactivate = (account: TestAccount) => testApp.accounts.setAccountStatus(account.accountId, 'active');

  it('answers its keys 401 unauthorized saying the account is suspended, and reactivation restores them', async () => {
    const account = await testApp.createAccount();
    await suspend(account);

    const refused = await testApp.http().get('/status').set(bearer(account.keys.provider));
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining(SUSPENDED_MESSAGE),
    });

    await reactivate(account);
    expect((await testApp.http().get('/status').set(bearer(account.keys.provider))).status).toBe(200);
  });

  it("leaves other accounts' keys working", async () => {
    const suspended = await testApp.createAccount();
    const other = await testApp.createAccount();
    await suspend(suspended);
    expect((await testApp.http().get('/status').set(bearer(other.keys.provider))).status).toBe(200);
  });

  it('refuses the next console page of a signed-in person with a 401 page that says why', async () => {
    const account = await testApp.createAccount();
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    const browser = await signInWithPassword(testApp, person);
    expect((await testApp.http().get('/console/account').set('Cookie', browser.cookie)).status).toBe(200);

    await suspend(account);

    const refused = await testApp.http().get('/console/account').set('Cookie', browser.cookie);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain(SUSPENDED_MESSAGE);
  });

  it('refuses a sign-in with the right password, starting no session', async () => {
    const account = await testApp.createAccount();
    const person = await createConsolePerson(testApp, account.accountId, ['provider']);
    await suspend(account);

    const form = await testApp.http().get('/console/sign-in');
    const answer = await testApp
      .http()
      .post('/console/sign-in')
      .set('Cookie', cookiesFrom(form.headers['set-cookie']))
      .type('form')
      .send({ _csrf: csrfTokenOf(form.text), email: person.email, password: person.password });
    expect(answer.status).toBe(401);
    expect(answer.text).toContain(SUSPENDED_MESSAGE);
    expect(String(answer.headers['set-cookie'] ?? '')).not.toContain('haa_console_session=');
  });

  it('still finishes its running cases and delivers their webhooks', async () => {
    const account = await testApp.createAccount();
    const receiver: TestReceiver = await subscribeReceiver(testApp, account.keys.provider);
    try {
      const created = await testApp
        .http()
        .post('/prior-authorization')
        .set(bearer(account.keys.provider))
        .send(priorAuthorizationRequest());
      const { id } = created.body.data;
      await waitForStatus(testApp, account.keys.provider, '/prior-authorization', id, 'awaiting_review');

      await suspend(account);
      expect((await testApp.http().get('/status').set(bearer(account.keys.reviewer))).status).toBe(401);
      // The account's keys are refused, so the platform's own client sends the reviewer's decision.
      await testApp.temporalClient.workflow
        .getHandle(id)
        .signal(reviewDecisionSignal, { decision: 'approve', reviewer: 'Dr. Reviewer' });

      const completed = await eventually(async () =>
        eventsFor(receiver, id).find((event) => event.data.status === 'completed'),
      );
      expect(completed.data).toMatchObject({ id, status: 'completed', outcome: { result: 'approved' } });
    } finally {
      await receiver.stop();
    }
  });
});
