import type {
  CaseEvidenceItem,
  CasePatient,
  Diagnosis,
  InsuranceContent,
  PlanType,
  Questionnaire,
  VisitNote,
} from '../cases/case-model';
import type { DrugRequest } from '../cases/benefit-verification-request';
import type {
  ClinicalEvidence,
  EvaluationLimits,
  PriorAuthRequirement,
  UnreadEvidence,
} from '../clinical/clinical-model';
import type { BenefitAccumulator, EligibilityRejection, PharmacyBenefit } from './eligibility';
import type { UnreadCardCode } from './card-fields';

/**
 * How cases talk to payers. Local mode uses the deterministic simulator over the shipped catalog;
 * real connectors (clearinghouse eligibility, ePA) implement the same interface.
 */

/** What the service knows about a patient's insurance: discrete data, text cards and card images. */
export interface InsuranceEvidence {
  content?: InsuranceContent;
  /** Insurance card documents sent as UTF-8 text (the sandbox's text cards). */
  cardTexts: string[];
  /**
   * The card read from images and PDFs, front and back together (docs/documents.md); beside discrete
   * data, only a card of the same member.
   */
  scannedCard?: ScannedCardFields;
}

/**
 * The fields read from a card with the confidence their thresholds ask (domain/payers/card-field-shapes.ts);
 * a field the reader was not sure of is absent. `text` is the card's whole text, for finding the
 * payer's name when no label gives it.
 */
export interface ScannedCardFields {
  payer_name?: string;
  plan_name?: string;
  member_id?: string;
  group_number?: string;
  rx_bin?: string;
  rx_pcn?: string;
  rx_group?: string;
  /** The card fields the reader could not read with confidence, by name, for the case's reason. */
  unread: string[];
  text: string;
  /** The names of the case documents the card was read from (`insurance_1`), for the case's reason. */
  documents: string[];
}

export interface ResolvedPlan {
  payer_id: string;
  payer_name: string;
  plan_id: string;
  plan_name: string;
  plan_type: PlanType;
  plan_fund_source: 'commercial' | 'government';
  bin: string;
  pcn: string;
  pharmacy_benefit_manager_name: string;
  member_id: string;
  /** The plan's group, which a 270 names so the payer finds the right coverage of the member. */
  rx_group?: string;
}

export type PlanResolution =
  | { resolved: true; plan: ResolvedPlan }
  /** `code` when the plan could not be found because the card the case relies on could not be read. */
  | { resolved: false; reason: string; code?: UnreadCardCode };

export type { PriorAuthRequirement };

export interface DrugCoverage {
  /** As requested (name or NDC), so a caller can match results to its request. */
  drug: string;
  ndc: string | null;
  /** `unknown` when nothing answers for the drug (no formulary data); `unknown_reason` says why. */
  coverage: 'covered' | 'not_covered' | 'unknown';
  coverage_detail_code: string;
  unknown_reason: string | null;
  /** Medical-benefit drugs (infusions billed with a HCPCS J-code) are not priced as pharmacy claims. */
  benefit_type: 'pharmacy' | 'medical';
  hcpcs_code: string | null;
  coinsurance_percent: number | null;
  quantity_limit_period_days: number | null;
  /** Who answered: the plan's formulary data, a person who verified it manually, or nobody (unknown). */
  source: 'formulary' | 'manual' | null;
  tier: number | null;
  prior_authorization_required: PriorAuthRequirement;
  step_therapy_required: boolean;
  quantity_limit: number | null;
  copay: { amount_cents: number; supply_duration_days: number } | null;
  copay_options: Array<{ amount_cents: number; supply_duration_days: number }>;
  determination_details: { is_on_formulary: boolean; is_explicit_plan_exclusion: boolean };
  has_active_prior_auth: boolean;
}

export interface BenefitsOutcome {
  coverage_status:
    | 'covered'
    | 'patient_not_found'
    | 'coverage_expired'
    | 'coverage_not_started'
    | 'patient_consent_required';
  coverage_type: PlanType | null;
  plan_fund_source: 'commercial' | 'government' | null;
  pharmacy_benefit_manager_name: string | null;
  payer_name: string | null;
  plan_name: string | null;
  bin: string | null;
  pcn: string | null;
  deductible: { total_cents: number; met_cents: number; remaining_cents: number } | null;
  out_of_pocket: { total_cents: number; met_cents: number; remaining_cents: number } | null;
  drugs: DrugCoverage[];
  coverage_dates: { start_date: string | null; end_date: string | null } | null;
  pharmacy_benefits: PharmacyBenefit[];
  accumulators: BenefitAccumulator[];
  /** The payer's free-text messages (MSG), which often carry what the codes cannot. */
  payer_messages: string[];
  /** The payer's AAA rejection behind a coverage status such as `patient_not_found`. */
  rejection: EligibilityRejection | null;
}

/**
 * A drug's result with no formulary terms behind it: not covered, not on a formulary, nothing to
 * pay. The results that are not a formulary entry's (not covered, unknown, medical benefit) start here.
 */
export function drugWithoutFormularyTerms(drug: string, ndc: string | null): DrugCoverage {
  return {
    drug,
    ndc,
    coverage: 'not_covered',
    coverage_detail_code: 'not_on_formulary',
    tier: null,
    prior_authorization_required: 'not_applicable',
    step_therapy_required: false,
    quantity_limit: null,
    copay: null,
    copay_options: [],
    determination_details: { is_on_formulary: false, is_explicit_plan_exclusion: false },
    has_active_prior_auth: false,
    ...PHARMACY_FORMULARY_ANSWER,
  };
}

export type EligibilityDetails = Pick<
  BenefitsOutcome,
  'coverage_dates' | 'pharmacy_benefits' | 'accumulators' | 'payer_messages' | 'rejection'
>;

/** The 271-derived fields of a result that no eligibility response stands behind. */
export function noEligibilityDetails(): EligibilityDetails {
  return {
    coverage_dates: null,
    pharmacy_benefits: [],
    accumulators: [],
    payer_messages: [],
    rejection: null,
  };
}

/** The per-drug fields a pharmacy formulary entry leaves at their defaults. */
export const PHARMACY_FORMULARY_ANSWER: Pick<
  DrugCoverage,
  | 'unknown_reason'
  | 'benefit_type'
  | 'hcpcs_code'
  | 'coinsurance_percent'
  | 'quantity_limit_period_days'
  | 'source'
> = Object.freeze({
  unknown_reason: null,
  benefit_type: 'pharmacy',
  hcpcs_code: null,
  coinsurance_percent: null,
  quantity_limit_period_days: null,
  source: 'formulary',
});

/**
 * The answer of an eligibility and drug-coverage check: a result, an error the payer returned
 * (a final failure), or inconclusive (a person must verify manually).
 */
export type BenefitsCheck =
  | { kind: 'completed'; outcome: BenefitsOutcome }
  | { kind: 'failed'; error: { title: string; code: string; detail_code: string; message: string } }
  | { kind: 'inconclusive'; reason: string };

export interface BenefitsCheckInput {
  insurance: InsuranceEvidence;
  patient: Pick<CasePatient, 'first_name' | 'last_name' | 'date_of_birth'>;
  drugs: DrugRequest[];
  /** Sandbox: a case name of the catalog's BV mock results, forcing the answer. */
  mockCase?: string;
  mockStatus?: 'completed' | 'failed';
  /** Sandbox only: the simulated payer is unavailable until then (`mock_result.outage`). */
  mockOutageUntil?: string;
}

/** One PA criterion of the plan for the drug, with whether the submitted record meets it. */
export interface CriterionAnswer {
  id: string;
  question: string;
  answer: 'yes' | 'no' | 'unknown';
  /** Where the answer came from: "diagnosis E11.9", "evidence: A1c 8.1 %", … (clinician-readable). */
  source: string | null;
}

export interface PriorAuthPrefillInput {
  plan: ResolvedPlan | null;
  drug: DrugRequest;
  patient: Pick<CasePatient, 'date_of_birth' | 'gender'>;
  diagnoses: Diagnosis[];
  /** The evidence as the criteria engine reads it: file assets already turned into their pages' text. */
  evidence: ClinicalEvidence[];
  questionnaires: Questionnaire[];
  visitNotes: VisitNote[];
  /** Sandbox only: the simulated payer is unavailable until then (`mock_result.outage`). */
  mockOutageUntil?: string;
}

/** What a prior authorization asks the prefill with: its evidence as the case keeps it (assets by reference). */
export type PriorAuthPrefillRequest = Omit<PriorAuthPrefillInput, 'evidence'> & {
  evidence: CaseEvidenceItem[];
};

export interface PriorAuthPrefill {
  /** The formulary's entry for the drug on this plan, if the plan and drug are known. */
  coverage: DrugCoverage | null;
  criteria: CriterionAnswer[];
  /** The request's evidence the answers could not see (set by the activity, which reads the files). */
  unread?: UnreadEvidence[];
}

export type PriorAuthResult = 'approved' | 'denied' | 'other';

export interface PriorAuthSubmissionInput {
  /** The case id: a real connector's idempotency key, so a retried submission is not filed twice. */
  caseId: string;
  plan: ResolvedPlan | null;
  drug: DrugRequest;
  urgency: 'standard' | 'expedited';
  criteria: CriterionAnswer[];
  /** Sandbox: forces the payer's determination. */
  mockResult?: { result: PriorAuthResult; detail_code?: string };
}

export interface PriorAuthDetermination {
  result: PriorAuthResult;
  detail_code: string;
  detail: string;
  payer_reference: string;
  decided_at: string;
  authorization_start_date: string | null;
  authorization_expiration: string | null;
}

export interface PayerConnector {
  resolvePlan(insurance: InsuranceEvidence): Promise<PlanResolution>;
  checkBenefits(input: BenefitsCheckInput): Promise<BenefitsCheck>;
  /** `limits.deadline` bounds the clinical text reading behind the answers (see EvaluationPool). */
  prefillPriorAuthorization(
    input: PriorAuthPrefillInput,
    limits?: EvaluationLimits,
  ): Promise<PriorAuthPrefill>;
  /** Sends the PA to the payer; returns the payer's reference for later status checks. */
  submitPriorAuthorization(input: PriorAuthSubmissionInput): Promise<{ payer_reference: string }>;
  /**
   * Asks for the determination of a submitted PA. `checksSoFar` lets the simulator answer "pending"
   * first, like a payer that takes a while; null means not decided yet.
   */
  checkDetermination(
    input: PriorAuthSubmissionInput & { payer_reference: string; checksSoFar: number },
  ): Promise<PriorAuthDetermination | null>;
}
