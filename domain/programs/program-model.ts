/** Manufacturer support programs and the enrollment rules they apply. Pure types. */
import type { PlanType } from '../cases/case-model';

export type ProgramType =
  'copay_card' | 'patient_assistance' | 'bridge_supply' | 'quick_start' | 'adherence' | 'education';

export interface ProgramEligibilityRules {
  /** Insurance types that may not use the program (e.g. government plans for copay cards). */
  insurance_types_excluded?: PlanType[];
  /** Insurance types the program requires (e.g. commercial only). */
  insurance_types_required?: PlanType[];
  /** true: insured patients only; false: uninsured or underinsured only (patient assistance). */
  requires_insurance?: boolean;
  min_age?: number;
  max_age?: number;
  /** ISO 3166-1 alpha-2 countries where the patient must live. */
  residency_countries?: string[];
  /** Household income at most this percent of the federal poverty level. */
  max_income_percent_fpl?: number;
}

export interface SupportProgram {
  id: string;
  object: 'support_program';
  name: string;
  manufacturer: string;
  type: ProgramType;
  /** Brand or generic names of the drugs a prescription must be for. */
  drugs: string[];
  description: string;
  benefits: string;
  eligibility: ProgramEligibilityRules;
}

/** What an enrollment tells the rules; unknown facts are undefined. */
export interface EnrollmentFacts {
  drug_name?: string;
  date_of_birth?: string;
  /** The date age is computed against (YYYY-MM-DD). */
  asOf: string;
  country?: string;
  state_province?: string;
  /** Known when the insurance resolved to a plan; null when the patient declared no insurance. */
  insurance_type?: PlanType | null;
  household_size?: number;
  annual_household_income_cents?: number;
}

export interface ProgramDecision {
  decision: 'eligible' | 'ineligible' | 'needs_information';
  /** Each rule that failed, in words a patient's care team can act on. */
  reasons: Array<{ rule: string; description: string }>;
  /** What must be supplied before the rules can decide. */
  missing_information: Array<{ field: string; reason: string }>;
}
