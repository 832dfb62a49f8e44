import { newId } from '../../domain/ids';
import { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import { UnstartedDocumentsSweeper } from '../../src/worker/sweepers/unstarted-documents';
import { benefitVerificationRequest, insuranceCard, syntheticPatient } from '../support/case-requests';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const withInsuranceCard = () =>
  benefitVerificationRequest({ patient: syntheticPatient({ insurance: [insuranceCard()] }) });

const documentCount = async (testApp: TestApp, column: 'account_id' | 'case_id', value: string) =>
  (
    await testApp.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM case_documents WHERE ${column} = $1`,
      [value],
    )
  )[0]!.count;

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

  it('leaves none of its documents stored when the request had no Idempotency-Key', async () => {
    const response = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(withInsuranceCard());
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(await documentCount(testApp, 'account_id', account.accountId)).toBe(0);
  });
});

describe('documents stored by a create whose process died before or after the start', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let documents: CaseDocumentsRepository;
  // The grace period as passed: every document awaiting a start is old enough to be swept.
  let sweeper: UnstartedDocumentsSweeper;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
    documents = testApp.app.get(CaseDocumentsRepository);
    sweeper = new UnstartedDocumentsSweeper(documents, testApp.temporalClient, 0);
  });
  afterAll(() => testApp.close());

  it('are removed by the sweep when Temporal has no such case', async () => {
    const caseId = newId('benefitVerification');
    await documents.store(account.accountId, caseId, [
      { name: 'card', base64: insuranceCard().file_content },
    ]);

    expect(await sweeper.sweep()).toBe(1);
    expect(await documentCount(testApp, 'case_id', caseId)).toBe(0);
  });

  it('are kept by the sweep when the case was started', async () => {
    const created = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(withInsuranceCard());
    expect(created.status).toBe(201);
    const caseId = created.body.data.id as string;
    // As a process that died between the start and confirming it leaves them.
    await testApp.db.query('UPDATE case_documents SET awaiting_start_since = now() WHERE case_id = $1', [
      caseId,
    ]);

    await sweeper.sweep();
    expect(await documentCount(testApp, 'case_id', caseId)).toBe(1);
  });
});
