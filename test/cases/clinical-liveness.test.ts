import { JsonObject, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  priorAuthorizationRequest,
  syntheticPatient,
} from '../support/case-requests';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

/** The note that stalled the service for minutes before extraction became linear: 40 KB of one cue and a drug. */
const ADVERSARIAL_NOTE = `no ${'metformin '.repeat(4_000)}`;
/** How long other cases may take to finish while the pathological one is evaluated: generous, not a speed bound. */
const LIVENESS_BOUND_MS = 10_000;

function pathologicalCheck(): Record<string, unknown> {
  return {
    patient: syntheticPatient({ date_of_birth: '1970-05-01' }),
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    diagnoses: [{ code: 'E11.9' }],
    questionnaires: [],
    visit_notes: [{ content: ADVERSARIAL_NOTE, created_at: new Date().toISOString() }],
    evidence: [],
  };
}

async function startedApp(env: Record<string, string>) {
  const testApp = await startTestApp(env);
  const worker = await testApp.startWorker();
  const account = await testApp.createAccount();
  return { testApp, worker, account };
}

describe('a pathological clinical record', () => {
  describe('under the default time limit', () => {
    let testApp: TestApp;
    let worker: TestWorker;
    let account: TestAccount;
    beforeAll(async () => ({ testApp, worker, account } = await startedApp({})));
    afterAll(async () => {
      await worker.stop();
      await testApp.close();
    });

    it('is answered, while benefit verifications sent after it keep finishing', async () => {
      const key = account.keys.provider;
      const check = await testApp
        .http()
        .post('/clinical-eligibility')
        .set(bearer(key))
        .send(pathologicalCheck());
      expect(check.status).toBe(201);
      const verifications = await Promise.all(
        [1, 2, 3].map(() =>
          testApp.http().post('/benefit-verification').set(bearer(key)).send(benefitVerificationRequest()),
        ),
      );
      await Promise.all(
        verifications.map(({ body }) =>
          waitForStatus(testApp, key, '/benefit-verification', body.data.id, 'completed', LIVENESS_BOUND_MS),
        ),
      );
      const checked = await waitForStatus(
        testApp,
        key,
        '/clinical-eligibility',
        check.body.clinical_elgibility_id,
        'completed',
        LIVENESS_BOUND_MS,
      );
      const metformin = (checked.outcome.results[0].criteria as JsonObject[]).find(
        (criterion) => criterion.id === 'metformin_trial',
      );
      expect(metformin).toMatchObject({ status: 'not_met' });
    });
  });

  describe('with a 10 MB text asset', () => {
    let testApp: TestApp;
    let worker: TestWorker;
    let account: TestAccount;
    beforeAll(async () => ({ testApp, worker, account } = await startedApp({})));
    afterAll(async () => {
      await worker.stop();
      await testApp.close();
    });

    it('reads the first 256 KiB, evaluates what it read, and lists how many bytes it did not read', async () => {
      const head = 'A1c 8.2 %. ';
      const past = 'Metformin 1000 mg twice daily for 6 months. ';
      const filler = ' '.repeat(300 * 1024 - head.length);
      const text =
        head + filler + past.repeat(Math.floor((10_000_000 - head.length - filler.length) / past.length));
      const request = {
        ...pathologicalCheck(),
        visit_notes: [],
        evidence: [
          {
            title: 'Exported chart',
            date_created: new Date().toISOString(),
            asset: { fileType: 'text/plain', fileContent: Buffer.from(text).toString('base64') },
          },
        ],
      };
      const key = account.keys.provider;
      const { body } = await testApp.http().post('/clinical-eligibility').set(bearer(key)).send(request);
      const checked = await waitForStatus(
        testApp,
        key,
        '/clinical-eligibility',
        body.clinical_elgibility_id,
        'completed',
      );
      expect(checked.outcome.unread).toEqual([
        { title: 'Exported chart', bytes_unread: text.length - 256 * 1024 },
      ]);
      const statuses = Object.fromEntries(
        (checked.outcome.results[0].criteria as JsonObject[]).map((criterion) => [
          criterion.id,
          criterion.status,
        ]),
      );
      expect(statuses).toMatchObject({ a1c_at_least_7: 'met', metformin_trial: 'unknown' });
    });
  });

  describe('over a deliberately tiny time limit', () => {
    let testApp: TestApp;
    let worker: TestWorker;
    let account: TestAccount;
    beforeAll(
      async () => ({ testApp, worker, account } = await startedApp({ CLINICAL_EVALUATION_TIMEOUT_MS: '1' })),
    );
    afterAll(async () => {
      await worker.stop();
      await testApp.close();
    });

    it('ends the check failed with a readable reason that quotes nothing of the record, without retrying for minutes', async () => {
      const key = account.keys.provider;
      const check = await testApp
        .http()
        .post('/clinical-eligibility')
        .set(bearer(key))
        .send(pathologicalCheck());
      const failed = await waitForStatus(
        testApp,
        key,
        '/clinical-eligibility',
        check.body.clinical_elgibility_id,
        'failed',
        LIVENESS_BOUND_MS,
      );
      expect(failed.status_history.at(-1)).toMatchObject({
        status: 'failed',
        reason: 'The clinical record took too long to read.',
      });
      expect(failed.failure).toEqual({
        code: 'clinical_evaluation_timed_out',
        message: expect.stringContaining('took longer than the 1-millisecond limit'),
      });
      expect(failed.failure.message).not.toMatch(/metformin/);
    });

    it('ends a prior authorization whose prefill overruns failed with the same reason', async () => {
      const key = account.keys.provider;
      const { body } = await testApp
        .http()
        .post('/prior-authorization')
        .set(bearer(key))
        .send(priorAuthorizationRequest());
      const failed = await waitForStatus(
        testApp,
        key,
        '/prior-authorization',
        body.data.id,
        'failed',
        LIVENESS_BOUND_MS,
      );
      expect(failed.failure).toMatchObject({ code: 'clinical_evaluation_timed_out' });
    });

    it('keeps answering benefit verifications meanwhile', async () => {
      const key = account.keys.provider;
      await testApp.http().post('/clinical-eligibility').set(bearer(key)).send(pathologicalCheck());
      const { body } = await testApp
        .http()
        .post('/benefit-verification')
        .set(bearer(key))
        .send(benefitVerificationRequest());
      await waitForStatus(
        testApp,
        key,
        '/benefit-verification',
        body.data.id,
        'completed',
        LIVENESS_BOUND_MS,
      );
    });
  });
});
