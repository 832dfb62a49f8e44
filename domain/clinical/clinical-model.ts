/**
 * Clinical eligibility (contract section 3, CE outcome): the record a check evaluates and what it
 * returns. Pure types: workflow code imports them.
 */
import type { PlanType, Questionnaire, VisitNote } from '../cases/case-model';

export interface ClinicalDiagnosisInput {
  code?: string;
  description?: string;
}

/** One piece of supporting evidence: JSON content, or the text of a file asset when it is text. */
export interface ClinicalEvidence {
  title: string;
  date_created: string;
  content?: Record<string, unknown>;
  /** Text of a file asset: as sent, from a PDF's text layer, or recognised from a scan or image. */
  text?: string;
  /** The text was recognised from pixels (OCR): its look-alike characters are read where one reading fits. */
  recognised?: boolean;
  /**
   * The same page read by the second, independent recogniser. It fills in what `text` gives no fact of
   * (a measurement it does not name, a therapy it does not mention) and never overrides what `text` says.
   */
  secondReading?: string;
}

export interface ClinicalRecord {
  patient: { date_of_birth: string; gender: 'male' | 'female' | 'other' | 'not_specified' };
  /** The date ages and recency are computed against (YYYY-MM-DD), so evaluation is deterministic. */
  asOf: string;
  drugs: Array<{ name: string; dosage?: string; quantity: number }>;
  diagnoses: ClinicalDiagnosisInput[];
  questionnaires: Questionnaire[];
  visitNotes: VisitNote[];
  evidence: ClinicalEvidence[];
}

/** How a submitted diagnosis was understood: the code wins when both are given. */
export interface ResolvedDiagnosis {
  input: ClinicalDiagnosisInput;
  code: string | null;
  description: string | null;
  resolved_by: 'code' | 'description' | 'unresolved';
}

export interface EvidenceCitation {
  /** Where it was found: `diagnosis E11.9`, `visit note 2026-10-02`, `questionnaire: "…"`, `evidence "Lab results"`. */
  source: string;
  /** The words that decided it, e.g. `BMI 32.4` or `metformin for 6 months`. */
  excerpt: string;
}

export interface CriterionResult {
  id: string;
  description: string;
  status: 'met' | 'not_met' | 'unknown';
  evidence: EvidenceCitation[];
}

export interface DrugEligibility {
  drug: string;
  /** The catalog drug matched, or null when the drug is not in the criteria catalog. */
  catalog_drug: string | null;
  status: 'qualified' | 'unqualified' | 'unknown';
  criteria: CriterionResult[];
  unqualified_reasons: Array<{ description: string }>;
  /** Whether `prior_authorization_requirement` is `yes`, as a boolean (the field's shape since v1). */
  prior_authorization_required: boolean | null;
  /**
   * As benefit verification says it for the patient's plan (its formulary); without a plan, what most
   * sandbox plans say. Null when the drug is not in the catalog.
   */
  prior_authorization_requirement: PriorAuthRequirement | null;
}

/**
 * Whether a plan requires prior authorization for a drug, in benefit verification's words. Defined
 * here, beside the clinical outcome that reports it, so payer and clinical types need no cycle.
 */
export type PriorAuthRequirement = 'yes' | 'no' | 'not_applicable';

/** What the patient's plan tells clinical eligibility: whose criteria apply and whether PA is required. */
export interface PlanFormulary {
  /** The formulary whose plan-specific criteria apply; null applies each drug's own criteria. */
  formularyId: string | null;
  priorAuthorizationFor(drugId: string): PriorAuthRequirement;
}

/** The plan a check was evaluated against, as the outcome reports it. */
export type EvaluatedPlan =
  | { resolved: true; payer_name: string; plan_name: string; plan_type: PlanType }
  | { resolved: false; reason: string };

/** Text of an evidence file asset beyond the reading caps: it was not evaluated. */
export interface UnreadEvidence {
  title: string;
  bytes_unread: number;
  /** Why a document, or some of its pages, was not read (docs/documents.md); absent for a byte cap. */
  reason?: string;
}

export interface ClinicalEligibilityOutcome {
  results: DrugEligibility[];
  diagnoses: ResolvedDiagnosis[];
  /**
   * The plan the request's `insurance_content` named, or why none in the catalog matched; absent when
   * the request carried no insurance data (then each drug's own criteria apply).
   */
  plan?: EvaluatedPlan;
  /** Present when a text asset was longer than the caps (first 256 KiB per asset, 1 MiB per case). */
  unread?: UnreadEvidence[];
}

/** Bounds a caller puts on one task, beyond the pool's own per-task time limit. */
export interface EvaluationLimits {
  /** Epoch milliseconds after which the caller no longer waits (its activity attempt's end, less a margin). */
  deadline?: number;
}
