import { DRUG_CASES } from '../clinical/drug-cases';
import { visitNote } from '../clinical/synthetic-records';
import { eventsFor, JsonObject, waitForStatus } from '../support/case-journeys';
import { requestFrom } from '../support/clinical-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/clinical-eligibility';

describe('clinical eligibility', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    const secret = 'whsec_clinical_events_0001';
    receiver = await new TestReceiver(secret).start();
    const { body } = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({ name: 'results', url: receiver.url, secret, events: ['Clinical Eligibility Updated'] });
    receiver.endpointIds.add(body.data.id);
    await testApp
      .http()
      .patch(`/webhooks/${body.data.id}`)
      .set(bearer(account.keys.provider))
      .send({ active: true });
    await waitForStatus(testApp, account.keys.provider, '/webhooks', body.data.id, 'active');
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const submit = (body: Record<string, unknown>) =>
    testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
  const resultOf = async (id: string) =>
    (await waitForStatus(testApp, account.keys.provider, PATH, id, 'completed')).outcome as JsonObject;

  it('answers 201 with the envelope and the top-level clinical_elgibility_id, exactly as the contract shows', async () => {
    const response = await submit(requestFrom('Ozempic', DRUG_CASES[0]!.qualifying));
    expect(response.status).toBe(201);
    const id = response.body.clinical_elgibility_id as string;
    expect(id).toMatch(/^ce_[0-9a-z]{26}$/);
    expect(response.body).toEqual({
      status: 'success',
      error: null,
      data: { id, clinical_elgibility_id: id, object: 'clinical_eligibility', status: 'processing' },
      clinical_elgibility_id: id,
    });
  });

  it('sends one Clinical Eligibility Updated event, at completion, with the GET object', async () => {
    const { body } = await submit(requestFrom('Ozempic', DRUG_CASES[0]!.qualifying));
    const id = body.clinical_elgibility_id as string;
    const completed = await waitForStatus(testApp, account.keys.provider, PATH, id, 'completed');
    const [event] = await eventually(async () =>
      eventsFor(receiver, id).length ? eventsFor(receiver, id) : undefined,
    );
    expect(event).toMatchObject({
      type: 'clinical_eligibility.updated',
      title: 'Clinical Eligibility Updated',
    });
    expect(event!.data).toMatchObject({
      id,
      clinical_elgibility_id: id,
      status: 'completed',
      outcome: completed.outcome,
    });
  });

  it('evaluates several drugs in one check, each with its own status', async () => {
    const ozempic = DRUG_CASES.find((drugCase) => drugCase.drug === 'Ozempic')!;
    const request = requestFrom('Ozempic', ozempic.qualifying);
    request.drugs = [
      { name: 'Ozempic 1 mg pen', quantity: 1 },
      { name: 'Repatha', quantity: 2 },
      { name: 'Aspirin', quantity: 30 },
    ];
    const { body } = await submit(request);
    const outcome = await resultOf(body.clinical_elgibility_id);
    expect(outcome.results.map((result: JsonObject) => [result.drug, result.status])).toEqual([
      ['Ozempic 1 mg pen', 'qualified'],
      ['Repatha', 'unqualified'],
      ['Aspirin', 'unknown'],
    ]);
  });

  it('uses the code when a diagnosis has both a code and a description, and maps a description alone', async () => {
    const request = requestFrom('Ozempic', DRUG_CASES[0]!.qualifying);
    request.diagnoses = [
      { code: 'I10', description: 'type 2 diabetes' },
      { description: 'type 2 diabetes mellitus' },
    ];
    const { body } = await submit(request);
    const outcome = await resultOf(body.clinical_elgibility_id);
    expect(outcome.diagnoses).toEqual([
      expect.objectContaining({ code: 'I10', resolved_by: 'code' }),
      expect.objectContaining({ code: expect.stringMatching(/^E11/), resolved_by: 'description' }),
    ]);
  });

  it('reads the text of a file asset as evidence', async () => {
    const wegovy = DRUG_CASES.find((drugCase) => drugCase.drug === 'Wegovy')!;
    const request = requestFrom('Wegovy', { ...wegovy.qualifying, visitNotes: [] });
    const withAsset = requestFrom('Wegovy', {
      ...wegovy.qualifying,
      visitNotes: [],
      evidence: [
        ...(wegovy.qualifying.evidence ?? []),
        ...(wegovy.qualifying.visitNotes ?? []).map((note) => ({
          title: 'Scanned note',
          date_created: note.created_at,
          text: note.content,
        })),
      ],
    });
    const [without, withText] = await Promise.all([submit(request), submit(withAsset)]);
    expect((await resultOf(withText.body.clinical_elgibility_id)).results[0].status).toBe('qualified');
    expect((await resultOf(without.body.clinical_elgibility_id)).results[0].status).not.toBe('qualified');
  });

  it('refuses evidence that has both content and an asset with 400', async () => {
    const request = requestFrom('Ozempic', {});
    request.evidence = [
      {
        title: 'Both',
        date_created: '2026-10-01T10:00:00Z',
        content: { a1c: 8 },
        asset: { fileType: 'text/plain', fileContent: Buffer.from('A1c 8').toString('base64') },
      },
    ];
    const response = await submit(request);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: JsonObject) => detail.field).join(' ')).toContain(
      'evidence[0]',
    );
  });

  it.each(DRUG_CASES.map((drugCase) => [drugCase.drug, drugCase] as const))(
    'qualifies a patient who meets the criteria of %s, and not one who does not',
    async (drug, drugCase) => {
      const [qualifying, nonQualifying] = await Promise.all([
        submit(requestFrom(drug, drugCase.qualifying)),
        submit(requestFrom(drug, drugCase.nonQualifying)),
      ]);
      const [yes] = (await resultOf(qualifying.body.clinical_elgibility_id)).results;
      const [no] = (await resultOf(nonQualifying.body.clinical_elgibility_id)).results;
      expect(yes).toMatchObject({ status: 'qualified', unqualified_reasons: [] });
      expect(no.status).toBe('unqualified');
      expect(no.unqualified_reasons.map((reason: JsonObject) => reason.description)).toContain(
        drugCase.reason,
      );
    },
  );

  describe('with the patient’s insurance_content', () => {
    const summitHmo = { payer: 'Summit Mutual Health', member_id: 'SMH4410021', plan_type: 'commercial' };
    const evergreenPartD = { payer: 'Evergreen Senior Rx', member_id: 'EVG5520013', rx_pcn: 'SBXEVGBAS' };
    const trulicity = DRUG_CASES.find((drugCase) => drugCase.drug === 'Trulicity')!;

    it('says whether prior authorization is required as the plan’s formulary does, and names the plan', async () => {
      const { body } = await submit({
        ...requestFrom('Trulicity', trulicity.qualifying),
        insurance_content: summitHmo,
      });
      const outcome = await resultOf(body.clinical_elgibility_id);
      expect(outcome.plan).toEqual({
        resolved: true,
        payer_name: 'Summit Mutual Health',
        plan_name: 'Summit Choice HMO',
        plan_type: 'commercial',
      });
      expect(outcome.results[0]).toMatchObject({
        status: 'qualified',
        prior_authorization_required: false,
        prior_authorization_requirement: 'no',
      });
    });

    it('says what most plans say about prior authorization when no insurance is given', async () => {
      const { body } = await submit(requestFrom('Trulicity', trulicity.qualifying));
      const outcome = await resultOf(body.clinical_elgibility_id);
      expect(outcome.plan).toBeUndefined();
      expect(outcome.results[0].prior_authorization_requirement).toBe('yes');
    });

    it('applies the plan’s own criteria: a Part D plan asks for no metformin trial before Ozempic', async () => {
      const withoutMetformin = requestFrom('Ozempic', {
        diagnoses: [{ code: 'E11.9' }],
        visitNotes: [visitNote('A1c 8.4 %.')],
      });
      const [partD, noPlan] = await Promise.all([
        submit({ ...withoutMetformin, insurance_content: evergreenPartD }),
        submit(withoutMetformin),
      ]);
      const [onPartD] = (await resultOf(partD.body.clinical_elgibility_id)).results;
      const [withoutPlan] = (await resultOf(noPlan.body.clinical_elgibility_id)).results;
      expect(onPartD.status).toBe('qualified');
      expect(onPartD.criteria.map((criterion: JsonObject) => criterion.id)).not.toContain('metformin_trial');
      expect(withoutPlan.status).toBe('unknown');
      expect(withoutPlan.criteria.map((criterion: JsonObject) => criterion.id)).toContain('metformin_trial');
    });

    it('says why when the insurance names no catalog plan, and applies each drug’s own criteria', async () => {
      const { body } = await submit({
        ...requestFrom('Trulicity', trulicity.qualifying),
        insurance_content: { payer: 'Nowhere Health', member_id: 'NWH0001' },
      });
      const outcome = await resultOf(body.clinical_elgibility_id);
      expect(outcome.plan).toEqual({ resolved: false, reason: expect.stringContaining('No payer') });
      expect(outcome.results[0]).toMatchObject({
        status: 'qualified',
        prior_authorization_required: true,
        prior_authorization_requirement: 'yes',
      });
    });

    it('refuses insurance_content without a member_id with 400, as prior authorization does', async () => {
      const response = await submit({
        ...requestFrom('Ozempic', DRUG_CASES[0]!.qualifying),
        insurance_content: { payer: 'Summit Mutual Health' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.map((detail: JsonObject) => detail.field)).toContain(
        'insurance_content.member_id',
      );
    });
  });

  it('lists the account’s checks', async () => {
    const { body } = await submit(requestFrom('Ozempic', DRUG_CASES[0]!.qualifying));
    const listed = await eventually(async () => {
      const response = await testApp.http().get(PATH).set(bearer(account.keys.provider));
      return response.body.data.data.some((item: JsonObject) => item.id === body.clinical_elgibility_id)
        ? response.body.data
        : undefined;
    });
    expect(listed.object).toBe('list');
  });
});
