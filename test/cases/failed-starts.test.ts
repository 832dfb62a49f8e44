import { benefitVerificationRequest, insuranceCard, syntheticPatient } from '../support/case-requests';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('a case whose workflow cannot be started', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
    // Temporal is out of reach for this app from here on: every workflow start fails.
    await testApp.temporalClient.connection.close();
  });
  afterAll(() => testApp.close());

  const storedDocuments = async () =>
    (
      await testApp.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM case_documents WHERE account_id = $1',
        [account.accountId],
      )
    )[0]!.count;

  it('leaves none of its documents stored when the request had no Idempotency-Key', async () => {
    const response = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest({ patient: syntheticPatient({ insurance: [insuranceCard()] }) }));
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(await storedDocuments()).toBe(0);
  });
});
