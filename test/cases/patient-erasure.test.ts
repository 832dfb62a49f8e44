import { randomUUID } from 'node:crypto';

import { workflowExists } from '../../infrastructure/temporal/workflow-deletion';

import { PATIENT_REF } from '../../domain/temporal/search-attributes';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { patientRefOf } from '../../src/cases/cases.service';
import { JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  insuranceCard,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
  syntheticPatient,
} from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp, TEST_DATABASE } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

/**
 * `POST /patients/erasure` on the real worker, database and dev server: one patient's open and
 * closed cases of several types go, and nothing the service keeps names the patient any more.
 */
describe('patient erasure', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;
  let secrets: SecretBox;

  beforeAll(async () => {
    testApp = await startTestApp(TEST_DATABASE);
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
    secrets = new SecretBox(testApp.config.encryption!);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const submit = async (path: string, body: object): Promise<string> => {
    const response = await testApp.http().post(path).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data.id;
  };

  /** Every sealed webhook body and document the database still holds, opened. */
  const everythingStored = async (): Promise<string> => {
    const events = await testApp.db.query<{ body_sealed: string }>(
      'SELECT body_sealed FROM webhook_events WHERE account_id = $1',
      [account.accountId],
    );
    const documents = await testApp.db.query<{ content_sealed: string }>(
      'SELECT content_sealed FROM case_documents WHERE account_id = $1',
      [account.accountId],
    );
    return [
      ...events.map((row) => secrets.openText(row.body_sealed)),
      ...documents.map((row) => Buffer.from(secrets.openText(row.content_sealed), 'base64').toString('utf8')),
    ].join('\n');
  };

  const temporalHas = (caseId: string) => workflowExists(testApp.temporalClient, caseId);

  it("erases a patient's open and closed cases of every type and leaves another patient's case alone", async () => {
    const lastName = `Erasable${randomUUID().slice(0, 8)}`;
    const internalId = `mrn-erase-${randomUUID().slice(0, 8)}`;
    const patient = syntheticPatient({
      internal_id: internalId,
      last_name: lastName,
      insurance: [insuranceCard()],
    });
    const closed = await submit('/benefit-verification', benefitVerificationRequest({ patient }));
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', closed, 'completed');
    const open = await submit(
      '/prior-authorization',
      priorAuthorizationRequest({
        patient: syntheticPatient({ internal_id: internalId, last_name: lastName }),
      }),
    );
    await waitForStatus(testApp, account.keys.provider, '/prior-authorization', open, 'awaiting_review');
    const enrollment = await submit(
      '/patient-enrollment',
      patientEnrollmentRequest({ last_name: lastName, metadata: { patient_id: internalId } }),
    );
    const otherLastName = `Keepable${randomUUID().slice(0, 8)}`;
    const other = await submit(
      '/benefit-verification',
      benefitVerificationRequest({ patient: syntheticPatient({ last_name: otherLastName }) }),
    );
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', other, 'completed');
    const erasedCases = [closed, open, enrollment];
    await eventually(async () => (await everythingStored()).includes(lastName) || undefined);
    const patientRef = patientRefOf(testApp.config.cases.patientRefKey!, account.accountId, internalId);
    const runsListedUnderPatient = async () =>
      (
        await testApp.temporalClient.workflowService.listWorkflowExecutions({
          namespace: testApp.config.temporal.namespace,
          query: `${PATIENT_REF.name} = '${patientRef}'`,
        })
      ).executions.length;
    await eventually(async () => (await runsListedUnderPatient()) === erasedCases.length);

    const requested = await testApp
      .http()
      .post('/patients/erasure')
      .set(bearer(account.keys.admin))
      .send({ patient_internal_id: internalId });
    expect(requested.status).toBe(202);
    expect(requested.body.data).toMatchObject({ object: 'patient_erasure', status: 'in_progress' });
    expect(requested.body.data.id).toMatch(/^erase_[0-9a-z]{26}$/);
    const finished = await eventually(async () => {
      const read = await testApp
        .http()
        .get(`/patients/erasures/${requested.body.data.id}`)
        .set(bearer(account.keys.admin));
      return read.body.data?.status === 'completed' ? (read.body.data as JsonObject) : undefined;
    }, 60_000);
    expect(finished).toMatchObject({ cases_erased: 3, created_at: requested.body.data.created_at });

    const stored = await everythingStored();
    expect(stored).not.toContain(lastName);
    expect(stored).not.toContain(internalId);
    expect(stored).toContain(otherLastName);
    const rows = await testApp.db.query(
      `SELECT case_id FROM case_summaries WHERE case_id = ANY($1::text[])
       UNION ALL SELECT case_id FROM case_documents WHERE case_id = ANY($1::text[])
       UNION ALL SELECT case_id FROM webhook_events WHERE case_id = ANY($1::text[])`,
      [erasedCases],
    );
    expect(rows).toEqual([]);
    for (const caseId of erasedCases) expect(await temporalHas(caseId)).toBe(false);
    await eventually(async () => (await runsListedUnderPatient()) === 0);
    const kept = await testApp
      .http()
      .get(`/benefit-verification/${other}`)
      .set(bearer(account.keys.provider));
    expect(kept.status).toBe(200);
    expect(kept.body.data.request.patient.last_name).toBe(otherLastName);
  });

  it('audits the request and each erased case without naming the patient', async () => {
    const internalId = `mrn-audit-${randomUUID().slice(0, 8)}`;
    const caseId = await submit(
      '/benefit-verification',
      benefitVerificationRequest({ patient: syntheticPatient({ internal_id: internalId }) }),
    );
    await waitForStatus(testApp, account.keys.provider, '/benefit-verification', caseId, 'completed');

    const requested = await testApp
      .http()
      .post('/patients/erasure')
      .set(bearer(account.keys.admin))
      .send({ patient_internal_id: internalId });
    const erasureId = requested.body.data.id;
    await eventually(async () => {
      const read = await testApp
        .http()
        .get(`/patients/erasures/${erasureId}`)
        .set(bearer(account.keys.admin));
      return read.body.data?.status === 'completed' || undefined;
    }, 60_000);

    const audit = await testApp.db.query<JsonObject>(
      `SELECT action, actor_type, target_object, target_id, request_id, details::text AS details FROM audit_events
       WHERE target_id = ANY($1::text[]) ORDER BY occurred_at`,
      [[erasureId, caseId]],
    );
    expect(
      audit.map(({ action, target_object, target_id }) => ({ action, target_object, target_id })),
    ).toEqual(
      expect.arrayContaining([
        { action: 'patient.erasure_requested', target_object: 'patient_erasure', target_id: erasureId },
        { action: 'case.erased', target_object: 'benefit_verification', target_id: caseId },
      ]),
    );
    expect(audit.find((row) => row.action === 'case.erased')).toMatchObject({
      actor_type: 'api_key',
      request_id: erasureId,
    });
    expect(JSON.stringify(audit)).not.toContain(internalId);
  });

  it("answers 404 for another account's erasure, and 400 naming the field without a patient reference", async () => {
    const requested = await testApp
      .http()
      .post('/patients/erasure')
      .set(bearer(account.keys.admin))
      .send({ patient_internal_id: `mrn-nobody-${randomUUID().slice(0, 8)}` });
    const stranger = await testApp.createAccount('Another clinic');

    const read = await testApp
      .http()
      .get(`/patients/erasures/${requested.body.data.id}`)
      .set(bearer(stranger.keys.admin));
    expect(read.status).toBe(404);
    const invalid = await testApp.http().post('/patients/erasure').set(bearer(account.keys.admin)).send({});
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body)).toContain('patient_internal_id');
  });

  it('starts one erasure for a request retried with the same Idempotency-Key, and replays its answer', async () => {
    const key = `erasure-${randomUUID()}`;
    const send = () =>
      testApp
        .http()
        .post('/patients/erasure')
        .set(bearer(account.keys.admin))
        .set('Idempotency-Key', key)
        .send({ patient_internal_id: 'mrn-retried-erasure' });
    const first = await send();
    const retried = await send();

    expect(first.status).toBe(202);
    expect(retried.status).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body.data.id).toBe(first.body.data.id);
  });

  it('refuses a provider key', async () => {
    const response = await testApp
      .http()
      .post('/patients/erasure')
      .set(bearer(account.keys.provider))
      .send({ patient_internal_id: 'patient-0001' });
    expect(response.status).toBe(403);
  });
});
