/**
 * Whether an enrollment meets a support program's eligibility rules. Pure and deterministic: age is
 * computed against `facts.asOf`, never the clock, and the poverty guidelines are imported rather than
 * read from disk, so the rules may also run inside workflow code.
 */
import type { PlanType } from '../cases/case-model';
import povertyGuidelinesFile from '../../catalog/federal-poverty-guidelines.json';
import type { EnrollmentFacts, ProgramDecision, SupportProgram } from './program-model';

export type ProgramRuleName =
  | 'drug_not_covered_by_program'
  | 'insurance_type_excluded'
  | 'insurance_type_required'
  | 'insurance_required'
  | 'insurance_not_allowed'
  | 'min_age'
  | 'max_age'
  | 'residency'
  | 'income_above_limit';

/** The evidence item an enrollment supplies household income in, and the keys its `content` must hold. */
export const INCOME_EVIDENCE_TYPE = 'income_verification';
export const INCOME_EVIDENCE_CONTENT_FIELDS = {
  householdSize: 'household_size',
  annualHouseholdIncomeCents: 'annual_household_income_cents',
} as const;

/** Where in an enrollment request each fact comes from: the `field` of `missing_information`. */
export const ENROLLMENT_FACT_FIELDS = {
  drugName: 'prescription.drug_name',
  insurance: 'patient.insurance_details',
  dateOfBirth: 'patient.date_of_birth',
  country: 'patient.address.country',
  incomeEvidence: `evidence[type=${INCOME_EVIDENCE_TYPE}]`,
} as const;

type Reason = ProgramDecision['reasons'][number];
type MissingInformation = ProgramDecision['missing_information'][number];

type RuleResult =
  | { outcome: 'passed' }
  | { outcome: 'failed'; reason: Reason }
  | { outcome: 'unknown'; missing: MissingInformation };

const PASSED: RuleResult = { outcome: 'passed' };

function failed(rule: ProgramRuleName, description: string): RuleResult {
  return { outcome: 'failed', reason: { rule, description } };
}

function unknown(field: string, reason: string): RuleResult {
  return { outcome: 'unknown', missing: { field, reason } };
}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

type RuleCheck = (program: SupportProgram, facts: EnrollmentFacts, asOf: CalendarDate) => RuleResult;

/**
 * The words of a drug name, lowercased. Hyphens stay inside words so that a biosimilar
 * ("adalimumab-atto") is not mistaken for the reference product's generic name ("adalimumab").
 */
function drugNameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .map((word) => word.replace(/^-+|-+$/g, ''))
    .filter((word) => word.length > 0);
}

function containsWordSequence(words: string[], sequence: string[]): boolean {
  if (sequence.length === 0) return false;
  for (let start = 0; start + sequence.length <= words.length; start++) {
    if (sequence.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/** Whether a prescribed drug ("Ozempic 1 mg pen", "dupilumab 300 mg/2 mL") is one the program lists. */
export function programCoversDrug(program: SupportProgram, drugName: string): boolean {
  const prescribed = drugNameWords(drugName);
  return program.drugs.some((listed) => containsWordSequence(prescribed, drugNameWords(listed)));
}

const checkDrug: RuleCheck = (program, facts) => {
  const listed = program.drugs.join(', ');
  if (!facts.drug_name?.trim()) {
    return unknown(
      ENROLLMENT_FACT_FIELDS.drugName,
      `The program covers only ${listed}; name the prescribed drug.`,
    );
  }
  return programCoversDrug(program, facts.drug_name)
    ? PASSED
    : failed(
        'drug_not_covered_by_program',
        `The prescribed drug is not one the program covers; it covers only ${listed}.`,
      );
};

const PLAN_TYPE_LABELS: Record<PlanType, string> = {
  commercial: 'commercial insurance',
  medicare: 'Medicare',
  medicare_advantage: 'Medicare Advantage',
  medicaid: 'Medicaid',
  tricare: 'TRICARE',
  other: 'another type of insurance',
};

function inWords(items: string[], conjunction: 'and' | 'or'): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

function planTypesInWords(planTypes: PlanType[]): string {
  return inWords(
    planTypes.map((planType) => PLAN_TYPE_LABELS[planType]),
    'or',
  );
}

function insuranceUnknown(): RuleResult {
  return unknown(
    ENROLLMENT_FACT_FIELDS.insurance,
    "The program's rules depend on the patient's insurance; give the insurance details, or state that the patient has no insurance.",
  );
}

const checkInsuranceTypesExcluded: RuleCheck = (program, facts) => {
  const excluded = program.eligibility.insurance_types_excluded ?? [];
  if (excluded.length === 0) return PASSED;
  if (facts.insurance_type === undefined) return insuranceUnknown();
  return facts.insurance_type !== null && excluded.includes(facts.insurance_type)
    ? failed(
        'insurance_type_excluded',
        `The program excludes patients covered by ${planTypesInWords(excluded)}; the patient is covered by ${PLAN_TYPE_LABELS[facts.insurance_type]}.`,
      )
    : PASSED;
};

const checkInsuranceTypesRequired: RuleCheck = (program, facts) => {
  const required = program.eligibility.insurance_types_required ?? [];
  if (required.length === 0) return PASSED;
  if (facts.insurance_type === undefined) return insuranceUnknown();
  if (facts.insurance_type !== null && required.includes(facts.insurance_type)) return PASSED;
  const patientCoverage =
    facts.insurance_type === null
      ? 'the patient has no insurance'
      : `the patient is covered by ${PLAN_TYPE_LABELS[facts.insurance_type]}`;
  return failed(
    'insurance_type_required',
    `The program requires ${planTypesInWords(required)}; ${patientCoverage}.`,
  );
};

const checkRequiresInsurance: RuleCheck = (program, facts) => {
  const requiresInsurance = program.eligibility.requires_insurance;
  if (requiresInsurance === undefined) return PASSED;
  if (facts.insurance_type === undefined) return insuranceUnknown();
  if (requiresInsurance && facts.insurance_type === null) {
    return failed(
      'insurance_required',
      'The program requires the patient to have insurance; the patient has none.',
    );
  }
  if (!requiresInsurance && facts.insurance_type !== null) {
    return failed(
      'insurance_not_allowed',
      `The program is for patients without insurance; the patient is covered by ${PLAN_TYPE_LABELS[facts.insurance_type]}.`,
    );
  }
  return PASSED;
};

function parseCalendarDate(text: string): CalendarDate | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const isRealDate =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isRealDate ? { year, month, day } : undefined;
}

function isBefore(date: CalendarDate, other: CalendarDate): boolean {
  return (
    date.year < other.year ||
    (date.year === other.year &&
      (date.month < other.month || (date.month === other.month && date.day < other.day)))
  );
}

/** Whole years lived on `asOf`; a birthday on `asOf` counts, and 29 February birthdays fall on 1 March. */
function completedYears(birth: CalendarDate, asOf: CalendarDate): number {
  const birthdayStillAhead = asOf.month < birth.month || (asOf.month === birth.month && asOf.day < birth.day);
  return asOf.year - birth.year - (birthdayStillAhead ? 1 : 0);
}

function patientAge(facts: EnrollmentFacts, asOf: CalendarDate): number | RuleResult {
  if (!facts.date_of_birth) {
    return unknown(
      ENROLLMENT_FACT_FIELDS.dateOfBirth,
      "The program has an age limit; give the patient's date of birth.",
    );
  }
  const birth = parseCalendarDate(facts.date_of_birth);
  if (!birth || isBefore(asOf, birth)) {
    return unknown(
      ENROLLMENT_FACT_FIELDS.dateOfBirth,
      'The program has an age limit; the date of birth must be a calendar date (YYYY-MM-DD) not in the future.',
    );
  }
  return completedYears(birth, asOf);
}

const checkMinAge: RuleCheck = (program, facts, asOf) => {
  const minimum = program.eligibility.min_age;
  if (minimum === undefined) return PASSED;
  const age = patientAge(facts, asOf);
  if (typeof age !== 'number') return age;
  return age >= minimum ? PASSED : failed('min_age', `The program is for patients aged ${minimum} or older.`);
};

const checkMaxAge: RuleCheck = (program, facts, asOf) => {
  const maximum = program.eligibility.max_age;
  if (maximum === undefined) return PASSED;
  const age = patientAge(facts, asOf);
  if (typeof age !== 'number') return age;
  return age <= maximum
    ? PASSED
    : failed('max_age', `The program is for patients aged ${maximum} or younger.`);
};

/** Letters only, uppercased, so "U.S.", "us" and "United States" compare by their letters. */
function regionKey(text: string): string {
  return text.toUpperCase().replace(/[^A-Z]/g, '');
}

const REGION_ALIASES: Record<string, string> = {
  USA: 'US',
  UNITEDSTATES: 'US',
  UNITEDSTATESOFAMERICA: 'US',
  PUERTORICO: 'PR',
  GUAM: 'GU',
  VIRGINISLANDS: 'VI',
  USVIRGINISLANDS: 'VI',
  AMERICANSAMOA: 'AS',
  NORTHERNMARIANAISLANDS: 'MP',
};

const US_TERRITORIES = new Set(['PR', 'GU', 'VI', 'AS', 'MP']);

function regionCode(text: string): string {
  const key = regionKey(text);
  return REGION_ALIASES[key] ?? key;
}

/**
 * The ISO country of residence. Territory addresses are often written as a US state ("PR", country
 * "US"); they resolve to the territory so that a program open to the states only can tell them apart.
 */
function residenceCountry(country: string, stateProvince: string | undefined): string {
  const code = regionCode(country);
  if (code === 'US' && stateProvince) {
    const state = regionCode(stateProvince);
    if (US_TERRITORIES.has(state)) return state;
  }
  return code;
}

const checkResidency: RuleCheck = (program, facts) => {
  const countries = program.eligibility.residency_countries ?? [];
  if (countries.length === 0) return PASSED;
  const allowed = inWords(countries, 'or');
  if (!facts.country?.trim()) {
    return unknown(
      ENROLLMENT_FACT_FIELDS.country,
      `The program is open only to residents of ${allowed}; give the patient's country of residence.`,
    );
  }
  const residence = residenceCountry(facts.country, facts.state_province);
  return countries.some((country) => regionCode(country) === residence)
    ? PASSED
    : failed('residency', `The program is open only to residents of ${allowed}.`);
};

interface PovertyGuideline {
  first_person_cents: number;
  each_additional_person_cents: number;
}

interface PovertyGuidelines {
  year: number;
  contiguous_states: PovertyGuideline;
  separate_states: Array<PovertyGuideline & { state: string; state_province_names: string[] }>;
}

const POVERTY_GUIDELINES: PovertyGuidelines = povertyGuidelinesFile;

function isHouseholdSize(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 1;
}

function isIncomeCents(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 0;
}

/** The HHS poverty guideline for a household; Alaska and Hawaii have their own, everywhere else the contiguous one. */
export function povertyGuidelineCents(householdSize: number, stateProvince?: string): number {
  if (!isHouseholdSize(householdSize))
    throw new RangeError('householdSize must be a whole number of at least 1');
  const state = stateProvince === undefined ? '' : regionKey(stateProvince);
  const guideline =
    POVERTY_GUIDELINES.separate_states.find((separate) =>
      separate.state_province_names.some((name) => regionKey(name) === state),
    ) ?? POVERTY_GUIDELINES.contiguous_states;
  return guideline.first_person_cents + (householdSize - 1) * guideline.each_additional_person_cents;
}

/** Household income as a percent of the poverty guideline: 200 means twice the guideline. */
export function percentOfPovertyLevel(
  householdSize: number,
  annualIncomeCents: number,
  stateProvince?: string,
): number {
  if (!isIncomeCents(annualIncomeCents)) {
    throw new RangeError('annualIncomeCents must be a whole number of cents, at least 0');
  }
  return (annualIncomeCents * 100) / povertyGuidelineCents(householdSize, stateProvince);
}

const checkIncome: RuleCheck = (program, facts) => {
  const limit = program.eligibility.max_income_percent_fpl;
  if (limit === undefined) return PASSED;
  const { household_size: householdSize, annual_household_income_cents: incomeCents } = facts;
  if (!isHouseholdSize(householdSize) || !isIncomeCents(incomeCents)) {
    const { householdSize: sizeField, annualHouseholdIncomeCents: incomeField } =
      INCOME_EVIDENCE_CONTENT_FIELDS;
    return unknown(
      ENROLLMENT_FACT_FIELDS.incomeEvidence,
      `The program limits household income to ${limit}% of the federal poverty level; add an evidence item of type ${INCOME_EVIDENCE_TYPE} whose content holds ${sizeField} (the number of people in the household, at least 1) and ${incomeField} (the household's yearly income in whole cents).`,
    );
  }
  const percent = percentOfPovertyLevel(householdSize, incomeCents, facts.state_province);
  // Rounded up, so an income just over the limit never reads as equal to it.
  const shownPercent = Math.ceil(percent * 10) / 10;
  return percent <= limit
    ? PASSED
    : failed(
        'income_above_limit',
        `Household income is ${shownPercent}% of the federal poverty level, above the program's limit of ${limit}%.`,
      );
};

const RULE_CHECKS: RuleCheck[] = [
  checkDrug,
  checkInsuranceTypesExcluded,
  checkInsuranceTypesRequired,
  checkRequiresInsurance,
  checkMinAge,
  checkMaxAge,
  checkResidency,
  checkIncome,
];

/**
 * Every rule is checked, so the care team sees all failures and all missing facts at once. A rule
 * that definitely fails makes the patient ineligible even while other facts are still missing.
 */
export function evaluateProgramEligibility(program: SupportProgram, facts: EnrollmentFacts): ProgramDecision {
  const asOf = parseCalendarDate(facts.asOf);
  if (!asOf) throw new RangeError('asOf must be a calendar date YYYY-MM-DD');
  const results = RULE_CHECKS.map((check) => check(program, facts, asOf));
  const reasons = results.flatMap((result) => (result.outcome === 'failed' ? [result.reason] : []));
  const missing = new Map<string, MissingInformation>();
  for (const result of results) {
    if (result.outcome === 'unknown' && !missing.has(result.missing.field)) {
      missing.set(result.missing.field, result.missing);
    }
  }
  const missingInformation = [...missing.values()];
  const decision =
    reasons.length > 0 ? 'ineligible' : missingInformation.length > 0 ? 'needs_information' : 'eligible';
  return { decision, reasons, missing_information: missingInformation };
}
