import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import type { CriterionAnswer, ResolvedPlan } from '../../domain/payers/payer-connector';
import type { PriorAuthExchangeInput } from '../../domain/payers/prior-authorization-exchange';
import { PayerSimulator } from '../../infrastructure/connectors/payer-simulator';

const NOW = new Date('2026-11-02T09:00:00Z');
const simulator = new PayerSimulator({ now: () => NOW });

const PLAN: ResolvedPlan = {
  payer_id: 'bhh',
  payer_name: 'Blue Horizon Health',
  plan_id: 'bhh_ppo_select',
  plan_name: 'Blue Horizon PPO Select',
  plan_type: 'commercial',
  plan_fund_source: 'commercial',
  bin: '610014',
  pcn: 'SBXBHHPPO',
  pharmacy_benefit_manager_name: 'Sandbox PBM',
  member_id: 'ZZBHH123456789',
};

const criterion = (id: string, answer: CriterionAnswer['answer']): CriterionAnswer => ({
  id,
  question: `Is ${id.replace(/_/g, ' ')} documented?`,
  answer,
  source: null,
});

function exchange(
  criteria: CriterionAnswer[],
  overrides: Partial<PriorAuthorizationRequest> = {},
): PriorAuthExchangeInput {
  const request = {
    prescription: { drug_name: 'Wegovy', quantity: 4 },
    mock_result: null,
    ...overrides,
  } as PriorAuthorizationRequest;
  return {
    caseId: 'pa_sandbox',
    accountId: 'acct_sandbox',
    livemode: false,
    request,
    plan: PLAN,
    urgency: 'standard',
    criteria,
  };
}

describe('the sandbox payer as a prior authorization channel', () => {
  it('asks about the criteria the record does not show, and approves once they are answered', async () => {
    const input = exchange([criterion('obesity_diagnosis', 'yes'), criterion('bmi_at_least_30', 'unknown')]);
    const submitted = await simulator.submit(input);
    expect(submitted).toEqual({
      kind: 'pended',
      payer_reference: expect.stringMatching(/^PA-/),
      information_request: {
        kind: 'information_requested',
        questions: [{ id: 'bmi_at_least_30', text: 'Is bmi at least 30 documented?' }],
        due_at: '2026-11-05T09:00:00.000Z',
      },
    });
    const reference = submitted.payer_reference!;
    const answered = await simulator.answerInformationRequest({
      ...input,
      payer_reference: reference,
      answers: [{ question_id: 'bmi_at_least_30', answer: 'BMI 32.' }],
    });
    expect(answered).toMatchObject({
      kind: 'determined',
      determination: { result: 'approved', authorization_expiration: '2027-05-01' },
    });
  });

  it('denies a request whose record shows a criterion not met, without asking', async () => {
    const input = exchange([criterion('obesity_diagnosis', 'no'), criterion('bmi_at_least_30', 'unknown')]);
    expect((await simulator.submit(input)).kind).toBe('pended');
    const first = await simulator.inquire({ ...input, payer_reference: 'PA-1', inquiriesSoFar: 0 });
    expect(first).toEqual({ kind: 'pended', payer_reference: 'PA-1', information_request: null });
    const decided = await simulator.inquire({ ...input, payer_reference: 'PA-1', inquiriesSoFar: 1 });
    expect(decided).toMatchObject({
      kind: 'determined',
      determination: { result: 'denied', detail_code: 'medical_necessity_criteria_not_met' },
    });
  });

  it('approves a drug the formulary needs no prior authorization for', async () => {
    const input = exchange([], { prescription: { drug_name: 'Jardiance', quantity: 30 } });
    const decided = await simulator.inquire({ ...input, payer_reference: 'PA-2', inquiriesSoFar: 1 });
    expect(decided).toMatchObject({
      kind: 'determined',
      determination: { result: 'approved', detail_code: 'prior_auth_not_required', approved_quantity: 30 },
    });
  });

  it('partially approves half the quantity requested', async () => {
    const input = exchange([], { mock_result: { result: 'partially_approved' } });
    expect(await simulator.inquire({ ...input, payer_reference: 'PA-3', inquiriesSoFar: 1 })).toMatchObject({
      determination: { result: 'partially_approved', approved_quantity: 2 },
    });
  });

  it('partially approves a single unit for half the period of a full approval', async () => {
    const single = (result: 'approved' | 'partially_approved') =>
      exchange([], { prescription: { drug_name: 'Wegovy', quantity: 1 }, mock_result: { result } });
    const decided = async (result: 'approved' | 'partially_approved') => {
      const answer = await simulator.inquire({
        ...single(result),
        payer_reference: 'PA-4',
        inquiriesSoFar: 1,
      });
      if (answer.kind !== 'determined') throw new Error('expected a determination');
      const { approved_quantity, authorization_start_date, authorization_expiration } = answer.determination;
      const days =
        (Date.parse(authorization_expiration!) - Date.parse(authorization_start_date!)) / 86_400_000;
      return { approved_quantity, days };
    };
    const full = await decided('approved');
    const partial = await decided('partially_approved');
    expect(partial.approved_quantity).toBe(1);
    expect(partial.days).toBe(Math.floor(full.days / 2));
  });

  it('refuses a request the mock result says the payer does not accept, with its reason code', async () => {
    const input = exchange([], { mock_result: { result: 'not_submitted', detail_code: 'member_not_found' } });
    expect(await simulator.submit(input)).toEqual({
      kind: 'not_submitted',
      payer_reference: null,
      reason_code: 'member_not_found',
      reason: expect.any(String),
    });
  });
});
