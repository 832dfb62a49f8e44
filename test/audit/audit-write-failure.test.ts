import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('an audit event that cannot be written', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  it('fails the request instead of answering unrecorded', async () => {
    // The audit table becoming unwritable stands for any failed write: a full disk, a lost connection.
    await testApp.db.query('ALTER TABLE audit_events RENAME TO audit_events_unavailable');
    try {
      const response = await testApp
        .http()
        .post('/api-keys')
        .set(bearer(account.keys.admin))
        .send({ label: 'unrecorded', roles: ['provider'] });
      expect(response.status).toBe(500);
      expect(response.body.error.code).toBe('internal_error');
      expect(JSON.stringify(response.body)).not.toMatch(/hak_/);
    } finally {
      await testApp.db.query('ALTER TABLE audit_events_unavailable RENAME TO audit_events');
    }
  });
});
