import { WorkflowUpdateFailedError } from '@temporalio/client';

import type { ManualVerificationInput } from '../../domain/cases/benefit-verification';
import { BV_MOCK_CASES } from '../../infrastructure/connectors/payer-simulator';
import { addressTo } from '../../domain/temporal/message-address';
import {
  benefitVerificationOutcomeSignal,
  submitBenefitVerificationOutcomeUpdate,
} from '../../workflows/benefit-verification.messages';
import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest, insuranceCard, syntheticPatient } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/benefit-verification';

describe('benefit verification', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    receiver = await subscribeReceiver(testApp, account.keys.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const submit = async (body: Record<string, unknown> = benefitVerificationRequest()) => {
    const response = await testApp.http().post(PATH).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const waitFor = (id: string, status: string) =>
    waitForStatus(testApp, account.keys.provider, PATH, id, status);

  it("answers a test key through the simulated clearinghouse's 271: coverage dates, pharmacy benefit and accumulators", async () => {
    const created = await submit();
    expect(created.livemode).toBe(false);
    const completed = await waitFor(created.id, 'completed');
    const year = new Date().getUTCFullYear();
    expect(completed.outcome).toMatchObject({
      coverage_dates: { start_date: `${year}-01-01`, end_date: `${year}-12-31` },
      pharmacy_benefits: [expect.objectContaining({ service_type_code: '88', benefit: 'active_coverage' })],
      accumulators: expect.arrayContaining([
        expect.objectContaining({ kind: 'deductible', level: 'individual', network: 'in_network' }),
      ]),
      rejection: null,
    });
  });

  it('still answers a test key when a name holds a character no X12 270 can carry', async () => {
    const created = await submit(
      benefitVerificationRequest({ patient: syntheticPatient({ last_name: 'Testperson*Star' }) }),
    );
    const completed = await waitFor(created.id, 'completed');
    expect(completed.outcome).toMatchObject({ coverage_status: 'covered' });
  });

  it('reports the AAA behind patient_not_found in test mode, as a payer’s 271 states it', async () => {
    const created = await submit(
      benefitVerificationRequest({ mock_result: { status: 'completed', case: 'patient_not_found' } }),
    );
    const completed = await waitFor(created.id, 'completed');
    expect(completed.outcome).toMatchObject({
      coverage_status: 'patient_not_found',
      rejection: { level: 'subscriber', code: '75' },
    });
  });

  it('completes on its own with per-drug coverage and patient-level benefits', async () => {
    const created = await submit();
    expect(created).toMatchObject({
      id: expect.stringMatching(/^bv_/),
      object: 'benefit_verification',
      status: 'processing',
    });
    const completed = await waitFor(created.id, 'completed');
    expect(completed.outcome).toMatchObject({
      coverage_status: 'covered',
      coverage_type: 'commercial',
      plan_fund_source: 'commercial',
      pharmacy_benefit_manager_name: expect.any(String),
      verified_manually: false,
    });
    expect(completed.outcome.drugs[0]).toMatchObject({
      drug: 'Ozempic',
      coverage: expect.stringMatching(/^(covered|not_covered)$/),
      prior_authorization_required: expect.stringMatching(/^(yes|no|not_applicable)$/),
      copay_options: expect.any(Array),
      determination_details: {
        is_on_formulary: expect.any(Boolean),
        is_explicit_plan_exclusion: expect.any(Boolean),
      },
    });
  });

  it('sends exactly one event, when it completes', async () => {
    const { id } = await submit();
    await waitFor(id, 'completed');
    const [event] = await eventually(async () =>
      eventsFor(receiver, id).length ? eventsFor(receiver, id) : undefined,
    );
    expect(event).toMatchObject({
      type: 'benefit_verification.updated',
      title: 'Benefit Verification Updated',
      description: 'A benefit verification has been updated.',
      data: { id, object: 'benefit_verification', status: 'completed' },
    });
    // A later event of another case arriving proves this one had no second event in flight.
    const { id: laterId } = await submit();
    await eventually(async () => eventsFor(receiver, laterId).length === 1);
    expect(eventsFor(receiver, id)).toHaveLength(1);
  });

  it('resolves the plan from an insurance card image when no discrete data is given', async () => {
    const { id } = await submit(
      benefitVerificationRequest({
        insurance_content: undefined,
        patient: syntheticPatient({ insurance: [insuranceCard()] }),
      }),
    );
    const completed = await waitFor(id, 'completed');
    expect(completed.outcome.payer_name).toBe('Blue Horizon Health');
    expect(completed.request.patient.insurance[0]).toMatchObject({
      name: 'patient_insurance_1',
      type: 'text/plain',
    });
  });

  it.each(BV_MOCK_CASES.filter((mockCase) => mockCase !== 'manual_verification_required'))(
    'answers the sandbox case %s',
    async (mockCase) => {
      const { id } = await submit(
        benefitVerificationRequest({ mock_result: { status: 'completed', case: mockCase } }),
      );
      const completed = await waitFor(id, 'completed');
      const expectedStatus = [
        'patient_not_found',
        'coverage_expired',
        'coverage_not_started',
        'patient_consent_required',
      ].includes(mockCase)
        ? mockCase
        : 'covered';
      expect(completed.outcome.coverage_status).toBe(expectedStatus);
      if (mockCase.startsWith('drugs_not_covered'))
        expect(completed.outcome.drugs[0].coverage).toBe('not_covered');
      if (mockCase.includes('__prior_auth_required__'))
        expect(completed.outcome.drugs[0].prior_authorization_required).toBe('yes');
      if (mockCase.endsWith('__no_copay')) expect(completed.outcome.drugs[0].copay_options).toEqual([]);
    },
  );

  it('fails with the payer’s error when the sandbox says failed, and sends one event', async () => {
    const { id } = await submit(benefitVerificationRequest({ mock_result: { status: 'failed' } }));
    const failed = await waitFor(id, 'failed');
    expect(failed.error).toEqual({
      title: expect.any(String),
      code: expect.any(String),
      detail_code: expect.any(String),
      message: expect.any(String),
    });
    expect(failed.failure).toEqual({ code: failed.error.code, message: failed.error.message });
    await eventually(async () => eventsFor(receiver, id).length === 1);
  });

  it('waits in awaiting_review for a manual verification when the check is inconclusive, silently until it is final', async () => {
    const { id } = await submit(
      benefitVerificationRequest({
        mock_result: { status: 'completed', case: 'manual_verification_required' },
      }),
    );
    await waitFor(id, 'awaiting_review');
    const recorded = await testApp
      .http()
      .post(`${PATH}/${id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ status: 'completed', coverage_status: 'covered', notes: 'Confirmed by phone with the plan.' });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({
      status: 'completed',
      outcome: {
        coverage_status: 'covered',
        verified_manually: true,
        notes: 'Confirmed by phone with the plan.',
      },
    });
    const events = await eventually(async () =>
      eventsFor(receiver, id).length ? eventsFor(receiver, id) : undefined,
    );
    expect(events.map((event) => event.data.status)).toEqual(['completed']);
  });

  const awaitingReview = async (drugs: unknown[]) => {
    const { id } = await submit(
      benefitVerificationRequest({
        drugs,
        mock_result: { status: 'completed', case: 'manual_verification_required' },
      }),
    );
    await waitFor(id, 'awaiting_review');
    return id;
  };
  const recordOutcome = (id: string, body: Record<string, unknown>) =>
    testApp.http().post(`${PATH}/${id}/outcome`).set(bearer(account.keys.reviewer)).send(body);

  it('records the per-drug results, balances and plan dates of a manual verification', async () => {
    const id = await awaitingReview([
      { name: 'Ozempic', quantity: 1 },
      { ndc: '0074-0554-02', quantity: 2 },
      { name: 'Lantus', quantity: 1 },
    ]);
    const recorded = await recordOutcome(id, {
      status: 'completed',
      coverage_status: 'covered',
      notes: 'Called the plan.',
      drugs: [
        {
          drug: 'ozempic',
          coverage: 'covered',
          prior_authorization_required: 'yes',
          copay: { amount_cents: 4500, supply_duration_days: 30 },
          quantity_limit: { quantity: 4, period_days: 28 },
          notes: 'PA form faxed.',
        },
        { drug: '00074055402', coverage: 'not_covered', prior_authorization_required: 'not_applicable' },
      ],
      deductible: { total_cents: 150000, met_cents: 42000 },
      out_of_pocket: { total_cents: 600000, met_cents: 98000 },
      coverage_dates: { start_date: '2026-01-01', end_date: '2026-12-31' },
    });
    expect(recorded.status).toBe(200);
    const { outcome } = recorded.body.data;
    expect(outcome).toMatchObject({
      coverage_status: 'covered',
      verified_manually: true,
      notes: 'Called the plan.\nOzempic: PA form faxed.',
      deductible: { total_cents: 150000, met_cents: 42000, remaining_cents: 108000 },
      out_of_pocket: { total_cents: 600000, met_cents: 98000, remaining_cents: 502000 },
      coverage_dates: { start_date: '2026-01-01', end_date: '2026-12-31' },
    });
    expect(outcome.drugs).toEqual([
      expect.objectContaining({
        drug: 'Ozempic',
        coverage: 'covered',
        coverage_detail_code: 'prior_authorization_required',
        prior_authorization_required: 'yes',
        copay: { amount_cents: 4500, supply_duration_days: 30 },
        copay_options: [{ amount_cents: 4500, supply_duration_days: 30 }],
        quantity_limit: 4,
        quantity_limit_period_days: 28,
        source: 'manual',
        unknown_reason: null,
      }),
      expect.objectContaining({ drug: '0074-0554-02', ndc: '00074055402', coverage: 'not_covered' }),
      expect.objectContaining({
        drug: 'Lantus',
        coverage: 'unknown',
        unknown_reason: 'Not recorded by the manual verification.',
        source: 'manual',
      }),
    ]);
  });

  it('records every requested drug as unknown when the manual verification gives no drug results', async () => {
    const id = await awaitingReview([{ name: 'Ozempic', quantity: 1 }]);
    const recorded = await recordOutcome(id, { status: 'completed', coverage_status: 'covered' });
    expect(recorded.body.data.outcome.drugs).toEqual([
      expect.objectContaining({
        drug: 'Ozempic',
        coverage: 'unknown',
        unknown_reason: 'Not recorded by the manual verification.',
      }),
    ]);
  });

  it('refuses a drug result for a drug the verification did not request, naming its position', async () => {
    const id = await awaitingReview([{ name: 'Ozempic', quantity: 1 }]);
    const refused = await recordOutcome(id, {
      status: 'completed',
      coverage_status: 'covered',
      drugs: [{ drug: 'Humira', coverage: 'covered', prior_authorization_required: 'no' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'drugs[0].drug', issue: expect.stringContaining('requested') }],
    });
    expect(JSON.stringify(refused.body)).not.toContain('Humira');
    expect(
      (await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))).body.data.status,
    ).toBe('awaiting_review');
  });

  it('refuses two results for one requested drug, and met amounts above their totals', async () => {
    const id = await awaitingReview([{ name: 'Ozempic', ndc: '00169413212', quantity: 1 }]);
    const refused = await recordOutcome(id, {
      status: 'completed',
      coverage_status: 'covered',
      drugs: [
        { drug: 'Ozempic', coverage: 'covered', prior_authorization_required: 'no' },
        { drug: '00169-4132-12', coverage: 'covered', prior_authorization_required: 'no' },
      ],
      deductible: { total_cents: 1000, met_cents: 2000 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { field: 'drugs[1].drug', issue: 'names the same requested drug as drugs[0].drug' },
      { field: 'deductible.met_cents', issue: 'must not be more than total_cents' },
    ]);
  });

  it('refuses in the case itself a manual result naming one requested drug twice, as the API would', async () => {
    const id = await awaitingReview([{ name: 'Ozempic', ndc: '00169413212', quantity: 1 }]);
    const doubled: ManualVerificationInput = {
      status: 'completed',
      coverage_status: 'covered',
      drugs: [
        { drug: 'Ozempic', coverage: 'covered', prior_authorization_required: 'no' },
        { drug: '00169-4132-12', coverage: 'covered', prior_authorization_required: 'no' },
      ],
    };

    // Straight to the workflow, as a decision does when the memo the API checks has not caught up.
    const error = await testApp.temporalClient.workflow
      .getHandle(id)
      .executeUpdate(submitBenefitVerificationOutcomeUpdate, { args: [addressTo(id, doubled)] })
      .catch((failure: unknown) => failure);

    expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((error as WorkflowUpdateFailedError).cause).toMatchObject({
      type: 'DecisionInvalid',
      details: [[{ field: 'drugs[1].drug', issue: 'names the same requested drug as drugs[0].drug' }]],
    });
    expect(
      (await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))).body.data,
    ).toMatchObject({ status: 'awaiting_review', outcome: null });
  });

  it('refuses per-drug numbers out of bounds at the edge', async () => {
    const id = await awaitingReview([{ name: 'Ozempic', quantity: 1 }]);
    const refused = await recordOutcome(id, {
      status: 'completed',
      coverage_status: 'covered',
      drugs: [
        {
          drug: 'Ozempic',
          coverage: 'sometimes',
          prior_authorization_required: 'no',
          coinsurance_percent: 120,
          copay: { amount_cents: -1, supply_duration_days: 30 },
          quantity_limit: { quantity: 4, period_days: 0 },
        },
      ],
    });
    expect(refused.status).toBe(400);
    const fields = (refused.body.error.details as Array<{ field: string }>).map((detail) => detail.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'drugs[0].coverage',
        'drugs[0].coinsurance_percent',
        'drugs[0].copay.amount_cents',
        'drugs[0].quantity_limit.period_days',
      ]),
    );
  });

  it('takes the manual verification as a Temporal signal too', async () => {
    const { id } = await submit(
      benefitVerificationRequest({
        mock_result: { status: 'completed', case: 'manual_verification_required' },
      }),
    );
    await waitFor(id, 'awaiting_review');
    await testApp.temporalClient.workflow
      .getHandle(id)
      .signal(benefitVerificationOutcomeSignal, { status: 'failed', notes: 'Plan unreachable.' });
    const failed = await waitFor(id, 'failed');
    expect(failed.failure).toMatchObject({ code: 'manual_verification_failed' });
  });

  it('refuses a manual verification for a case that is not awaiting review', async () => {
    const { id } = await submit();
    await waitFor(id, 'completed');
    const response = await testApp
      .http()
      .post(`${PATH}/${id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ status: 'completed', coverage_status: 'covered' });
    expect(response.status).toBe(409);
  });

  it('cancels a verification awaiting review, sending no event', async () => {
    const { id } = await submit(
      benefitVerificationRequest({
        mock_result: { status: 'completed', case: 'manual_verification_required' },
      }),
    );
    await waitFor(id, 'awaiting_review');
    const cancelled = await testApp
      .http()
      .post(`${PATH}/${id}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Wrong patient' });
    expect(cancelled.body.data.status).toBe('cancelled');
    const { id: laterId } = await submit();
    await eventually(async () => eventsFor(receiver, laterId).length === 1);
    expect(eventsFor(receiver, id)).toEqual([]);
  });

  it('replays a finished case for its Idempotency-Key without running it again', async () => {
    const body = benefitVerificationRequest();
    const send = () =>
      testApp
        .http()
        .post(PATH)
        .set(bearer(account.keys.provider))
        .set('Idempotency-Key', `bv-${body.patient.internal_id}`)
        .send(body);
    const first = await send();
    await waitFor(first.body.data.id, 'completed');
    await eventually(async () => eventsFor(receiver, first.body.data.id).length === 1);

    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toMatchObject({ id: first.body.data.id, status: 'completed' });
    const { id: laterId } = await submit();
    await eventually(async () => eventsFor(receiver, laterId).length === 1);
    expect(eventsFor(receiver, first.body.data.id)).toHaveLength(1);
  });

  it('reads a finished case without any worker running', async () => {
    const { id } = await submit();
    await waitFor(id, 'completed');
    await worker.stop();
    try {
      const response = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
      expect(response.body.data).toMatchObject({
        id,
        status: 'completed',
        outcome: { coverage_status: 'covered' },
      });
    } finally {
      worker = await testApp.startWorker();
    }
  });
});
