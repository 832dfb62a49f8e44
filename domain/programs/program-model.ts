/** Manufacturer support programs and the enrollment rules they apply. Pure types. */
import type { PlanType } from '../cases/case-model';
import type { PatientAuthorizationType } from './patient-authorization';

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
  /**
   * The authorization to share the patient's data an enrollment must record before the program
   * accepts it (see patient-authorization.ts); null when the program asks for none.
   */
  patient_authorization_required: PatientAuthorizationType | null;
  /** What the program's hub confirms once the patient is enrolled (see enrollment-confirmation.ts). */
  confirmation: ProgramConfirmationTerms;
}

/** Fields every confirmation term set has: how long an enrollment lasts from the day it is confirmed. */
interface ConfirmationTermsBase {
  valid_months: number;
}

/** A pharmacy of the manufacturer's program that ships the drug at no cost. */
interface FulfillmentTerms extends ConfirmationTermsBase {
  pharmacy_name: string;
  ship_to: 'patient_home' | 'prescriber_office';
  /** Calendar days from enrollment by which the first shipment is expected. */
  first_shipment_within_days: number;
}

export type ContactChannel = 'phone' | 'text' | 'email' | 'mail';

/**
 * The terms a program confirms an enrollment on, by the kind of confirmation its type ends in. Only
 * copay programs carry pharmacy claim identifiers (BIN, PCN, group); the member id is per patient.
 */
export type ProgramConfirmationTerms =
  | (ConfirmationTermsBase & { kind: 'copay_card'; bin: string; pcn: string; group: string })
  | (FulfillmentTerms & {
      kind: 'free_drug_fulfillment';
      days_supply_per_shipment: number;
      /** Income and insurance are certified again this many days before the enrollment ends. */
      reverify_days_before_end: number;
    })
  | (FulfillmentTerms & {
      kind: 'bridge_supply_fulfillment';
      /** How often the program asks whether the insurer has decided; shipments stop once it has. */
      coverage_recheck_every_days: number;
    })
  | (FulfillmentTerms & { kind: 'quick_start_fulfillment'; fills: number })
  | (ConfirmationTermsBase & {
      kind: 'education_enrollment';
      contact_channels: ContactChannel[];
      first_outreach_within_days: number;
      /** e.g. "weekdays 8 am–8 pm ET"; the program's line, never the patient's. */
      support_hours: string;
    })
  | (ConfirmationTermsBase & {
      kind: 'adherence_enrollment';
      reminder_channels: ContactChannel[];
      reminder_schedule: 'before_each_refill' | 'weekly_dose_day';
      first_outreach_within_days: number;
    });

export type ConfirmationKind = ProgramConfirmationTerms['kind'];

/** The one kind of confirmation each program type ends in. */
export const CONFIRMATION_KIND_OF_PROGRAM_TYPE: Readonly<Record<ProgramType, ConfirmationKind>> = {
  copay_card: 'copay_card',
  patient_assistance: 'free_drug_fulfillment',
  bridge_supply: 'bridge_supply_fulfillment',
  quick_start: 'quick_start_fulfillment',
  education: 'education_enrollment',
  adherence: 'adherence_enrollment',
};

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
