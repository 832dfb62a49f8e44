import type { MeasurementName } from './measurements';
import type { DocumentKind } from './passages';

/**
 * Clinical criteria as the catalog writes them: per drug, a tree of all_of / any_of groups over leaf
 * checks (diagnosis, age, measurement, prior therapy, documentation), and how a formulary's plans differ.
 */

/**
 * The brand (or generic) names of the catalog drugs that have clinical criteria in
 * `catalog/clinical/criteria.json`. A constant rather than read from the file, so tests can name them at
 * import time without I/O; loading the catalog checks that the file defines exactly these.
 */
export const CLINICAL_CATALOG_DRUGS = [
  'Ozempic',
  'Wegovy',
  'Mounjaro',
  'Zepbound',
  'Trulicity',
  'Victoza',
  'Humira',
  'Enbrel',
  'Remicade',
  'Stelara',
  'Cosentyx',
  'Skyrizi',
  'Xeljanz',
  'Rinvoq',
  'Dupixent',
  'Xolair',
  'Nucala',
  'Fasenra',
  'Repatha',
  'Praluent',
] as const;
export type ClinicalCatalogDrugName = (typeof CLINICAL_CATALOG_DRUGS)[number];

export type AgeLimit = { years: number } | { months: number };
export type TrialLength = { days: number } | { weeks: number } | { months: number };
export type Comparator = '>=' | '>' | '<=' | '<';

export interface DiagnosisCheck {
  kind: 'diagnosis';
  /** How a sentence names the condition: "type 2 diabetes mellitus (E11.*)". */
  label: string;
  /** ICD-10-CM codes or families ("E11", "J45.5"); a submitted code in any of them meets the check. */
  code_prefixes: string[];
}

export interface AgeCheck {
  kind: 'age';
  minimum?: AgeLimit;
  maximum?: AgeLimit;
}

export interface MeasurementCheck {
  kind: 'measurement';
  name: MeasurementName;
  comparator: Comparator;
  threshold: number;
  /** The measurement's canonical unit; values written in other units are converted to it. */
  unit: string;
  /** Only values from sources at most this many days before `asOf` count. */
  max_age_days?: number;
}

export interface PriorTherapyCheck {
  kind: 'prior_therapy';
  /** How a sentence names the therapy: "metformin", "an inhaled corticosteroid". */
  label: string;
  /** Drug names and classes that count as the therapy. */
  therapies: string[];
  minimum_duration?: TrialLength;
}

export interface DocumentationCheck {
  kind: 'documentation';
  /** What must be documented, as a sentence names it: "lab results from the last 12 months". */
  label: string;
  sources: DocumentKind[];
  /** Case-insensitive regular expression over the document's text (and an evidence item's title). */
  pattern: string;
  max_age_days?: number;
}

export type CriterionCheck =
  DiagnosisCheck | AgeCheck | MeasurementCheck | PriorTherapyCheck | DocumentationCheck;

export interface CriterionLeaf {
  id: string;
  description: string;
  check: CriterionCheck;
}

interface GroupReason {
  /**
   * One sentence for the whole group when it fails, instead of one per failed criterion inside it;
   * `{criterion_id}` is replaced with the value that criterion read ("26.1 kg/m²").
   */
  unmet_reason?: string;
}
export interface AllOfGroup extends GroupReason {
  all_of: CriterionNode[];
}
export interface AnyOfGroup extends GroupReason {
  any_of: CriterionNode[];
}
export type CriterionGroup = AllOfGroup | AnyOfGroup;
export type CriterionNode = CriterionLeaf | CriterionGroup;

/**
 * A criterion a payer asks as one question: a single check, or a group answered as a whole (BMI of 30,
 * or 27 with a weight-related condition). The prior-authorization prefill answers one per question.
 */
export type TopLevelCriterion = (CriterionLeaf | CriterionGroup) & { id: string; question: string };

/** The top level of a drug's criteria: every one of them must be met. */
export interface DrugCriteriaTree {
  all_of: TopLevelCriterion[];
}

/**
 * How the plans of some formularies differ from a drug's default criteria: criteria they do not ask
 * for, and criteria they add (the step therapy their formulary lists, for instance).
 */
export interface FormularyOverride {
  formularies: string[];
  /** Why these plans differ, for a reader of the catalog. */
  reason: string;
  /** Ids of top-level criteria these plans do not ask for. */
  omit?: string[];
  add?: TopLevelCriterion[];
}

export interface DrugCriteria {
  /** The drug's id in `catalog/drugs.json`. */
  drug_id: string;
  therapeutic_area: string;
  criteria: DrugCriteriaTree;
  formulary_overrides?: FormularyOverride[];
}

/** A drug of `catalog/drugs.json` as clinical eligibility knows it. */
export interface CatalogDrugName {
  id: string;
  brand_name: string | null;
  generic_name: string;
}

export interface ClinicalCatalogDrug {
  id: string;
  /** The name results report as `catalog_drug`: the brand name, or the generic name of a generic. */
  name: string;
  generic_name: string;
  /** Null for a drug no plan asks clinical criteria for (metformin, lisinopril, …). */
  criteria: DrugCriteria | null;
}

export function isLeaf(node: CriterionNode): node is CriterionLeaf {
  return 'check' in node;
}

/** Empty for a malformed group, so validation can report it instead of failing on it. */
export function childrenOf(group: CriterionGroup): CriterionNode[] {
  return ('all_of' in group ? group.all_of : group.any_of) ?? [];
}

export function leavesOf(node: CriterionNode): CriterionLeaf[] {
  return isLeaf(node) ? [node] : childrenOf(node).flatMap(leavesOf);
}
