import { SANDBOX_NPIS } from '../../infrastructure/providers/sandbox-registry';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest, priorAuthorizationRequest, provider } from '../support/case-requests';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

/**
 * Issue 46: a benefit verification or prior authorization asks the NPI registry of its mode about
 * its prescriber (the sandbox registry for a test key) and goes on whatever it answers, with the
 * reason on the case when the registry lends nothing.
 */
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

async function settledCase(path: string, body: object, status: string): Promise<JsonObject> {
  const created = await testApp.http().post(path).set(bearer(account.keys.provider)).send(body);
  expect(created.status).toBe(201);
  return waitForStatus(testApp, account.keys.provider, path, created.body.data.id as string, status);
}

describe('a case keeps what the NPI registry says of its prescriber', () => {
  it("lends a benefit verification the registry's practice address and taxonomy when the prescriber matches", async () => {
    const done = await settledCase('/benefit-verification', benefitVerificationRequest(), 'completed');
    expect(done.prescriber_registry).toEqual({
      outcome: 'matched',
      checked_at: expect.any(String),
      practice_address: expect.objectContaining({
        city: expect.any(String),
        state_province: expect.any(String),
      }),
      taxonomy: { code: '207Q00000X', description: expect.any(String) },
    });
  });

  it('goes on without the extras, saying so, when the registry names someone else', async () => {
    const request = priorAuthorizationRequest({ provider: { ...provider, npi: SANDBOX_NPIS.nameMismatch } });
    const review = await settledCase('/prior-authorization', request, 'awaiting_review');
    expect(review.prescriber_registry).toMatchObject({
      outcome: 'name_mismatch',
      practice_address: null,
      taxonomy: null,
    });
  });

  it('goes on when the registry lists the NPI as deactivated, saying so', async () => {
    const request = benefitVerificationRequest({ provider: { ...provider, npi: SANDBOX_NPIS.deactivated } });
    const done = await settledCase('/benefit-verification', request, 'completed');
    expect(done.prescriber_registry).toMatchObject({ outcome: 'inactive', taxonomy: null });
  });

  it('goes on when the registry is down, saying so', async () => {
    const request = benefitVerificationRequest({ provider: { ...provider, npi: SANDBOX_NPIS.registryDown } });
    const done = await settledCase('/benefit-verification', request, 'completed');
    expect(done.prescriber_registry).toMatchObject({
      outcome: 'registry_unavailable',
      practice_address: null,
    });
  });

  it('says the registry does not know an NPI it never returns', async () => {
    const request = priorAuthorizationRequest({ provider: { ...provider, npi: SANDBOX_NPIS.notReturned } });
    const review = await settledCase('/prior-authorization', request, 'awaiting_review');
    expect(review.prescriber_registry).toMatchObject({ outcome: 'not_found' });
  });
});
