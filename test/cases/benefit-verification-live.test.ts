import type { EligibilityInquiry, EligibilityResponse } from '../../domain/payers/eligibility';
import { eligibilityRejection } from '../../infrastructure/connectors/x12/eligibility-codes';
import { readEligibilityInquiry } from '../../infrastructure/connectors/x12/eligibility-inquiry';
import { writeEligibilityResponse } from '../../infrastructure/connectors/x12/eligibility-response';
import { eventsFor, JsonObject, subscribeReceiver, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest } from '../support/case-requests';
import { ClearinghouseServer } from '../support/clearinghouse-server';
import { LoopbackNpiRegistry } from '../support/loopback-npi-registry';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/benefit-verification';
const ACTIVE_MEMBER = 'ZZLIVE0001';
const UNKNOWN_MEMBER = 'ZZLIVE0075';
const GARBLED_MEMBER = 'ZZLIVE0999';
const CLEARINGHOUSE_PASSWORD = 'ch-password-0001';

/** What the payer behind the test clearinghouse knows about the active member, as a 271 says it. */
const ACTIVE_COVERAGE: Omit<EligibilityResponse, 'trace_number' | 'payer'> = {
  coverage: 'active',
  insurance_type_code: 'C1',
  pharmacy_benefit_manager_name: null,
  plan_name: 'SANDBOX GOLD PPO',
  group_number: null,
  coverage_dates: { start_date: '2026-01-01', end_date: '2026-12-31' },
  pharmacy_benefits: [
    {
      service_type_code: '88',
      service_type: 'Pharmacy',
      benefit: 'copayment',
      level: 'individual',
      network: 'in_network',
      amount_cents: 2500,
      coinsurance_percent: null,
      prior_authorization_required: 'no',
      messages: [],
    },
  ],
  accumulators: [
    {
      kind: 'deductible',
      level: 'individual',
      network: 'in_network',
      period: 'calendar_year',
      service_type_codes: ['30'],
      total_cents: 150000,
      remaining_cents: 60000,
      met_cents: 90000,
    },
  ],
  messages: [],
  rejections: [],
};

function answerFor(inquiry: EligibilityInquiry): Omit<EligibilityResponse, 'trace_number' | 'payer'> {
  if (inquiry.subscriber.memberId === UNKNOWN_MEMBER) {
    return {
      ...ACTIVE_COVERAGE,
      coverage: 'unknown',
      plan_name: null,
      coverage_dates: null,
      pharmacy_benefits: [],
      accumulators: [],
      rejections: [eligibilityRejection('subscriber', '75', 'C')],
    };
  }
  return ACTIVE_COVERAGE;
}

/** A clearinghouse that reads the 270 it is sent and answers with its payer's 271, JSON-wrapped. */
function clearinghouseAnswering(request: { body: string }) {
  const { inquiry, envelope } = readEligibilityInquiry((JSON.parse(request.body) as { x12: string }).x12);
  if (inquiry.subscriber.memberId === GARBLED_MEMBER) {
    return { status: 200, body: JSON.stringify({ x12: 'ISA*00*this is not an interchange~' }) };
  }
  const x12 = writeEligibilityResponse(
    inquiry,
    { ...answerFor(inquiry), trace_number: inquiry.traceNumber, payer: inquiry.payer },
    { ...envelope, senderId: envelope.receiverId, receiverId: envelope.senderId },
  );
  return { status: 200, body: JSON.stringify({ x12 }), headers: { 'Content-Type': 'application/json' } };
}

describe('benefit verification with a live key', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let clearinghouse: ClearinghouseServer;
  let clearinghouseUrl: string;
  let receiver: TestReceiver;
  let registry: LoopbackNpiRegistry;
  const live = { provider: '', reviewer: '', admin: '' };

  beforeAll(async () => {
    registry = new LoopbackNpiRegistry();
    testApp = await startTestApp({
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
      NPI_REGISTRY_URL: await registry.start(),
    });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    Object.assign(live, await testApp.createLiveKeys(account.accountId));
    clearinghouse = new ClearinghouseServer(clearinghouseAnswering);
    clearinghouseUrl = await clearinghouse.start();
    const configured = await testApp
      .http()
      .put('/connectors/eligibility')
      .set(bearer(live.admin))
      .send({
        url: clearinghouseUrl,
        format: 'json',
        auth: { type: 'basic', username: 'clinic-0001', password: CLEARINGHOUSE_PASSWORD },
        submitter_id: 'CLINIC0001',
        receiver_id: 'SANDBOXCH',
        usage: 'test',
        timeout_ms: 5000,
      });
    expect(configured.status).toBe(200);
    receiver = await subscribeReceiver(testApp, live.provider);
  });
  afterAll(async () => {
    await receiver.stop();
    await clearinghouse.stop();
    await worker.stop();
    await testApp.close();
    await registry.stop();
  });

  const submit = async (memberId: string) => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(live.provider))
      .send(
        benefitVerificationRequest({
          insurance_content: { payer: 'Sandbox Mutual', payer_id: 'SBX01', member_id: memberId },
        }),
      );
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const waitFor = (id: string, status: string) => waitForStatus(testApp, live.provider, PATH, id, status);

  it("asks the account's clearinghouse with a 270 and completes with what its 271 says", async () => {
    const created = await submit(ACTIVE_MEMBER);
    expect(created.livemode).toBe(true);
    const completed = await waitFor(created.id, 'completed');
    expect(completed.outcome).toMatchObject({
      coverage_status: 'covered',
      coverage_type: 'commercial',
      plan_name: 'SANDBOX GOLD PPO',
      coverage_dates: { start_date: '2026-01-01', end_date: '2026-12-31' },
      deductible: { total_cents: 150000, met_cents: 90000, remaining_cents: 60000 },
      pharmacy_benefits: [expect.objectContaining({ service_type_code: '88', amount_cents: 2500 })],
      rejection: null,
      verified_manually: false,
    });
    // The webhook follows the committed move that GET shows, a few milliseconds behind it.
    const events = await eventually(async () => {
      const received = eventsFor(receiver, created.id);
      return received.length > 0 ? received : undefined;
    });
    expect(events.map((event) => event.type)).toEqual(['benefit_verification.updated']);
  });

  it('sends the 270 for the member and the provider, with the connector credentials', async () => {
    const created = await submit(ACTIVE_MEMBER);
    await waitFor(created.id, 'completed');
    const sent = clearinghouse.requests.find((request) => request.body.includes(created.id))!;
    expect(sent.headers.authorization).toBe(
      `Basic ${Buffer.from(`clinic-0001:${CLEARINGHOUSE_PASSWORD}`).toString('base64')}`,
    );
    const { inquiry, envelope } = readEligibilityInquiry((JSON.parse(sent.body) as { x12: string }).x12);
    expect(inquiry).toMatchObject({
      traceNumber: created.id,
      payer: { id: 'SBX01' },
      subscriber: { memberId: ACTIVE_MEMBER },
      serviceTypeCodes: ['30', '88'],
    });
    expect(envelope).toMatchObject({ senderId: 'CLINIC0001', receiverId: 'SANDBOXCH', usage: 'test' });
  });

  it("names the prescriber's taxonomy from the NPI registry in the 270 it sends", async () => {
    const created = await submit(ACTIVE_MEMBER);
    const completed = await waitFor(created.id, 'completed');
    expect(completed.prescriber_registry).toMatchObject({
      outcome: 'matched',
      taxonomy: { code: '207Q00000X' },
    });
    const sent = clearinghouse.requests.find((request) => request.body.includes(created.id))!;
    const segments = (JSON.parse(sent.body) as { x12: string }).x12.split('~');
    const provider = segments.findIndex((segment) => segment.startsWith('NM1*1P*'));
    expect(segments[provider + 1]).toBe('PRV*PE*PXC*207Q00000X');
  });

  it("asks as the subscriber's dependent when the patient is covered on someone else's policy", async () => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(live.provider))
      .send(
        benefitVerificationRequest({
          insurance_content: {
            payer: 'Sandbox Mutual',
            payer_id: 'SBX01',
            member_id: ACTIVE_MEMBER,
            subscriber: {
              first_name: 'Morgan',
              last_name: 'Testperson',
              date_of_birth: '1970-05-06',
              relationship: 'spouse',
            },
          },
        }),
      );
    const { id } = response.body.data as JsonObject;
    await waitFor(id, 'completed');
    const sent = clearinghouse.requests.find((request) => request.body.includes(id))!;
    const { inquiry } = readEligibilityInquiry((JSON.parse(sent.body) as { x12: string }).x12);
    expect(inquiry.subscriber).toMatchObject({ memberId: ACTIVE_MEMBER, dateOfBirth: '1970-05-06' });
    expect(inquiry.dependent).toMatchObject({ relationship: 'spouse', dateOfBirth: expect.any(String) });
    expect(inquiry.dependent!.dateOfBirth).not.toBe('1970-05-06');
  });

  it('reports each drug as unknown with the reason, since a 271 does not answer per drug', async () => {
    const created = await submit(ACTIVE_MEMBER);
    const completed = await waitFor(created.id, 'completed');
    expect(completed.outcome.drugs).toEqual([
      expect.objectContaining({
        drug: 'Ozempic',
        coverage: 'unknown',
        unknown_reason: expect.stringMatching(/formulary/),
      }),
    ]);
  });

  it('answers each drug from the formulary the account loaded for the payer', async () => {
    const loaded = await testApp
      .http()
      .put('/formularies/SBX02')
      .set(bearer(live.admin))
      .set('Content-Type', 'text/csv')
      .send(
        'payer_id,plan,ndc,drug_name,coverage,tier,prior_authorization_required,step_therapy_required,copay_cents,copay_supply_days\n' +
          'SBX02,,,Ozempic,covered,3,yes,no,4500,30\n',
      );
    expect(loaded.status).toBe(200);
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(live.provider))
      .send(
        benefitVerificationRequest({
          insurance_content: { payer: 'Sandbox Mutual', payer_id: 'SBX02', member_id: ACTIVE_MEMBER },
          drugs: [
            { name: 'Ozempic', quantity: 1 },
            { name: 'Wegovy', quantity: 1 },
          ],
        }),
      );
    const completed = await waitFor(response.body.data.id, 'completed');
    expect(completed.outcome.drugs).toEqual([
      expect.objectContaining({
        drug: 'Ozempic',
        coverage: 'covered',
        prior_authorization_required: 'yes',
        copay: { amount_cents: 4500, supply_duration_days: 30 },
        source: 'formulary',
      }),
      expect.objectContaining({
        drug: 'Wegovy',
        coverage: 'not_covered',
        coverage_detail_code: 'not_on_formulary',
      }),
    ]);
  });

  it('completes as patient_not_found with the payer’s AAA 75 when the payer cannot find the member', async () => {
    const created = await submit(UNKNOWN_MEMBER);
    const completed = await waitFor(created.id, 'completed');
    expect(completed.outcome).toMatchObject({
      coverage_status: 'patient_not_found',
      rejection: { level: 'subscriber', code: '75', reason: 'Subscriber/Insured Not Found' },
    });
  });

  it('fails the case at once as rejected by the payer, without retrying, when the 271 is malformed', async () => {
    const created = await submit(GARBLED_MEMBER);
    const failed = await waitFor(created.id, 'failed');
    expect(failed.failure).toMatchObject({ code: 'payer_rejected' });
    expect(clearinghouse.requests.filter((request) => request.body.includes(created.id))).toHaveLength(1);
    expect(JSON.stringify(failed.failure)).not.toContain(GARBLED_MEMBER);
  });

  it('replays a created case for its Idempotency-Key even after the connector was removed', async () => {
    const clinic = await testApp.createAccount('Clinic that removes its clearinghouse');
    const keys = await testApp.createLiveKeys(clinic.accountId);
    await testApp
      .http()
      .put('/connectors/eligibility')
      .set(bearer(keys.admin))
      .send({
        url: clearinghouseUrl,
        format: 'json',
        auth: { type: 'none' },
        submitter_id: 'CLINIC0002',
        receiver_id: 'SANDBOXCH',
      });
    const body = benefitVerificationRequest({
      insurance_content: { payer: 'Sandbox Mutual', payer_id: 'SBX01', member_id: ACTIVE_MEMBER },
    });
    const send = () =>
      testApp.http().post(PATH).set(bearer(keys.provider)).set('Idempotency-Key', 'bv-once-0001').send(body);
    const first = await send();
    expect(first.status).toBe(201);
    await testApp.http().delete('/connectors/eligibility').set(bearer(keys.admin));
    const retried = await send();
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body.data.id).toBe(first.body.data.id);
  });

  it('refuses a live benefit verification with 409 naming the connector when none is configured', async () => {
    const other = await testApp.createAccount('Clinic without a clearinghouse');
    const { provider } = await testApp.createLiveKeys(other.accountId);
    const response = await testApp.http().post(PATH).set(bearer(provider)).send(benefitVerificationRequest());
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(/eligibility connector/),
    });
  });
});
