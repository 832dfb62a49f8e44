/**
 * The shapes every case type shares (contract section 3). Pure types and constants: workflow code
 * imports this module, so it must stay free of I/O and Node built-ins.
 */

export const CASE_STATUSES = [
  'processing',
  'awaiting_review',
  'awaiting_outcome',
  'completed',
  'failed',
  'cancelled',
] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const FINAL_STATUSES: readonly CaseStatus[] = ['completed', 'failed', 'cancelled'];

export type CaseObjectType =
  'prior_authorization' | 'benefit_verification' | 'clinical_eligibility' | 'patient_enrollment';

export interface StatusChange {
  status: CaseStatus;
  at: string;
  reason: string | null;
}

export interface CaseFailure {
  code: string;
  message: string;
}

/** A submitted document as cases show it: never the bytes, only what identifies them. */
export interface DocumentRef {
  document_id: string;
  name: string;
  type: string;
  sha256: string;
  size_bytes: number;
}

export interface Address {
  street: string;
  street_line_2?: string;
  city: string;
  state_province: string;
  zip_postal_code: string;
  country: string;
}

/** Patient of PA and BV requests, with insurance card images replaced by document references. */
export interface CasePatient {
  internal_id: string;
  first_name: string;
  last_name: string;
  gender: 'male' | 'female' | 'other' | 'not_specified';
  date_of_birth: string;
  address?: Address;
  email?: string;
  phone?: string;
  insurance?: DocumentRef[];
}

export type PlanType = 'commercial' | 'medicare' | 'medicare_advantage' | 'medicaid' | 'tricare' | 'other';

/** Discrete insurance card data (contract section 3a). */
export interface InsuranceContent {
  payer: string;
  /** The payer's id at the account's clearinghouse, which a live 270 addresses. */
  payer_id?: string;
  /** The policy holder, when the patient is covered as their dependent. */
  subscriber?: PolicySubscriber;
  member_id: string;
  group_number?: string;
  rx_bin?: string;
  rx_pcn?: string;
  rx_group?: string;
  plan_type?: PlanType;
}

/** Whose policy covers a dependent patient, as a 270's subscriber loop names them. */
export interface PolicySubscriber {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  /** The patient's relationship to the subscriber. */
  relationship: 'spouse' | 'child' | 'other';
}

export interface Provider {
  npi: string;
  first_name: string;
  last_name: string;
  phone?: string;
  fax?: string;
  address?: Address;
}

export interface Diagnosis {
  code: string;
  description?: string;
}

export interface EvidenceItem {
  title: string;
  date_created: string;
  content: Record<string, unknown>;
}

export interface Questionnaire {
  questions: Array<{ question: string; answer: string; choices?: string[] }>;
  created_at: string;
}

export interface VisitNote {
  content: string;
  created_at: string;
}

export interface DrugRequest {
  name?: string;
  ndc?: string;
  dosage?: string;
  quantity: number;
}

export interface Prescription {
  drug_name?: string;
  ndc?: string;
  strength?: string;
  dosage?: string;
  quantity: number;
  days_supply?: number;
  directions?: string;
}

/** A prior authorization request as the case keeps it: documents replaced by references. */
export interface PriorAuthorizationRequest {
  patient: CasePatient;
  diagnoses: Diagnosis[];
  prescription: Prescription;
  provider: Provider;
  insurance: DocumentRef[];
  insurance_content: InsuranceContent | null;
  evidence: EvidenceItem[];
  questionnaires: Questionnaire[];
  visit_notes: VisitNote[];
  is_training_data: boolean;
  urgency: 'standard' | 'expedited';
  /** The sandbox's forced answer: one of PRIOR_AUTH_MOCK_RESULTS (payers/prior-authorization-exchange.ts). */
  mock_result: {
    result: 'approved' | 'denied' | 'partially_approved' | 'other' | 'not_submitted';
    detail_code?: string;
  } | null;
}

export interface BenefitVerificationRequest {
  patient: CasePatient;
  drugs: DrugRequest[];
  provider: Provider;
  insurance: DocumentRef[];
  insurance_content: InsuranceContent | null;
  diagnoses: Diagnosis[];
  mock_result: { status: 'completed' | 'failed'; case?: string } | null;
}

/** Timing of the human and payer waits; from configuration, fixed per case when it starts. */
export interface CaseTimings {
  reviewReminderMs: number;
  reviewExpiryMs: number;
  payerPollIntervalMs: number;
}

/** A clinical eligibility evidence item as the case keeps it: a file asset becomes a document reference. */
export interface ClinicalEvidenceItem {
  title: string;
  date_created: string;
  content?: Record<string, unknown>;
  asset?: DocumentRef & { fileType: string };
}

export interface ClinicalEligibilityRequest {
  patient: CasePatient;
  drugs: Array<{ name: string; dosage?: string; quantity: number }>;
  diagnoses: Array<{ code?: string; description?: string }>;
  questionnaires: Questionnaire[];
  visit_notes: VisitNote[];
  evidence: ClinicalEvidenceItem[];
  /**
   * The patient's insurance: its plan's formulary gives the criteria and the PA requirement. Absent in
   * requests made before it existed, and null when not given.
   */
  insurance_content?: InsuranceContent | null;
}

/** What every case object holds, whatever its type; each type adds its own fields. */
export interface CaseRecord {
  id: string;
  object: CaseObjectType;
  status: CaseStatus;
  status_description: string;
  created_at: string;
  updated_at: string;
  status_history: StatusChange[];
  outcome: unknown;
  failure: CaseFailure | null;
  metadata: Record<string, string>;
  /**
   * The mode of the key that created the case: live cases reach payers through the account's
   * connectors, test cases the simulators. Cases started before modes have no field: they are test cases.
   */
  livemode: boolean;
}

/**
 * Messages every case type answers, exported under the names Temporal sees (plus their kind), so
 * code, runbook and Temporal Web speak of the same thing. Each case type adds its own beside its workflow.
 */
export interface CancelRequest {
  reason: string;
}
