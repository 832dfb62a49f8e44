import { isNotFoundByTemporal } from '../../infrastructure/temporal/workflow-deletion';
import {
  erasePatient,
  eventsFor,
  JsonObject,
  subscribeReceiver,
  waitForStatus,
} from '../support/case-journeys';
import {
  authorizationFor,
  incomeVerification,
  OZEMPIC_SAVINGS_CARD,
  patientEnrollmentRequest,
  uninsuredAttestation,
} from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/patient-enrollment';
const MYABBVIE_ASSIST = 'prog_01jnnmj58jf1nen1dn9mmkb0r6';
const HUMIRA_BRIDGE = 'prog_01jn5ha1kpgw52efsb187k1h04';
const DUPIXENT_QUICK_START = 'prog_01jn72pftbdm2d8qm1bq40y8sh';
const ELIQUIS_360_SUPPORT = 'prog_01jnnz68b3ypn0e5xvzyzs5hv9';
const WEGOTOGETHER = 'prog_01jnb0cf6z6yh818sg768d8m6z';
const NO_CARD_IDENTIFIERS = { member_id: null, bin: null, pcn: null, group: null };

/** An enrollment carrying the authorization its program requires, unless `overrides` replace it. */
function enrollment(overrides: Record<string, unknown> = {}, patient: Record<string, unknown> = {}) {
  const body = {
    ...patientEnrollmentRequest({ metadata: { patient_id: 'mrn-enroll-1' }, ...patient }),
    metadata: { enrollment_id: 'clinic-enrollment-7' },
    ...overrides,
  };
  return { ...authorizationFor(body.programId), ...body };
}

const uninsuredPatient = { insurance_details: undefined };
const attestation = uninsuredAttestation;
const income = incomeVerification;

/**
 * The programs, the enrollments the simulated hub decides, and the growing ones share an app and a
 * worker, each with an account of its own: the hub is asked every 300 ms.
 */
let sharedApp: TestApp;
let sharedWorker: TestWorker;
beforeAll(async () => {
  sharedApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300', WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
  sharedWorker = await sharedApp.startWorker();
});
afterAll(async () => {
  await sharedWorker.stop();
  await sharedApp.close();
});

describe('support programs', () => {
  let testApp: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    testApp = sharedApp;
    account = await testApp.createAccount();
  });

  const get = (route: string) => testApp.http().get(route).set(bearer(account.keys.provider));

  it('finds programs by drug, manufacturer and type', async () => {
    const byDrug = (await get('/support-programs?drug_name=Ozempic%201%20mg')).body.data.data as JsonObject[];
    expect(byDrug.map((program) => program.name)).toEqual(expect.arrayContaining(['Ozempic Savings Card']));
    expect(byDrug.every((program) => program.drugs.includes('Ozempic'))).toBe(true);
    const copayCards = (await get('/support-programs?manufacturer=AbbVie&type=copay_card')).body.data
      .data as JsonObject[];
    expect(copayCards.length).toBeGreaterThan(0);
    expect(
      copayCards.every((program) => program.type === 'copay_card' && program.manufacturer.includes('AbbVie')),
    ).toBe(true);
  });

  it('shows one program with its eligibility rules, and 404 for an unknown id', async () => {
    const program = (await get(`/support-programs/${OZEMPIC_SAVINGS_CARD}`)).body.data;
    expect(program).toMatchObject({
      id: OZEMPIC_SAVINGS_CARD,
      object: 'support_program',
      eligibility: { min_age: 18 },
    });
    expect((await get('/support-programs/prog_00000000000000000000000000')).status).toBe(404);
  });

  it('refuses an unknown program type with 400', async () => {
    expect((await get('/support-programs?type=lottery')).status).toBe(400);
  });
});

describe('patient enrollment', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = sharedApp;
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
    await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'enrollments',
        url: receiver.url,
        secret: 'whsec_case_events_00000001',
        events: ['patient_enrollment.updated'],
      })
      .then(async ({ body }) => {
        receiver.endpointIds.add(body.data.id);
        await testApp
          .http()
          .patch(`/webhooks/${body.data.id}`)
          .set(bearer(account.keys.provider))
          .send({ active: true });
        await waitForStatus(testApp, account.keys.provider, '/webhooks', body.data.id, 'active');
      });
  });
  afterAll(() => receiver.stop());

  const submit = (body: Record<string, unknown>) =>
    testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);

  it('answers with the submission confirmed once the rules pass, then completes with the copay card numbers', async () => {
    const response = await submit(enrollment());
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      id: expect.stringMatching(/^pe_/),
      object: 'patient_enrollment',
      status: 'awaiting_outcome',
      program_id: OZEMPIC_SAVINGS_CARD,
      screening: { decision: 'eligible', insurance_type: 'commercial' },
      metadata: { enrollment_id: 'clinic-enrollment-7' },
    });
    const completed = await waitForStatus(
      testApp,
      account.keys.provider,
      PATH,
      response.body.data.id,
      'completed',
    );
    expect(completed.outcome).toMatchObject({
      result: 'enrolled',
      program_id: OZEMPIC_SAVINGS_CARD,
      member_id: expect.any(String),
      bin: expect.stringMatching(/^\d{6}$/),
      pcn: expect.any(String),
      group: expect.any(String),
      valid_until: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      confirmation: {
        kind: 'copay_card',
        bin: completed.outcome.bin,
        member_id: completed.outcome.member_id,
      },
    });
    const events = await eventually(async () => {
      const received = eventsFor(receiver, response.body.data.id);
      return new Set(received.map((event) => event.data.sequence)).size === 3 ? received : undefined;
    });
    expect([...new Set(events.map((event) => event.data.status))]).toEqual([
      'processing',
      'awaiting_outcome',
      'completed',
    ]);
  });

  const uninsuredLowIncome = { evidence: [attestation, income(3_000_000)] };
  it.each([
    ['patient assistance', MYABBVIE_ASSIST, 'Humira', 'free_drug_fulfillment', uninsuredLowIncome],
    ['bridge supply', HUMIRA_BRIDGE, 'Humira', 'bridge_supply_fulfillment', {}],
    ['quick start', DUPIXENT_QUICK_START, 'Dupixent 300 mg/2 mL', 'quick_start_fulfillment', {}],
    ['education', ELIQUIS_360_SUPPORT, 'Eliquis 5 mg', 'education_enrollment', {}],
    ['adherence', WEGOTOGETHER, 'Wegovy 2.4 mg', 'adherence_enrollment', {}],
  ])(
    'completes a %s enrollment with its own confirmation and no card identifiers',
    async (_type, programId, drugName, kind, extra) => {
      const { body } = await submit(
        enrollment(
          { programId, prescription: { drug_name: drugName }, ...extra },
          'evidence' in extra ? uninsuredPatient : {},
        ),
      );
      expect(body.data.status).toBe('awaiting_outcome');
      const completed = await waitForStatus(testApp, account.keys.provider, PATH, body.data.id, 'completed');
      expect(completed.outcome).toMatchObject({
        result: 'enrolled',
        program_id: programId,
        ...NO_CARD_IDENTIFIERS,
        valid_until: completed.outcome.confirmation.valid_until,
        confirmation: { kind },
      });
      expect(completed.outcome.confirmation).not.toHaveProperty('bin');
    },
  );

  it('confirms a patient assistance enrollment with the pharmacy, the first shipment and the re-verification date', async () => {
    const { body } = await submit(
      enrollment(
        { programId: MYABBVIE_ASSIST, prescription: { drug_name: 'Humira' }, ...uninsuredLowIncome },
        uninsuredPatient,
      ),
    );
    const completed = await waitForStatus(testApp, account.keys.provider, PATH, body.data.id, 'completed');
    const { confirmation } = completed.outcome;
    expect(confirmation).toEqual({
      kind: 'free_drug_fulfillment',
      pharmacy_name: 'AbbVie program pharmacy',
      ship_to: 'patient_home',
      first_shipment_expected_by: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      days_supply_per_shipment: 28,
      reverification_due_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      valid_until: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(confirmation.reverification_due_on < confirmation.valid_until).toBe(true);
    expect(completed.outcome.detail).toContain('AbbVie program pharmacy');
  });

  it('answers with the error details when the rules find the patient ineligible', async () => {
    const response = await submit(
      enrollment(
        {},
        {
          insurance_details: { data: { payer: 'Evergreen Senior Rx', membership_number: 'ZZEVG100200300' } },
        },
      ),
    );
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      status: 'failed',
      failure: { code: 'ineligible' },
      outcome: { result: 'denied' },
      screening: { decision: 'ineligible', insurance_type: 'medicare' },
    });
    expect(response.body.data.screening.reasons.map((reason: JsonObject) => reason.rule)).toContain(
      'insurance_type_excluded',
    );
  });

  it('asks for more information, then continues once it is sent', async () => {
    const response = await submit(
      enrollment(
        { programId: MYABBVIE_ASSIST, prescription: { drug_name: 'Humira' }, evidence: [attestation] },
        uninsuredPatient,
      ),
    );
    expect(response.body.data).toMatchObject({
      status: 'awaiting_review',
      missing_information: [{ field: 'evidence[type=income_verification]', reason: expect.any(String) }],
    });
    const id = response.body.data.id as string;

    const sent = await testApp
      .http()
      .post(`${PATH}/${id}/information`)
      .set(bearer(account.keys.provider))
      .send({ evidence: [income(3_000_000)] });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'awaiting_outcome', missing_information: [] });
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'completed');
  });

  it('shows the information sent later in the request that GET and lists return', async () => {
    const { body } = await submit(
      enrollment(
        { programId: MYABBVIE_ASSIST, prescription: { drug_name: 'Humira' }, evidence: [attestation] },
        uninsuredPatient,
      ),
    );
    const id = body.data.id as string;
    await testApp
      .http()
      .post(`${PATH}/${id}/information`)
      .set(bearer(account.keys.provider))
      .send({ evidence: [income(3_000_000)] });

    const evidenceTypes = (enrollmentCase: JsonObject) =>
      enrollmentCase.request.evidence.map((item: JsonObject) => item.type);
    const read = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
    expect(evidenceTypes(read.body.data)).toEqual(['uninsured_attestation', 'income_verification']);
    const list = await testApp.http().get(PATH).set(bearer(account.keys.provider));
    const listed = list.body.data.data.find((item: JsonObject) => item.id === id);
    expect(evidenceTypes(listed)).toEqual(['uninsured_attestation', 'income_verification']);
  });

  it('fails the enrollment when the information sent shows the patient is ineligible', async () => {
    const { body } = await submit(
      enrollment(
        { programId: MYABBVIE_ASSIST, prescription: { drug_name: 'Humira' }, evidence: [attestation] },
        uninsuredPatient,
      ),
    );
    const sent = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/information`)
      .set(bearer(account.keys.provider))
      .send({ evidence: [income(50_000_000)] });
    expect(sent.body.data).toMatchObject({ status: 'failed', failure: { code: 'ineligible' } });
    expect(sent.body.data.screening.reasons.map((reason: JsonObject) => reason.rule)).toEqual([
      'income_above_limit',
    ]);
  });

  it('refuses an enrollment for a program that does not exist with 400 on programId', async () => {
    const response = await submit(enrollment({ programId: 'prog_00000000000000000000000000' }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      { field: 'programId', issue: expect.stringContaining('support program') },
    ]);
  });

  it('refuses information for an enrollment that is not waiting for it', async () => {
    const { body } = await submit(enrollment());
    const response = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/information`)
      .set(bearer(account.keys.provider))
      .send({ evidence: [income(1_000_000)] });
    expect(response.status).toBe(409);
  });

  it('cancels an enrollment waiting for information', async () => {
    const { body } = await submit(
      enrollment(
        { programId: MYABBVIE_ASSIST, prescription: { drug_name: 'Humira' }, evidence: [attestation] },
        uninsuredPatient,
      ),
    );
    const cancelled = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Patient declined' });
    expect(cancelled.body.data.status).toBe('cancelled');
  });
});

/** Notes that make each information round add this many bytes to the enrollment. */
const bulkyNotes = (bytes: number) => ({
  type: 'clinical_notes',
  date_created: '2026-11-01T10:00:00Z',
  content: { notes: 'n'.repeat(bytes) },
});

describe('patient enrollment that grows', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = sharedApp;
    account = await testApp.createAccount();
  });

  const submit = (body: Record<string, unknown>) =>
    testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
  const sendInformation = (id: string, body: Record<string, unknown>) =>
    testApp.http().post(`${PATH}/${id}/information`).set(bearer(account.keys.provider)).send(body);
  const read = async (id: string) =>
    (await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))).body.data as JsonObject;
  const awaitingIncome = async (firstNotesBytes: number, patient: Record<string, unknown> = {}) => {
    const { body } = await submit(
      enrollment(
        {
          programId: MYABBVIE_ASSIST,
          prescription: { drug_name: 'Humira' },
          evidence: [attestation, bulkyNotes(firstNotesBytes)],
        },
        { ...uninsuredPatient, ...patient },
      ),
    );
    expect(body.data.status).toBe('awaiting_review');
    return body.data.id as string;
  };

  it('refuses information that would take the enrollment past its size limit with 413, and stores none of it', async () => {
    const id = await awaitingIncome(400_000);
    let refused: Awaited<ReturnType<typeof sendInformation>> | undefined;
    for (let round = 0; round < 5 && !refused; round += 1) {
      const response = await sendInformation(id, { evidence: [bulkyNotes(400_000)] });
      if (response.status === 413) refused = response;
      else expect(response.body.data.status).toBe('awaiting_review');
    }
    expect(refused?.body.error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringContaining('1.5 MiB'),
    });
    const stored = await read(id);
    expect(stored.request.evidence).toHaveLength(4);
    expect(stored.status).toBe('awaiting_review');

    const answered = await sendInformation(id, { evidence: [income(3_000_000)] });
    expect(answered.status).toBe(200);
    expect(answered.body.data.status).toBe('awaiting_outcome');
  });

  it('refuses information that would take the evidence past its cap with 413 naming the cap', async () => {
    const id = await awaitingIncome(10);
    const notes = (count: number) => Array.from({ length: count }, () => bulkyNotes(10));
    expect((await sendInformation(id, { evidence: notes(50) })).status).toBe(200);
    const refused = await sendInformation(id, { evidence: notes(50) });
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toContain('at most 100 evidence items');
    expect((await read(id)).request.evidence).toHaveLength(52);
  });

  /** A completed enrollment that continued as new once, and the ids of its two runs, newest first. */
  const continuedAsNew = async (patient: Record<string, unknown> = {}) => {
    // Over 4 MB of history (the server's default) makes the workflow continue as new at its first
    // check with the program: the start, two bulky information rounds and their memo updates.
    const id = await awaitingIncome(600_000, patient);
    for (let round = 0; round < 2; round += 1) {
      expect((await sendInformation(id, { evidence: [bulkyNotes(400_000)] })).status).toBe(200);
    }
    expect((await sendInformation(id, { evidence: [income(3_000_000)] })).status).toBe(200);
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'completed');
    const runIds = await eventually(async () => {
      const runs = [];
      for await (const run of testApp.temporalClient.workflow.list({ query: `WorkflowId = '${id}'` })) {
        runs.push(run);
      }
      const statuses = runs.map((run) => run.status.name);
      return statuses.includes('CONTINUED_AS_NEW') && statuses.includes('COMPLETED')
        ? runs.map((run) => run.runId)
        : undefined;
    });
    return { id, runIds };
  };

  it('lists an enrollment that continued as new once, with its current status', async () => {
    const { id } = await continuedAsNew();

    const list = async (query = '') =>
      (
        (await testApp.http().get(`${PATH}${query}`).set(bearer(account.keys.provider))).body.data
          .data as JsonObject[]
      ).filter((item) => item.id === id);
    const listed = await list();
    expect(listed.map((item) => item.status)).toEqual(['completed']);
    expect(await list('?status=awaiting_outcome')).toEqual([]);
    expect((await list('?status=completed')).map((item) => item.status)).toEqual(['completed']);
  });

  it('erases both runs of an enrollment that continued as new', async () => {
    const internalId = 'mrn-grown-erased-5120';
    const { id, runIds } = await continuedAsNew({ metadata: { patient_id: internalId } });
    expect(runIds).toHaveLength(2);

    const finished = await erasePatient(testApp, account.keys.admin, internalId);

    expect(finished).toMatchObject({ cases_erased: 1 });
    const runKept = (runId: string) =>
      testApp.temporalClient.workflowService
        .describeWorkflowExecution({
          namespace: testApp.config.temporal.namespace,
          execution: { workflowId: id, runId },
        })
        .then(
          () => true,
          (error: unknown) => {
            if (isNotFoundByTemporal(error)) return false;
            throw error;
          },
        );
    expect(await Promise.all(runIds.map(runKept))).toEqual([false, false]);
  });
});

describe('patient enrollment decided by a reviewer', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;

  beforeAll(async () => {
    // The simulated hub is asked only once a minute, so the reviewer's decision comes first.
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '60000' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  it("fails the enrollment with the program's denial recorded by a reviewer", async () => {
    const { body } = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(enrollment());
    expect(body.data.status).toBe('awaiting_outcome');
    const decided = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ result: 'denied', detail: 'Duplicate enrollment at the program.' });
    expect(decided.status).toBe(200);
    expect(decided.body.data).toMatchObject({
      status: 'failed',
      failure: { code: 'program_denied', message: 'Duplicate enrollment at the program.' },
      outcome: { result: 'denied', detail: 'Duplicate enrollment at the program.' },
    });
  });

  it('completes the enrollment with the card numbers a reviewer records', async () => {
    const { body } = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(enrollment());
    const decided = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({
        result: 'enrolled',
        member_id: 'ZZM123456789',
        bin: '999911',
        pcn: 'SBXCPN1',
        group: 'SBXOZM24',
        valid_until: '2027-12-31',
      });
    expect(decided.body.data).toMatchObject({
      status: 'completed',
      outcome: { result: 'enrolled', member_id: 'ZZM123456789' },
    });
  });

  it('refuses a copay enrollment a reviewer records without the member id, with 400 on member_id', async () => {
    const { body } = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(enrollment());
    const decided = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ result: 'enrolled' });
    expect(decided.status).toBe(400);
    expect(decided.body.error.details).toEqual([
      { field: 'member_id', issue: expect.stringContaining('copay') },
    ]);
  });

  it('refuses card identifiers a reviewer records for a program that is not a copay program', async () => {
    const { body } = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(enrollment({ programId: WEGOTOGETHER, prescription: { drug_name: 'Wegovy' } }));
    const decided = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ result: 'enrolled', member_id: 'ZZM123456789', bin: '999911' });
    expect(decided.status).toBe(400);
    expect(decided.body.error.details.map((detail: JsonObject) => detail.field)).toEqual([
      'member_id',
      'bin',
    ]);
    const read = await testApp.http().get(`${PATH}/${body.data.id}`).set(bearer(account.keys.provider));
    expect(read.body.data.status).toBe('awaiting_outcome');
  });

  it('completes an enrollment in a program that is not a copay program that a reviewer records without card identifiers', async () => {
    const { body } = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(enrollment({ programId: WEGOTOGETHER, prescription: { drug_name: 'Wegovy' } }));
    const decided = await testApp
      .http()
      .post(`${PATH}/${body.data.id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ result: 'enrolled', valid_until: '2027-12-31', detail: 'Enrolled; first call within 3 days.' });
    expect(decided.body.data).toMatchObject({
      status: 'completed',
      outcome: { result: 'enrolled', ...NO_CARD_IDENTIFIERS, valid_until: '2027-12-31' },
    });
  });
});
