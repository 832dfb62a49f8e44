/**
 * What a program confirms once it enrolls a patient, one shape per kind (docs/workflows.md, "What an
 * enrollment confirms"). Pure types.
 */
import type { ContactChannel } from './program-model';

interface ConfirmationBase {
  /** Last day of the enrollment (YYYY-MM-DD); the same date as the outcome's `valid_until`. */
  valid_until: string;
}

/** Free drug shipped by the program's pharmacy: who ships it, where to and when the first box is due. */
export interface FulfillmentConfirmation extends ConfirmationBase {
  pharmacy_name: string;
  ship_to: 'patient_home' | 'prescriber_office';
  first_shipment_expected_by: string;
}

/** A copay card: the identifiers a pharmacy bills the program's secondary claim with. */
export interface CopayCardConfirmation extends ConfirmationBase {
  kind: 'copay_card';
  member_id: string;
  bin: string;
  pcn: string;
  group: string;
}

/** Patient assistance: free drug for the enrollment year, kept by certifying income again before it ends. */
export interface FreeDrugFulfillmentConfirmation extends FulfillmentConfirmation {
  kind: 'free_drug_fulfillment';
  days_supply_per_shipment: number;
  reverification_due_on: string;
}

/** Bridge supply: free drug while the insurer decides, rechecked on a schedule. */
export interface BridgeSupplyFulfillmentConfirmation extends FulfillmentConfirmation {
  kind: 'bridge_supply_fulfillment';
  coverage_recheck_on: string;
}

/** Quick start: a fixed number of free fills so treatment starts before coverage is settled. */
export interface QuickStartFulfillmentConfirmation extends FulfillmentConfirmation {
  kind: 'quick_start_fulfillment';
  fills_approved: number;
}

/** Education or nurse support: how the program will reach the patient, and by when it first does. */
export interface EducationEnrollmentConfirmation extends ConfirmationBase {
  kind: 'education_enrollment';
  contact_channels: ContactChannel[];
  support_hours: string;
  first_outreach_by: string;
}

/** Adherence: the reminders the patient will receive, and when the program first reaches out. */
export interface AdherenceEnrollmentConfirmation extends ConfirmationBase {
  kind: 'adherence_enrollment';
  reminder_channels: ContactChannel[];
  reminder_schedule: 'before_each_refill' | 'weekly_dose_day';
  first_outreach_by: string;
}

export type EnrollmentConfirmation =
  | CopayCardConfirmation
  | FreeDrugFulfillmentConfirmation
  | BridgeSupplyFulfillmentConfirmation
  | QuickStartFulfillmentConfirmation
  | EducationEnrollmentConfirmation
  | AdherenceEnrollmentConfirmation;
