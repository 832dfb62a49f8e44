import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import {
  enrollmentPatient,
  OZEMPIC_SAVINGS_CARD,
  patientEnrollmentRequest,
  signedAuthorization,
} from '../support/case-requests';
import { ProgramHubDouble } from '../support/connector-doubles';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { startTestWorker, TestWorker } from '../support/workers';
import { shippedSupportPrograms } from '../../infrastructure/catalogs/shipped-catalogs';

const PATH = '/patient-enrollment';
/** Patient assistance: the hub investigates benefits and ships drug, so it needs a HIPAA authorization. */
const MYABBVIE_ASSIST = 'prog_01jnnmj58jf1nen1dn9mmkb0r6';
/** A nurse program that calls the patient: it needs the program's consent. */
const HUMIRA_NURSE_AMBASSADOR = 'prog_01jne3zzkma7qhsyrr2pk5q31p';

/** An uninsured patient with a low income, whom patient assistance enrolls at once. */
function patientAssistanceEnrollment(overrides: Record<string, unknown> = {}) {
  return {
    programId: MYABBVIE_ASSIST,
    patient: enrollmentPatient({ metadata: { patient_id: 'mrn-consent-1' } }),
    prescription: { drug_name: 'Humira' },
    evidence: [
      { type: 'uninsured_attestation', date_created: '2026-11-01T10:00:00Z', content: { insured: false } },
      {
        type: 'income_verification',
        date_created: '2026-11-01T10:00:00Z',
        content: { household_size: 2, annual_household_income_cents: 3_000_000 },
      },
    ],
    ...overrides,
  };
}

const representativeSigned = {
  ...signedAuthorization('hipaa_authorization'),
  attested_by: { relationship: 'legal_representative', name: 'Rowan Testperson' },
  form_version: 'ABBV-MAA-2026-01',
};

describe('the patient authorization a support program requires', () => {
  let testApp: TestApp;
  let account: TestAccount;
  const get = (route: string) => testApp.http().get(route).set(bearer(account.keys.provider));

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
  });
  afterAll(() => testApp.close());

  it('is stated by every program, and required by patient assistance, access, nurse and education programs', async () => {
    const programs = (await get('/support-programs')).body.data.data as JsonObject[];
    const required = (id: string) =>
      programs.find((program) => program.id === id)?.patient_authorization_required;
    expect(programs.every((program) => 'patient_authorization_required' in program)).toBe(true);
    expect(required(MYABBVIE_ASSIST)).toBe('hipaa_authorization');
    expect(required(HUMIRA_NURSE_AMBASSADOR)).toBe('program_consent');
    expect(required(OZEMPIC_SAVINGS_CARD)).toBeNull();
  });
});

describe('an enrollment and the patient authorization its program requires', () => {
  const hub = new ProgramHubDouble();
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300', WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    const { config, db, temporalClient } = testApp;
    worker = await startTestWorker({ config, db, temporalClient, connectors: { programHub: hub } });
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider, ['patient_enrollment.updated']);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const submit = (key: string, body: object) => testApp.http().post(PATH).set(bearer(key)).send(body);
  const listed = async (key: string) =>
    (await testApp.http().get(PATH).set(bearer(key))).body.data.data as JsonObject[];

  it('is refused with 400 naming patient_authorization and what the program requires, and nothing is started', async () => {
    const clinic = await testApp.createAccount('Clinic Without Consent');

    const response = await submit(clinic.keys.provider, patientAssistanceEnrollment());

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'validation_error',
      details: [
        {
          field: 'patient_authorization',
          issue:
            "is required: this program requires the patient's HIPAA authorization (type hipaa_authorization)",
        },
      ],
    });
    expect(await listed(clinic.keys.provider)).toEqual([]);
  });

  it('is refused with 400 on its type when the authorization is of another kind than the program requires', async () => {
    const clinic = await testApp.createAccount('Clinic With The Wrong Form');

    const response = await submit(
      clinic.keys.provider,
      patientAssistanceEnrollment({ patient_authorization: signedAuthorization('program_consent') }),
    );

    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      {
        field: 'patient_authorization.type',
        issue:
          "must be hipaa_authorization: this program requires the patient's HIPAA authorization (type hipaa_authorization)",
      },
    ]);
    expect(await listed(clinic.keys.provider)).toEqual([]);
  });

  it('is recorded on the enrollment: GET shows its type, who signed, when, and the form version', async () => {
    const { body } = await submit(
      account.keys.provider,
      patientAssistanceEnrollment({ patient_authorization: representativeSigned }),
    );

    const read = await testApp.http().get(`${PATH}/${body.data.id}`).set(bearer(account.keys.provider));

    expect(read.body.data.request.patient_authorization).toEqual({
      type: 'hipaa_authorization',
      attested_by: { relationship: 'legal_representative', name: 'Rowan Testperson' },
      attested_at: '2026-11-20T14:30:00Z',
      form_version: 'ABBV-MAA-2026-01',
    });
  });

  it('is carried by every webhook of the enrollment', async () => {
    const { body } = await submit(
      account.keys.provider,
      patientAssistanceEnrollment({ patient_authorization: representativeSigned }),
    );
    await waitForStatus(testApp, account.keys.provider, PATH, body.data.id, 'completed');

    const events = await eventually(async () => {
      const received = eventsFor(receiver, body.data.id);
      return received.some((event) => event.data.status === 'completed') ? received : undefined;
    });

    expect(events.map((event) => event.data.request.patient_authorization)).toEqual(
      events.map(() => representativeSigned),
    );
  });

  it('is sent to the program hub with the enrollment, as its proof of consent', async () => {
    const { body } = await submit(
      account.keys.provider,
      patientAssistanceEnrollment({ patient_authorization: representativeSigned }),
    );
    await waitForStatus(testApp, account.keys.provider, PATH, body.data.id, 'awaiting_outcome');

    expect(hub.inputsTo('submitEnrollment')).toContainEqual({
      programId: MYABBVIE_ASSIST,
      caseId: body.data.id,
      patient_authorization: representativeSigned,
    });
  });

  it('is recorded, and sent to the hub, for a program that requires none too', async () => {
    const { body } = await submit(account.keys.provider, {
      ...patientEnrollmentRequest(),
      patient_authorization: signedAuthorization('program_consent'),
    });
    expect(shippedSupportPrograms().find(OZEMPIC_SAVINGS_CARD)?.patient_authorization_required).toBeNull();
    await waitForStatus(testApp, account.keys.provider, PATH, body.data.id, 'awaiting_outcome');

    expect(body.data.request.patient_authorization).toEqual(signedAuthorization('program_consent'));
    expect(hub.inputsTo('submitEnrollment')).toContainEqual(
      expect.objectContaining({
        caseId: body.data.id,
        patient_authorization: signedAuthorization('program_consent'),
      }),
    );
  });

  it('is null on an enrollment that gave none, and the hub is told there is none', async () => {
    const { body } = await submit(account.keys.provider, patientEnrollmentRequest());
    await waitForStatus(testApp, account.keys.provider, PATH, body.data.id, 'awaiting_outcome');

    expect(body.data.request.patient_authorization).toBeNull();
    expect(hub.inputsTo('submitEnrollment')).toContainEqual(
      expect.objectContaining({ caseId: body.data.id, patient_authorization: null }),
    );
  });
});
