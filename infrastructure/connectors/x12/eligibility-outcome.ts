import { ConnectorError } from '../../../domain/failures';
import type {
  BenefitAccumulator,
  EligibilityRejection,
  EligibilityResponse,
} from '../../../domain/payers/eligibility';
import type { BenefitsCheck, BenefitsOutcome } from '../../../domain/payers/payer-connector';
import { PHARMACY_SERVICE_TYPES, planTypeOf } from './eligibility-codes';

/** What a 271 says about a benefit verification, before any per-drug answer is added. */
export type EligibilityOutcome =
  | { kind: 'completed'; outcome: Omit<BenefitsOutcome, 'drugs'> }
  | Exclude<BenefitsCheck, { kind: 'completed' }>;

/** AAA03 codes that say the payer could not find the patient the inquiry named. */
const PATIENT_NOT_FOUND_CODES = new Set(['58', '64', '65', '67', '71', '72', '73', '75', '76', '77', '78']);
/** AAA03 42: the payer cannot answer now. Worth asking again, so Temporal retries the activity. */
const UNABLE_TO_RESPOND = '42';
/** AAA03 80: the payer never answered the clearinghouse, which gave up on the inquiry. */
export const NO_RESPONSE_FROM_PAYER = '80';
/** AAA03 41: the payer will not disclose the patient's benefits to this provider. */
const ACCESS_RESTRICTED = '41';
/** EB01 answers that say the pharmacy benefit is not this plan's to give. */
const PHARMACY_NOT_COVERED = new Set([
  'non_covered',
  'inactive',
  'inactive_pending_eligibility_update',
  'inactive_pending_investigation',
]);
/** EB06 periods of a plan-year accumulator, the one the legacy deductible and out-of-pocket show. */
const PLAN_YEAR_PERIODS = ['calendar_year', 'service_year', 'contract', 'years', 'unspecified'];

/**
 * Maps a read 271 onto the benefit verification's statuses, as of a date (YYYY-MM-DD):
 * - AAA 42 anywhere: a transient ConnectorError is thrown, so the activity is retried;
 * - any other AAA of the information source or receiver: failed (the payer refused the inquiry);
 * - AAA 41 for the patient: patient_consent_required; AAA 58/64/65/67/71–73/75–78: patient_not_found;
 *   any other AAA of the subscriber or dependent: failed;
 * - inactive coverage, or a coverage end before the date: coverage_expired;
 *   a coverage start after the date: coverage_not_started; active coverage: covered;
 * - no coverage row at all, or covered with no pharmacy row or pharmacy accumulator: inconclusive
 *   (a person must check).
 */
export function eligibilityOutcome(response: EligibilityResponse, asOf: string): EligibilityOutcome {
  if (response.rejections.some((rejection) => rejection.code === UNABLE_TO_RESPOND)) {
    throw new ConnectorError('The payer answered that it cannot respond now (AAA 42)', { transient: true });
  }
  const payerRefusal = response.rejections.find(
    (rejection) => rejection.level === 'information_source' || rejection.level === 'information_receiver',
  );
  if (payerRefusal) return failed(payerRefusal);

  const patientRejection = response.rejections.find(
    (rejection) => rejection.level === 'subscriber' || rejection.level === 'dependent',
  );
  if (patientRejection?.code === ACCESS_RESTRICTED) {
    return completed(response, 'patient_consent_required', patientRejection);
  }
  if (patientRejection && PATIENT_NOT_FOUND_CODES.has(patientRejection.code)) {
    return completed(response, 'patient_not_found', patientRejection);
  }
  if (patientRejection) return failed(patientRejection);

  if (response.coverage === 'unknown') {
    return { kind: 'inconclusive', reason: "The payer's 271 states neither active nor inactive coverage." };
  }
  const { start_date: start, end_date: end } = response.coverage_dates ?? {
    start_date: null,
    end_date: null,
  };
  if (start !== null && start > asOf) return completed(response, 'coverage_not_started', null);
  if (response.coverage === 'inactive' || (end !== null && end < asOf)) {
    return completed(response, 'coverage_expired', null);
  }
  const pharmacyAccumulators = response.accumulators.some((accumulator) =>
    accumulator.service_type_codes.some((code) => code in PHARMACY_SERVICE_TYPES),
  );
  if (response.pharmacy_benefits.length === 0 && !pharmacyAccumulators) {
    return {
      kind: 'inconclusive',
      reason: "The payer's 271 shows active coverage but says nothing about the pharmacy benefit.",
    };
  }
  if (
    response.pharmacy_benefits.length > 0 &&
    response.pharmacy_benefits.every((benefit) => PHARMACY_NOT_COVERED.has(benefit.benefit))
  ) {
    return {
      kind: 'inconclusive',
      reason:
        "The payer's 271 shows active coverage but no pharmacy benefit: the drug benefit may be carved out to another plan.",
    };
  }
  return completed(response, 'covered', null);
}

function failed(rejection: EligibilityRejection): EligibilityOutcome {
  if (rejection.code === NO_RESPONSE_FROM_PAYER) {
    return {
      kind: 'failed',
      error: {
        title: 'Payer unavailable',
        code: 'payer_unavailable',
        detail_code: 'payer_timeout',
        message: 'The payer did not answer the eligibility request in time.',
      },
    };
  }
  return {
    kind: 'failed',
    error: {
      title: 'Payer rejected the eligibility inquiry',
      code: 'payer_rejected',
      detail_code: `aaa_${rejection.code.toLowerCase()}`,
      message: `The payer rejected the eligibility inquiry at the ${rejection.level.replace('_', ' ')} level: ${rejection.reason} (AAA ${rejection.code}).`,
    },
  };
}

function completed(
  response: EligibilityResponse,
  coverageStatus: BenefitsOutcome['coverage_status'],
  rejection: EligibilityRejection | null,
): EligibilityOutcome {
  const coverageType = planTypeOf(response.insurance_type_code);
  return {
    kind: 'completed',
    outcome: {
      coverage_status: coverageStatus,
      coverage_type: coverageType,
      plan_fund_source:
        coverageType === 'commercial'
          ? 'commercial'
          : coverageType === null || coverageType === 'other'
            ? null
            : 'government',
      pharmacy_benefit_manager_name: response.pharmacy_benefit_manager_name,
      payer_name: response.payer.name,
      plan_name: response.plan_name,
      // A 271 carries no pharmacy routing numbers: those come from the card or the PBM.
      bin: null,
      pcn: null,
      deductible: planYearAmounts(response.accumulators, 'deductible'),
      out_of_pocket: planYearAmounts(response.accumulators, 'out_of_pocket'),
      coverage_dates: response.coverage_dates,
      pharmacy_benefits: response.pharmacy_benefits,
      accumulators: response.accumulators,
      payer_messages: response.messages,
      rejection,
    },
  };
}

/**
 * The legacy single deductible or out-of-pocket: the individual, in-network (else network not
 * applicable) plan-year accumulator, for the whole plan (service type 30 or none) if the payer
 * reports one, else for any service type; only when both its total and remainder are known.
 */
function planYearAmounts(
  accumulators: BenefitAccumulator[],
  kind: BenefitAccumulator['kind'],
): BenefitsOutcome['deductible'] {
  const candidates = accumulators.filter(
    (accumulator) =>
      accumulator.kind === kind &&
      accumulator.level === 'individual' &&
      (accumulator.network === 'in_network' || accumulator.network === 'not_applicable') &&
      PLAN_YEAR_PERIODS.includes(accumulator.period) &&
      accumulator.total_cents !== null &&
      accumulator.remaining_cents !== null,
  );
  const wholePlan = (accumulator: BenefitAccumulator) =>
    accumulator.service_type_codes.length === 0 || accumulator.service_type_codes.includes('30');
  const rank = (accumulator: BenefitAccumulator) =>
    (wholePlan(accumulator) ? 0 : 4) +
    (accumulator.network === 'in_network' ? 0 : 2) +
    PLAN_YEAR_PERIODS.indexOf(accumulator.period) / PLAN_YEAR_PERIODS.length;
  const chosen = [...candidates].sort((a, b) => rank(a) - rank(b))[0];
  if (!chosen || chosen.total_cents === null || chosen.remaining_cents === null) return null;
  return {
    total_cents: chosen.total_cents,
    met_cents: chosen.total_cents - chosen.remaining_cents,
    remaining_cents: chosen.remaining_cents,
  };
}
