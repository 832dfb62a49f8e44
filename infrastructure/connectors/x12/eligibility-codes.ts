import type {
  BenefitLevel,
  EligibilityRejection,
  NetworkIndicator,
  RejectionLevel,
} from '../../../domain/payers/eligibility';
import type { PlanType } from '../../../domain/cases/case-model';

/**
 * The 005010X279A1 code lists the eligibility codec reads and writes, each as one table so that
 * reading and writing cannot disagree. Names are the result's vocabulary (snake_case words).
 */

/** Service types 88–92: the pharmacy benefit and its relatives (EB03 / EQ01). */
export const PHARMACY_SERVICE_TYPES: Readonly<Record<string, string>> = {
  '88': 'Pharmacy',
  '89': 'Free Standing Prescription Drug',
  '90': 'Mail Order Prescription Drug',
  '91': 'Brand Name Prescription Drug',
  '92': 'Generic Prescription Drug',
};

/** EB01, Eligibility or Benefit Information Code. */
const BENEFIT_CODES: Readonly<Record<string, string>> = {
  '1': 'active_coverage',
  '2': 'active_full_risk_capitation',
  '3': 'active_services_capitated',
  '4': 'active_services_capitated_to_primary_care_physician',
  '5': 'active_pending_investigation',
  '6': 'inactive',
  '7': 'inactive_pending_eligibility_update',
  '8': 'inactive_pending_investigation',
  A: 'coinsurance',
  B: 'copayment',
  C: 'deductible',
  CB: 'coverage_basis',
  D: 'benefit_description',
  E: 'exclusions',
  F: 'limitations',
  G: 'out_of_pocket',
  H: 'unlimited',
  I: 'non_covered',
  J: 'cost_containment',
  K: 'reserve',
  L: 'primary_care_provider',
  M: 'pre_existing_condition',
  MC: 'managed_care_coordinator',
  N: 'services_restricted_to_following_provider',
  O: 'not_deemed_a_medical_necessity',
  P: 'benefit_disclaimer',
  Q: 'second_surgical_opinion_required',
  R: 'other_or_additional_payor',
  S: 'prior_year_history',
  T: 'card_reported_lost_stolen',
  U: 'contact_following_entity_for_benefit_information',
  V: 'cannot_process',
  W: 'other_source_of_data',
  X: 'health_care_facility',
  Y: 'spend_down',
};

/** EB01 codes that say the patient is covered, and those that say they are not. */
export const ACTIVE_COVERAGE_CODES = new Set(['1', '2', '3', '4', '5']);
export const INACTIVE_COVERAGE_CODES = new Set(['6', '7', '8']);
/** EB01 codes that describe a benefit of a plan, which only a covered patient has. */
export const BENEFIT_ROW_CODES = new Set(['A', 'B', 'C', 'CB', 'D', 'F', 'G', 'H', 'J']);

/** EB02, Coverage Level Code. Codes without a word of their own read as `other`. */
const LEVEL_CODES: Readonly<Record<string, BenefitLevel>> = {
  IND: 'individual',
  EMP: 'individual',
  FAM: 'family',
  ESP: 'employee_and_spouse',
  ECH: 'employee_and_children',
};
const LEVEL_WRITTEN: Readonly<Record<BenefitLevel, string>> = {
  individual: 'IND',
  family: 'FAM',
  employee_and_spouse: 'ESP',
  employee_and_children: 'ECH',
  other: 'TWO',
};

/** EB12, In Plan Network Indicator. `both` has no code of its own: it is written as W. */
const NETWORK_CODES: Readonly<Record<string, NetworkIndicator>> = {
  Y: 'in_network',
  N: 'out_of_network',
  W: 'not_applicable',
  U: 'unknown',
};
const NETWORK_WRITTEN: Readonly<Record<NetworkIndicator, string>> = {
  in_network: 'Y',
  out_of_network: 'N',
  not_applicable: 'W',
  both: 'W',
  unknown: 'U',
};

/** EB06, Time Period Qualifier. */
const PERIOD_CODES: Readonly<Record<string, string>> = {
  '6': 'hour',
  '7': 'day',
  '13': 'twenty_four_hours',
  '21': 'years',
  '22': 'service_year',
  '23': 'calendar_year',
  '24': 'year_to_date',
  '25': 'contract',
  '26': 'episode',
  '27': 'visit',
  '28': 'outlier',
  '29': 'remaining',
  '30': 'exceeded',
  '31': 'not_exceeded',
  '32': 'lifetime',
  '33': 'lifetime_remaining',
  '34': 'month',
  '35': 'week',
  '36': 'admission',
};
/** The period of an accumulator whose total row carries no EB06, as many payers send it. */
export const UNSPECIFIED_PERIOD = 'unspecified';
/** EB06 values that give what is left of a total rather than a total. */
export const REMAINING_PERIOD = '29';
export const LIFETIME_REMAINING_PERIOD = '33';
export const LIFETIME_PERIOD = '32';

/** AAA03, Reject Reason Code, as the implementation guide words them. */
const REJECTION_REASONS: Readonly<Record<string, string>> = {
  '04': 'Authorized Quantity Exceeded',
  '15': 'Required application data missing',
  '33': 'Input Errors',
  '35': 'Out of Network',
  '41': 'Authorization/Access Restrictions',
  '42': 'Unable to Respond at Current Time',
  '43': 'Invalid/Missing Provider Identification',
  '44': 'Invalid/Missing Provider Name',
  '45': 'Invalid/Missing Provider Specialty',
  '46': 'Invalid/Missing Provider Phone Number',
  '47': 'Invalid/Missing Provider State',
  '48': 'Invalid/Missing Referring Provider Identification Number',
  '49': 'Provider is Not Primary Care Physician',
  '50': 'Provider Ineligible for Inquiries',
  '51': 'Provider Not on File',
  '52': 'Service Dates Not Within Provider Plan Enrollment',
  '53': 'Inquired Benefit Inconsistent with Provider Type',
  '54': 'Inappropriate Product/Service ID Qualifier',
  '55': 'Inappropriate Product/Service ID',
  '56': 'Inappropriate Date',
  '57': 'Invalid/Missing Date(s) of Service',
  '58': 'Invalid/Missing Date-of-Birth',
  '60': 'Date of Birth Follows Date(s) of Service',
  '61': 'Date of Death Precedes Date(s) of Service',
  '62': 'Date of Service Not Within Allowable Inquiry Period',
  '63': 'Date of Service in Future',
  '64': 'Invalid/Missing Patient ID',
  '65': 'Invalid/Missing Patient Name',
  '66': 'Invalid/Missing Patient Gender Code',
  '67': 'Patient Not Found',
  '68': 'Duplicate Patient ID Number',
  '69': 'Inconsistent with Patient’s Age',
  '70': 'Inconsistent with Patient’s Gender',
  '71': 'Patient Birth Date Does Not Match That for the Patient on the Database',
  '72': 'Invalid/Missing Subscriber/Insured ID',
  '73': 'Invalid/Missing Subscriber/Insured Name',
  '74': 'Invalid/Missing Subscriber/Insured Gender Code',
  '75': 'Subscriber/Insured Not Found',
  '76': 'Duplicate Subscriber/Insured ID Number',
  '77': 'Subscriber Found, Patient Not Found',
  '78': 'Subscriber/Insured Not in Group/Plan Identified',
  '79': 'Invalid Participant Identification',
  '80': 'No Response received - Transaction Terminated',
  '97': 'Invalid or Missing Provider Address',
  AA: 'Authorization Number Not Found',
  AE: 'Requires Primary Care Physician Authorization',
  AF: 'Invalid/Missing Diagnosis Code(s)',
  AG: 'Invalid/Missing Procedure Code(s)',
  AO: 'Additional Patient Condition Information Required',
  CI: 'Certification Information Does Not Match Patient',
  E8: 'Requires Medical Review',
  IA: 'Invalid Authorization Number Format',
  MA: 'Missing Authorization Number',
  T4: 'Payer Name or Identifier Missing',
};

/** EB04, Insurance Type Code, for the codes that say which kind of plan it is. */
const INSURANCE_TYPES: Readonly<Record<string, PlanType>> = {
  MA: 'medicare',
  MB: 'medicare',
  MP: 'medicare',
  SP: 'medicare',
  HN: 'medicare_advantage',
  MC: 'medicaid',
  QM: 'medicaid',
  CH: 'tricare',
  C1: 'commercial',
  CO: 'commercial',
  CP: 'commercial',
  EP: 'commercial',
  GP: 'commercial',
  HM: 'commercial',
  HS: 'commercial',
  IN: 'commercial',
  IP: 'commercial',
  PR: 'commercial',
  PS: 'commercial',
  OT: 'other',
  WC: 'other',
  AP: 'other',
};

export function benefitName(code: string): string {
  return BENEFIT_CODES[code] ?? `eb01_${code}`;
}

export function benefitCode(name: string): string | undefined {
  if (name.startsWith('eb01_')) return name.slice('eb01_'.length);
  return Object.keys(BENEFIT_CODES).find((code) => BENEFIT_CODES[code] === name);
}

export function levelName(code: string): BenefitLevel | null {
  if (code === '') return null;
  return LEVEL_CODES[code] ?? 'other';
}

export function levelCode(level: BenefitLevel | null): string {
  return level === null ? '' : LEVEL_WRITTEN[level];
}

export function networkName(code: string): NetworkIndicator | null {
  if (code === '') return null;
  return NETWORK_CODES[code] ?? 'unknown';
}

export function networkCode(network: NetworkIndicator | null): string {
  return network === null ? '' : NETWORK_WRITTEN[network];
}

export function periodName(code: string): string {
  if (code === '') return UNSPECIFIED_PERIOD;
  return PERIOD_CODES[code] ?? `eb06_${code}`;
}

export function periodCode(name: string): string | undefined {
  if (name === UNSPECIFIED_PERIOD) return '';
  if (name.startsWith('eb06_')) return name.slice('eb06_'.length);
  return Object.keys(PERIOD_CODES).find((code) => PERIOD_CODES[code] === name);
}

export function planTypeOf(insuranceTypeCode: string | null): PlanType | null {
  return insuranceTypeCode === null ? null : (INSURANCE_TYPES[insuranceTypeCode] ?? null);
}

/** What an AAA03 or AAA04 code looks like; anything else is not repeated, since it could be anything. */
const CODE_SHAPE = /^[A-Z0-9]{1,3}$/;

/**
 * Builds the rejection an AAA segment states, worded from the code list. A code of another shape
 * is reported as `unrecognized`, so no free text from the wire reaches a case's error.
 */
export function eligibilityRejection(
  level: RejectionLevel,
  code: string,
  followUp: string | null = null,
): EligibilityRejection {
  if (!CODE_SHAPE.test(code)) {
    return {
      level,
      code: 'unrecognized',
      reason: 'A reject reason code outside the code list',
      follow_up: null,
    };
  }
  return {
    level,
    code,
    reason: REJECTION_REASONS[code] ?? `Reject reason code ${code}`,
    follow_up: followUp !== null && CODE_SHAPE.test(followUp) ? followUp : null,
  };
}
