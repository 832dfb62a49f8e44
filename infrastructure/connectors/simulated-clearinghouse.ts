import type { PlanType } from '../../domain/cases/case-model';
import type { Clearinghouse } from '../../domain/payers/clearinghouse';
import type {
  BenefitAccumulator,
  EligibilityResponse,
  InterchangeEnvelope,
} from '../../domain/payers/eligibility';
import type { BenefitsCheck, BenefitsOutcome } from '../../domain/payers/payer-connector';
import { eligibilityRejection } from './x12/eligibility-codes';
import { readEligibilityInquiry } from './x12/eligibility-inquiry';
import { NO_RESPONSE_FROM_PAYER } from './x12/eligibility-outcome';
import { writeEligibilityResponse } from './x12/eligibility-response';

/** The AAA a payer sends when it cannot find the member (75), or may not share their data (41). */
const REJECTION_OF_STATUS: Partial<Record<BenefitsOutcome['coverage_status'], string>> = {
  patient_not_found: '75',
  patient_consent_required: '41',
};

/** EB04 for each plan type, so the 271 says what kind of plan covers the member. */
const INSURANCE_TYPE_OF_PLAN: Record<PlanType, string> = {
  commercial: 'C1',
  medicare: 'MP',
  medicare_advantage: 'HN',
  medicaid: 'MC',
  tricare: 'CH',
  other: 'OT',
};

type Answer = Omit<EligibilityResponse, 'trace_number' | 'payer'>;

/**
 * The sandbox's clearinghouse: it reads the 270 it is sent, as a real one would, and answers with a
 * 271 that says what the payer simulator decided. Test mode thus runs the live path's 270 builder,
 * 271 reader and result mapping on every benefit verification.
 */
export class SimulatedClearinghouse implements Clearinghouse {
  constructor(
    private readonly decision: BenefitsCheck,
    private readonly envelope: InterchangeEnvelope,
    private readonly asOf: string,
  ) {}

  async exchange(interchange: string): Promise<string> {
    const { inquiry } = readEligibilityInquiry(interchange);
    return writeEligibilityResponse(
      inquiry,
      {
        ...eligibilityAnswer(this.decision, this.asOf),
        trace_number: inquiry.traceNumber,
        payer: { id: inquiry.payer.id, name: inquiry.payer.name },
      },
      { ...this.envelope, senderId: this.envelope.receiverId, receiverId: this.envelope.senderId },
    );
  }
}

const NOTHING_KNOWN: Answer = {
  coverage: 'unknown',
  insurance_type_code: null,
  pharmacy_benefit_manager_name: null,
  plan_name: null,
  group_number: null,
  coverage_dates: null,
  pharmacy_benefits: [],
  accumulators: [],
  messages: [],
  rejections: [],
};

/** The 271 content that carries a simulator decision. */
export function eligibilityAnswer(decision: BenefitsCheck, asOf: string): Answer {
  if (decision.kind === 'failed') {
    return {
      ...NOTHING_KNOWN,
      rejections: [eligibilityRejection('information_source', NO_RESPONSE_FROM_PAYER, 'R')],
    };
  }
  if (decision.kind === 'inconclusive') {
    // Coverage without a word about the pharmacy benefit: a person has to call the plan.
    return { ...NOTHING_KNOWN, coverage: 'active', messages: [decision.reason] };
  }
  const { outcome } = decision;
  const rejection = REJECTION_OF_STATUS[outcome.coverage_status];
  if (rejection) {
    return { ...NOTHING_KNOWN, rejections: [eligibilityRejection('subscriber', rejection, 'C')] };
  }
  const ended = outcome.coverage_status === 'coverage_expired';
  return {
    ...NOTHING_KNOWN,
    coverage: ended ? 'inactive' : 'active',
    insurance_type_code: outcome.coverage_type && INSURANCE_TYPE_OF_PLAN[outcome.coverage_type],
    pharmacy_benefit_manager_name: outcome.pharmacy_benefit_manager_name,
    plan_name: outcome.plan_name,
    coverage_dates: coverageDates(outcome, asOf),
    pharmacy_benefits: [
      {
        service_type_code: '88',
        service_type: 'Pharmacy',
        benefit: ended ? 'inactive' : 'active_coverage',
        level: 'individual',
        network: null,
        amount_cents: null,
        coinsurance_percent: null,
        prior_authorization_required: 'unknown',
        messages: [],
      },
    ],
    accumulators: outcome.accumulators.length > 0 ? outcome.accumulators : legacyAccumulators(outcome),
    messages: outcome.payer_messages,
  };
}

/**
 * The plan year around the date of service; a year earlier for coverage that has ended and a year
 * later for coverage that has not begun, which is how a 271 tells those apart.
 */
function coverageDates(outcome: BenefitsOutcome, asOf: string): { start_date: string; end_date: string } {
  const { start_date, end_date } = outcome.coverage_dates ?? {};
  if (outcome.coverage_status === 'covered' && start_date && end_date) return { start_date, end_date };
  const shift =
    outcome.coverage_status === 'coverage_expired'
      ? -1
      : outcome.coverage_status === 'coverage_not_started'
        ? 1
        : 0;
  const year = Number(asOf.slice(0, 4)) + shift;
  return { start_date: `${year}-01-01`, end_date: `${year}-12-31` };
}

function legacyAccumulators(outcome: BenefitsOutcome): BenefitAccumulator[] {
  const balances = [
    ['deductible', outcome.deductible],
    ['out_of_pocket', outcome.out_of_pocket],
  ] as const;
  return balances.flatMap(([kind, balance]) =>
    balance
      ? [
          {
            kind,
            level: 'individual' as const,
            network: 'in_network' as const,
            period: 'calendar_year',
            service_type_codes: ['30'],
            total_cents: balance.total_cents,
            remaining_cents: balance.remaining_cents,
            met_cents: balance.met_cents,
          },
        ]
      : [],
  );
}
