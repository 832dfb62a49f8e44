import { containsWords, normalizeName } from '../payers/name-matching';
import type {
  ClinicalEligibilityOutcome,
  ClinicalRecord,
  CriterionResult,
  DrugEligibility,
  EvidenceCitation,
  PlanFormulary,
  ResolvedDiagnosis,
} from './clinical-model';
import {
  calendarDate,
  ClinicalFactExtractor,
  daysBetween,
  formatNumber,
  MEASUREMENT_LABELS,
  MEASUREMENT_NAMES,
  MEASUREMENT_UNITS,
} from './evidence-extraction';
import type {
  ClinicalFacts,
  DayRange,
  DocumentKind,
  MeasurementFact,
  MeasurementName,
  TherapyFact,
  ValueRange,
} from './evidence-extraction';
import { isInFamily } from './icd10';
import type { Icd10Subset } from './icd10';

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

const DOCUMENT_KINDS: readonly DocumentKind[] = ['visit_note', 'evidence', 'questionnaire'];
const COMPARATORS: readonly Comparator[] = ['>=', '>', '<=', '<'];

function isLeaf(node: CriterionNode): node is CriterionLeaf {
  return 'check' in node;
}

/** Empty for a malformed group, so validation can report it instead of failing on it. */
function childrenOf(group: CriterionGroup): CriterionNode[] {
  return ('all_of' in group ? group.all_of : group.any_of) ?? [];
}

function leavesOf(node: CriterionNode): CriterionLeaf[] {
  return isLeaf(node) ? [node] : childrenOf(node).flatMap(leavesOf);
}

/**
 * The one clinical truth of the catalog: every drug of `catalog/drugs.json`, with the coverage
 * criteria clinical eligibility checks and the prior-authorization prefill answers, per drug and, where
 * a plan differs, per formulary; with the ICD-10-CM subset and the therapy vocabulary they need.
 */
export class ClinicalCatalog {
  readonly drugs: readonly ClinicalCatalogDrug[];
  readonly extractor: ClinicalFactExtractor;
  private readonly documentPatterns = new Map<string, RegExp>();

  constructor(
    drugs: readonly CatalogDrugName[],
    readonly criteria: readonly DrugCriteria[],
    readonly icd10: Icd10Subset,
  ) {
    const problems = catalogProblems(drugs, criteria, icd10);
    if (problems.length > 0) {
      throw new Error(`The clinical criteria catalog is invalid:\n- ${problems.join('\n- ')}`);
    }
    this.drugs = drugs.map((drug) => ({
      id: drug.id,
      name: drug.brand_name ?? drug.generic_name,
      generic_name: drug.generic_name,
      criteria: criteria.find((entry) => entry.drug_id === drug.id) ?? null,
    }));
    const leaves = criteria.flatMap(everyLeaf);
    this.extractor = new ClinicalFactExtractor(
      leaves.flatMap(({ check }) => (check.kind === 'prior_therapy' ? check.therapies : [])),
      drugs.flatMap((drug) => [drug.brand_name ?? '', drug.generic_name]),
    );
  }

  /**
   * The drug a request names: a brand name anywhere in the text as whole words ("Ozempic 1 mg pen"),
   * else a generic name that only one catalog drug has. A generic shared by brands with different
   * indications ("semaglutide": Ozempic or Wegovy) names none, since either set of criteria could be wrong.
   */
  findDrug(requested: string): ClinicalCatalogDrug | undefined {
    const name = normalizeName(requested);
    const byBrand = this.drugs.find((drug) => containsWords(name, normalizeName(drug.name)));
    if (byBrand) return byBrand;
    const byGeneric = this.drugs.filter((drug) => containsWords(name, normalizeName(drug.generic_name)));
    return byGeneric.length === 1 ? byGeneric[0] : undefined;
  }

  findDrugById(drugId: string): ClinicalCatalogDrug | undefined {
    return this.drugs.find((drug) => drug.id === drugId);
  }

  /**
   * The criteria of a drug on the plans of a formulary: the drug's own, with the formulary's overrides
   * applied; with no formulary (no plan known), the drug's own. Null when the drug has no criteria.
   */
  criteriaFor(drug: ClinicalCatalogDrug, formularyId: string | null): DrugCriteriaTree | null {
    if (!drug.criteria) return null;
    const overrides = (drug.criteria.formulary_overrides ?? []).filter(
      (override) => formularyId !== null && override.formularies.includes(formularyId),
    );
    const omitted = new Set(overrides.flatMap((override) => override.omit ?? []));
    return {
      all_of: [
        ...drug.criteria.criteria.all_of.filter((criterion) => !omitted.has(criterion.id)),
        ...overrides.flatMap((override) => override.add ?? []),
      ],
    };
  }

  /** Compiled once per pattern: criteria reach the prefill's thread as copies, not as catalog objects. */
  documentPattern(check: DocumentationCheck): RegExp {
    let pattern = this.documentPatterns.get(check.pattern);
    if (!pattern) {
      pattern = new RegExp(check.pattern, 'gi');
      this.documentPatterns.set(check.pattern, pattern);
    }
    return pattern;
  }
}

/** Every leaf a drug's criteria can use, on any plan. */
function everyLeaf(entry: DrugCriteria): CriterionLeaf[] {
  return [
    ...leavesOf(entry.criteria as CriterionGroup),
    ...(entry.formulary_overrides ?? []).flatMap((override) => (override.add ?? []).flatMap(leavesOf)),
  ];
}

function limitProblem(limit: AgeLimit | TrialLength | undefined, units: readonly string[]): string | null {
  if (limit === undefined) return null;
  const entries = Object.entries(limit);
  const [unit, amount] = entries[0] ?? [];
  return entries.length === 1 && units.includes(unit as string) && typeof amount === 'number' && amount > 0
    ? null
    : `must be one of ${units.map((name) => `{ "${name}": n }`).join(', ')}`;
}

function checkProblems(check: CriterionCheck, icd10: Icd10Subset): string[] {
  switch (check.kind) {
    case 'diagnosis':
      return [
        ...(check.code_prefixes.length === 0 ? ['names no code'] : []),
        ...check.code_prefixes
          .filter((prefix) => !icd10.knows(prefix))
          .map((prefix) => `uses ${prefix}, which the ICD-10-CM subset lacks`),
      ];
    case 'age':
      return [
        ...(check.minimum || check.maximum ? [] : ['sets neither minimum nor maximum']),
        ...[
          limitProblem(check.minimum, ['years', 'months']),
          limitProblem(check.maximum, ['years', 'months']),
        ]
          .filter((problem): problem is string => problem !== null)
          .map((problem) => `age limit ${problem}`),
      ];
    case 'measurement':
      if (!MEASUREMENT_NAMES.includes(check.name)) return [`measures unknown "${String(check.name)}"`];
      return [
        ...(check.unit === MEASUREMENT_UNITS[check.name]
          ? []
          : [`states ${check.name} in ${check.unit}, not ${MEASUREMENT_UNITS[check.name]}`]),
        ...(COMPARATORS.includes(check.comparator) ? [] : [`compares with unknown "${check.comparator}"`]),
        ...(typeof check.threshold === 'number' ? [] : ['has no numeric threshold']),
      ];
    case 'prior_therapy': {
      const problem = limitProblem(check.minimum_duration, ['days', 'weeks', 'months']);
      return [
        ...(check.therapies.length === 0 ? ['names no therapy'] : []),
        ...(problem ? [`minimum duration ${problem}`] : []),
      ];
    }
    case 'documentation': {
      const problems = check.sources
        .filter((source) => !DOCUMENT_KINDS.includes(source))
        .map((source) => `reads unknown source "${source}"`);
      try {
        new RegExp(check.pattern, 'i');
      } catch {
        problems.push(`pattern ${check.pattern} is not a regular expression`);
      }
      return problems;
    }
    default:
      return [`has unknown kind "${(check as { kind: string }).kind}"`];
  }
}

function groupProblems(group: CriterionGroup): string[] {
  const children = childrenOf(group);
  if (children.length === 0) return ['a group has no criteria'];
  const ids = new Set(leavesOf(group).map((leaf) => leaf.id));
  const placeholders = [...(group.unmet_reason ?? '').matchAll(/\{([^}]+)\}/g)].map(
    (found) => found[1] as string,
  );
  return [
    ...placeholders
      .filter((id) => !ids.has(id))
      .map((id) => `a group's reason names unknown criterion {${id}}`),
    ...children.flatMap((child) => (isLeaf(child) ? [] : groupProblems(child))),
  ];
}

function catalogProblems(
  drugs: readonly CatalogDrugName[],
  criteria: readonly DrugCriteria[],
  icd10: Icd10Subset,
): string[] {
  const ids = new Set(drugs.map((drug) => drug.id));
  const names = criteria.map(
    (entry) => drugs.find((drug) => drug.id === entry.drug_id)?.brand_name ?? entry.drug_id,
  );
  const problems = [
    ...criteria
      .filter((entry) => !ids.has(entry.drug_id))
      .map((entry) => `${entry.drug_id} is not a drug of drugs.json`),
    ...CLINICAL_CATALOG_DRUGS.filter((name) => !names.includes(name)).map(
      (name) => `${name} has no criteria`,
    ),
    ...names
      .filter((name) => !(CLINICAL_CATALOG_DRUGS as readonly string[]).includes(name))
      .map((name) => `${name} is not listed in CLINICAL_CATALOG_DRUGS`),
  ];
  for (const entry of criteria) {
    const name = entry.drug_id;
    const topLevel = [
      ...(entry.criteria.all_of ?? []),
      ...(entry.formulary_overrides ?? []).flatMap((override) => override.add ?? []),
    ];
    const groupIds = topLevel.filter((criterion) => !isLeaf(criterion)).map((criterion) => criterion.id);
    const allIds = [...everyLeaf(entry).map((leaf) => leaf.id), ...groupIds];
    problems.push(
      ...topLevel
        .filter((criterion) => typeof criterion.question !== 'string' || !criterion.id)
        .map((criterion) => `${name}: top-level criterion ${criterion.id} has no id or question`),
      ...(entry.formulary_overrides ?? []).flatMap((override) =>
        (override.omit ?? [])
          .filter((id) => !entry.criteria.all_of.some((criterion) => criterion.id === id))
          .map((id) => `${name}: an override omits unknown criterion ${id}`),
      ),
      ...[...new Set(allIds.filter((id, index) => allIds.indexOf(id) !== index))].map(
        (id) => `${name}: criterion ${id} repeats`,
      ),
      ...groupProblems(entry.criteria as CriterionGroup).map((problem) => `${name}: ${problem}`),
      ...everyLeaf(entry).flatMap((leaf) =>
        checkProblems(leaf.check, icd10).map((problem) => `${name} ${leaf.id}: ${problem}`),
      ),
    );
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// Evaluation

type Status = CriterionResult['status'];

/** Why a criterion failed; diagnosis reasons of alternative paths merge into one sentence. */
type Reason = { kind: 'diagnosis'; label: string } | { kind: 'sentence'; text: string };

interface LeafVerdict {
  status: Status;
  evidence: EvidenceCitation[];
  /** Set when the status is not_met. */
  reason?: Reason;
  /** The value read, for a group's `unmet_reason` ("26.1 kg/m²"). */
  value?: string;
}

type NodeOutcome =
  | { kind: 'leaf'; leaf: CriterionLeaf; status: Status; verdict: LeafVerdict }
  | { kind: 'group'; group: CriterionGroup; status: Status; children: NodeOutcome[] };

interface EvaluationContext {
  asOf: string | null;
  ageInMonths: number | null;
  diagnoses: ResolvedDiagnosis[];
  facts: ClinicalFacts;
  catalog: ClinicalCatalog;
}

/**
 * Checks each requested drug against its criteria on the patient's plan: the plan's formulary picks
 * the criteria (a drug's own, with the formulary's overrides) and says whether prior authorization is
 * required. Pure and deterministic: ages and recency are computed against `record.asOf`, never the
 * clock, and the same record and plan always give the same outcome.
 */
export function evaluateClinicalEligibility(
  record: ClinicalRecord,
  plan: PlanFormulary,
  catalog: ClinicalCatalog,
): ClinicalEligibilityOutcome {
  const context = evaluationContext(record, catalog);
  return {
    results: record.drugs.map((requested) => evaluateDrug(requested.name, plan, context)),
    diagnoses: context.diagnoses,
  };
}

function evaluationContext(record: ClinicalRecord, catalog: ClinicalCatalog): EvaluationContext {
  const diagnoses = record.diagnoses.map((diagnosis) => catalog.icd10.resolve(diagnosis));
  const asOf = calendarDate(record.asOf);
  return {
    asOf,
    ageInMonths: asOf ? completedMonths(record.patient.date_of_birth, asOf) : null,
    diagnoses,
    facts: catalog.extractor.extract(record, diagnoses),
    catalog,
  };
}

/** A top-level criterion's verdict on one record, with the citations behind it. */
export interface CriterionVerdict {
  status: Status;
  evidence: EvidenceCitation[];
}

/**
 * Judges top-level criteria one by one, as a payer's questions: a group is met, not met or unknown as
 * a whole, citing the evidence of the criteria inside it that decided it. The prior-authorization
 * prefill answers with it, so a prefill and a clinical-eligibility check read one record the same way.
 */
export function judgeCriteria(
  criteria: readonly CriterionNode[],
  record: ClinicalRecord,
  catalog: ClinicalCatalog,
): CriterionVerdict[] {
  const context = evaluationContext(record, catalog);
  return criteria.map((criterion) => {
    const outcome = evaluateNode(criterion, context);
    const deciding = leafOutcomes(outcome).filter((leaf) => leaf.status === outcome.status);
    return {
      status: outcome.status,
      evidence: uniqueCitations(deciding.flatMap((leaf) => leaf.verdict.evidence)),
    };
  });
}

function evaluateDrug(requested: string, plan: PlanFormulary, context: EvaluationContext): DrugEligibility {
  const drug = context.catalog.findDrug(requested);
  if (!drug) {
    return {
      drug: requested,
      catalog_drug: null,
      status: 'unknown',
      criteria: [],
      unqualified_reasons: [],
      prior_authorization_required: null,
      prior_authorization_requirement: null,
    };
  }
  const requirement = plan.priorAuthorizationFor(drug.id);
  const priorAuthorization = {
    prior_authorization_required: requirement === 'yes',
    prior_authorization_requirement: requirement,
  };
  const criteria = context.catalog.criteriaFor(drug, plan.formularyId);
  if (!criteria) {
    // No plan asks clinical criteria for it: nothing stands between the patient and the drug.
    return {
      drug: requested,
      catalog_drug: drug.name,
      status: 'qualified',
      criteria: [],
      unqualified_reasons: [],
      ...priorAuthorization,
    };
  }
  const outcome = evaluateNode(criteria as CriterionGroup, context);
  const status =
    outcome.status === 'met' ? 'qualified' : outcome.status === 'not_met' ? 'unqualified' : 'unknown';
  return {
    drug: requested,
    catalog_drug: drug.name,
    status,
    criteria: leafOutcomes(outcome).map(({ leaf, verdict }) => ({
      id: leaf.id,
      description: leaf.description,
      status: verdict.status,
      evidence: verdict.evidence,
    })),
    unqualified_reasons:
      status === 'unqualified'
        ? [...new Set(reasonsFor(outcome).map(sentenceOf))].map((description) => ({ description }))
        : [],
    ...priorAuthorization,
  };
}

function evaluateNode(node: CriterionNode, context: EvaluationContext): NodeOutcome {
  if (isLeaf(node)) {
    const verdict = evaluateLeaf(node.check, context);
    return { kind: 'leaf', leaf: node, status: verdict.status, verdict };
  }
  const children = childrenOf(node).map((child) => evaluateNode(child, context));
  const statuses = children.map((child) => child.status);
  const status: Status =
    'all_of' in node
      ? statuses.includes('not_met')
        ? 'not_met'
        : statuses.includes('unknown')
          ? 'unknown'
          : 'met'
      : statuses.includes('met')
        ? 'met'
        : statuses.includes('unknown')
          ? 'unknown'
          : 'not_met';
  return { kind: 'group', group: node, status, children };
}

function leafOutcomes(outcome: NodeOutcome): Array<Extract<NodeOutcome, { kind: 'leaf' }>> {
  return outcome.kind === 'leaf' ? [outcome] : outcome.children.flatMap(leafOutcomes);
}

function evaluateLeaf(check: CriterionCheck, context: EvaluationContext): LeafVerdict {
  switch (check.kind) {
    case 'diagnosis':
      return evaluateDiagnosis(check, context);
    case 'age':
      return evaluateAge(check, context);
    case 'measurement':
      return evaluateMeasurement(check, context);
    case 'prior_therapy':
      return evaluatePriorTherapy(check, context);
    case 'documentation':
      return evaluateDocumentation(check, context);
  }
}

// --- diagnosis

function citeDiagnosis(diagnosis: ResolvedDiagnosis): EvidenceCitation {
  const submitted = [diagnosis.input.code?.trim(), diagnosis.input.description?.trim()]
    .filter(Boolean)
    .join(' ');
  return {
    source: diagnosis.code ? `diagnosis ${diagnosis.code}` : 'diagnosis (no code)',
    excerpt: submitted,
  };
}

/**
 * Diagnoses are a required field, so the request's list is its full statement of what is being treated:
 * a required family missing from it is not met. An unmapped description might be that condition, though,
 * so then the answer is unknown.
 */
function evaluateDiagnosis(check: DiagnosisCheck, { diagnoses }: EvaluationContext): LeafVerdict {
  const matching = diagnoses.filter(
    (diagnosis) =>
      diagnosis.code && check.code_prefixes.some((prefix) => isInFamily(diagnosis.code as string, prefix)),
  );
  if (matching.length > 0) return { status: 'met', evidence: matching.map(citeDiagnosis) };
  if (diagnoses.some((diagnosis) => diagnosis.resolved_by === 'unresolved')) {
    return { status: 'unknown', evidence: [] };
  }
  return {
    status: 'not_met',
    evidence: diagnoses.map(citeDiagnosis),
    reason: { kind: 'diagnosis', label: check.label },
  };
}

// --- age

function completedMonths(dateOfBirth: string, asOf: string): number | null {
  const birth = calendarDate(dateOfBirth);
  if (!birth || birth > asOf) return null;
  const [birthYear, birthMonth, birthDay] = birth.split('-').map(Number) as [number, number, number];
  const [year, month, day] = asOf.split('-').map(Number) as [number, number, number];
  return (year - birthYear) * 12 + (month - birthMonth) - (day < birthDay ? 1 : 0);
}

function limitInMonths(limit: AgeLimit): number {
  return 'years' in limit ? limit.years * 12 : limit.months;
}

function formatAgeLimit(limit: AgeLimit): string {
  return 'years' in limit ? plural(limit.years, 'year') : plural(limit.months, 'month');
}

/** Ages of 90 and over are identifying (HIPAA Safe Harbor), so citations group them. */
function describeAge(months: number): string {
  if (months < 24) return `age ${plural(months, 'month')}`;
  const years = Math.floor(months / 12);
  return years >= 90 ? 'age 90 years or older' : `age ${years} years`;
}

function evaluateAge(check: AgeCheck, { ageInMonths }: EvaluationContext): LeafVerdict {
  if (ageInMonths === null) return { status: 'unknown', evidence: [] };
  const evidence = [{ source: 'patient date of birth', excerpt: describeAge(ageInMonths) }];
  const value = describeAge(ageInMonths);
  if (check.minimum && ageInMonths < limitInMonths(check.minimum)) {
    const text = `The patient is younger than the minimum age of ${formatAgeLimit(check.minimum)}.`;
    return { status: 'not_met', evidence, value, reason: { kind: 'sentence', text } };
  }
  // A maximum counts completed units: "at most 17 years" includes the whole year before the 18th birthday.
  const maximum = check.maximum;
  const aboveMaximum =
    maximum &&
    ('years' in maximum ? Math.floor(ageInMonths / 12) > maximum.years : ageInMonths > maximum.months);
  if (maximum && aboveMaximum) {
    const text = `The patient is older than the maximum age of ${formatAgeLimit(maximum)}.`;
    return { status: 'not_met', evidence, value, reason: { kind: 'sentence', text } };
  }
  return { status: 'met', evidence, value };
}

// --- measurement

function isRecent(date: string | null, maxAgeDays: number | undefined, asOf: string | null): boolean {
  if (maxAgeDays === undefined) return true;
  return date !== null && asOf !== null && daysBetween(date, asOf) <= maxAgeDays;
}

/**
 * Whether every value the range allows meets the threshold (met), none does (not_met), or some do.
 * The PA prefill judges lab values with it too, so both read one record the same way.
 */
export function compareRange(range: ValueRange, comparator: Comparator, threshold: number): Status {
  const { low, high } = range;
  const lowAbove = (strict: boolean) =>
    low !== null && (low.value > threshold || (low.value === threshold && (!strict || !low.inclusive)));
  const highBelow = (strict: boolean) =>
    high !== null && (high.value < threshold || (high.value === threshold && (!strict || !high.inclusive)));
  switch (comparator) {
    case '>=':
      return lowAbove(false) ? 'met' : highBelow(true) ? 'not_met' : 'unknown';
    case '>':
      return lowAbove(true) ? 'met' : highBelow(false) ? 'not_met' : 'unknown';
    case '<=':
      return highBelow(false) ? 'met' : lowAbove(true) ? 'not_met' : 'unknown';
    case '<':
      return highBelow(true) ? 'met' : lowAbove(false) ? 'not_met' : 'unknown';
  }
}

const REQUIREMENT_WORDS: Readonly<Record<Comparator, string>> = {
  '>=': 'at least',
  '>': 'above',
  '<=': 'at most',
  '<': 'below',
};

const SHORTFALL_WORDS: Readonly<Record<Comparator, string>> = {
  '>=': 'is below the required',
  '>': 'is not above the required',
  '<=': 'is above the allowed maximum of',
  '<': 'is not below the required',
};

function measurementReason(check: MeasurementCheck, fact: MeasurementFact): Reason {
  const label = MEASUREMENT_LABELS[check.name];
  const threshold = `${formatNumber(check.threshold)} ${check.unit}`;
  const exact = fact.range.low !== null && fact.range.high !== null;
  const text = exact
    ? `${label} ${fact.display} ${SHORTFALL_WORDS[check.comparator]} ${threshold}.`
    : `${label} is reported as ${fact.display}; the requirement is ${REQUIREMENT_WORDS[check.comparator]} ${threshold}.`;
  return { kind: 'sentence', text };
}

/** The most recent value that decides the check; older values count only when newer ones cannot decide. */
function evaluateMeasurement(check: MeasurementCheck, { facts, asOf }: EvaluationContext): LeafVerdict {
  const candidates = facts.measurements
    .map((fact, order) => ({ fact, order }))
    .filter(({ fact }) => fact.name === check.name && isRecent(fact.date, check.max_age_days, asOf))
    .sort((a, b) => (b.fact.date ?? '').localeCompare(a.fact.date ?? '') || a.order - b.order)
    .map(({ fact }) => fact);
  for (const fact of candidates) {
    const status = compareRange(fact.range, check.comparator, check.threshold);
    if (status === 'unknown') continue;
    const exact = fact.range.low !== null && fact.range.high !== null;
    return {
      status,
      evidence: [fact.citation],
      // Only a value read exactly fills a group's sentence ("BMI 26.1 kg/m² is below …"); a bound would not read.
      ...(exact ? { value: fact.display } : {}),
      ...(status === 'not_met' ? { reason: measurementReason(check, fact) } : {}),
    };
  }
  return { status: 'unknown', evidence: uniqueCitations(candidates.map((fact) => fact.citation)) };
}

// --- prior therapy

const LENGTH_DAYS: Readonly<Record<string, number>> = { days: 1, weeks: 7, months: 30 };

function lengthInDays(length: TrialLength | undefined): number {
  if (!length) return 0;
  const [unit, amount] = Object.entries(length)[0] as [string, number];
  return amount * (LENGTH_DAYS[unit] ?? 1);
}

function formatLength(length: TrialLength): string {
  const [unit, amount] = Object.entries(length)[0] as [string, number];
  return plural(amount, unit.replace(/s$/, ''));
}

function formatDays(days: number): string {
  if (days >= 365 && days % 365 === 0) return plural(days / 365, 'year');
  if (days >= 30 && days % 30 === 0) return plural(days / 30, 'month');
  if (days >= 7 && days % 7 === 0) return plural(days / 7, 'week');
  return plural(days, 'day');
}

function formatDayRange(range: DayRange): string {
  if (range.max === Infinity) return `at least ${formatDays(range.min)}`;
  if (range.min === range.max) return formatDays(range.min);
  return `between ${formatDays(range.min)} and ${formatDays(range.max)}`;
}

/**
 * How one mention of a therapy bears on a trial of at least `requiredDays` (0 when no length is asked):
 * met by a long-enough trial or by an intolerance or contraindication (payers accept either for step
 * therapy); not met by a trial stated too short, or a denied one ("has not tried metformin for 6 months"
 * leaves a 3-month trial possible, so says nothing); otherwise unknown, such as a mention without a
 * length when a length is required. The criteria engine and the PA prefill both judge trials with it.
 */
export function judgeTrial(fact: TherapyFact, requiredDays: number): Status {
  switch (fact.assertion) {
    case 'intolerant':
      return 'met';
    case 'tried':
      if ((fact.duration?.min ?? 0) >= requiredDays) return 'met';
      return fact.duration !== null && fact.duration.max < requiredDays ? 'not_met' : 'unknown';
    case 'not_tried':
      return fact.duration === null || fact.duration.min <= requiredDays ? 'not_met' : 'unknown';
  }
}

/** The trials that meet the check cite it; else a too-short one, else a denied one, explains why not. */
function evaluatePriorTherapy(check: PriorTherapyCheck, { facts }: EvaluationContext): LeafVerdict {
  const terms = new Set(check.therapies.map((therapy) => therapy.toLowerCase()));
  const required = lengthInDays(check.minimum_duration);
  const relevant = facts.therapies.filter((fact) => terms.has(fact.therapy));
  const satisfying = relevant.filter((fact) => judgeTrial(fact, required) === 'met');
  if (satisfying.length > 0) {
    const first = satisfying[0] as TherapyFact;
    return {
      status: 'met',
      evidence: uniqueCitations(satisfying.map((fact) => fact.citation)),
      ...(first.duration ? { value: formatDayRange(first.duration) } : {}),
    };
  }
  const unmet = relevant.filter((fact) => judgeTrial(fact, required) === 'not_met');
  const tooShort = unmet.filter((fact) => fact.assertion === 'tried');
  const denied = unmet.filter((fact) => fact.assertion === 'not_tried');
  const lengthWords = check.minimum_duration ? ` for at least ${formatLength(check.minimum_duration)}` : '';
  const shortest = tooShort[0];
  if (shortest?.duration) {
    const text = `The documented trial of ${check.label} (${formatDayRange(shortest.duration)}) is shorter than the required ${formatLength(check.minimum_duration as TrialLength)}.`;
    return {
      status: 'not_met',
      evidence: uniqueCitations([...tooShort, ...denied].map((fact) => fact.citation)),
      value: formatDayRange(shortest.duration),
      reason: { kind: 'sentence', text },
    };
  }
  if (denied.length > 0) {
    return {
      status: 'not_met',
      evidence: uniqueCitations(denied.map((fact) => fact.citation)),
      reason: { kind: 'sentence', text: `No trial of ${check.label}${lengthWords} is documented.` },
    };
  }
  return { status: 'unknown', evidence: uniqueCitations(relevant.map((fact) => fact.citation)) };
}

// --- documentation

const SENTENCE_END = /[\n.;!?](?!\d)/g;
const NEGATED_MENTION = /\b(?:no|not|denies|denied|without)\s+(?:[a-z]+\s+)?$/i;

/** The sentence around a match, within its line, as written (at most 60 characters either side). */
function excerptAround(text: string, start: number, end: number): string {
  const windowStart = Math.max(0, start - 60);
  let from = windowStart;
  for (const boundary of text.slice(windowStart, start).matchAll(SENTENCE_END)) {
    from = windowStart + (boundary.index ?? 0) + 1;
  }
  if (from === windowStart && windowStart > 0) from = text.indexOf(' ', from) + 1 || start;
  const after = text.slice(end, end + 60);
  const stop = after.search(SENTENCE_END);
  return text.slice(from, stop === -1 ? end + after.length : end + stop).trim();
}

function evaluateDocumentation(
  check: DocumentationCheck,
  { facts, asOf, catalog }: EvaluationContext,
): LeafVerdict {
  const pattern = catalog.documentPattern(check);
  const evidence: EvidenceCitation[] = [];
  for (const document of facts.documents) {
    if (!check.sources.includes(document.kind) || !isRecent(document.date, check.max_age_days, asOf))
      continue;
    const found = [...document.text.matchAll(pattern)].find((match) => {
      const start = match.index ?? 0;
      return !NEGATED_MENTION.test(document.text.slice(Math.max(0, start - 24), start));
    });
    if (found) {
      const start = found.index ?? 0;
      evidence.push({
        source: document.source,
        excerpt: excerptAround(document.text, start, start + found[0].length),
      });
    }
  }
  if (evidence.length > 0) return { status: 'met', evidence };
  return {
    status: 'not_met',
    evidence: [],
    reason: { kind: 'sentence', text: `No ${check.label} is documented.` },
  };
}

// --- reasons

function uniqueCitations(citations: EvidenceCitation[]): EvidenceCitation[] {
  const seen = new Set<string>();
  return citations.filter((citation) => {
    const key = `${citation.source}\u0000${citation.excerpt}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function plural(amount: number, unit: string): string {
  return `${formatNumber(amount)} ${unit}${amount === 1 ? '' : 's'}`;
}

/** How close a failed path came: the condition it is for first, then how many of its criteria are met. */
function closeness(outcome: NodeOutcome): [diagnosesMet: number, criteriaMet: number] {
  const met = leafOutcomes(outcome).filter((leaf) => leaf.status === 'met');
  return [met.filter((leaf) => leaf.leaf.check.kind === 'diagnosis').length, met.length];
}

function filledGroupReason(template: string, outcome: NodeOutcome): string | null {
  const values = new Map(leafOutcomes(outcome).map(({ leaf, verdict }) => [leaf.id, verdict.value]));
  let complete = true;
  const text = template.replace(/\{([^}]+)\}/g, (_placeholder, id: string) => {
    const value = values.get(id);
    if (value === undefined) complete = false;
    return value ?? '';
  });
  return complete ? text : null;
}

function joinAlternatives(labels: string[]): string {
  return labels.length <= 1
    ? (labels[0] ?? '')
    : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1) as string}`;
}

/**
 * The reasons along the path that failed. In a failed alternative (`any_of`) only the branches that
 * came closest are explained (those for a submitted condition, then those with most criteria met): a
 * patient with rheumatoid arthritis is told about the missing methotrexate trial, not that psoriasis and
 * Crohn's disease are absent too. When several branches come equally close, the group's own sentence
 * (if it has one) says it at once.
 */
function reasonsFor(outcome: NodeOutcome): Reason[] {
  if (outcome.kind === 'leaf') return outcome.verdict.reason ? [outcome.verdict.reason] : [];
  const failed = outcome.children.filter((child) => child.status === 'not_met');
  if ('all_of' in outcome.group) return failed.flatMap(reasonsFor);
  const scores = failed.map(closeness);
  const best = scores.reduce((top, score) =>
    score[0] > top[0] || (score[0] === top[0] && score[1] > top[1]) ? score : top,
  );
  const closest = failed.filter(
    (_child, index) => scores[index]?.[0] === best[0] && scores[index]?.[1] === best[1],
  );
  const template = outcome.group.unmet_reason;
  const whole = template && closest.length > 1 ? filledGroupReason(template, outcome) : null;
  if (whole) return [{ kind: 'sentence', text: whole }];
  const reasons = closest.flatMap(reasonsFor);
  const diagnosisLabels = [
    ...new Set(reasons.flatMap((reason) => (reason.kind === 'diagnosis' ? [reason.label] : []))),
  ];
  if (diagnosisLabels.length <= 1) return reasons;
  const merged: Reason = { kind: 'diagnosis', label: joinAlternatives(diagnosisLabels) };
  const firstDiagnosis = reasons.findIndex((reason) => reason.kind === 'diagnosis');
  const others = reasons.filter((reason) => reason.kind !== 'diagnosis');
  return [...others.slice(0, firstDiagnosis), merged, ...others.slice(firstDiagnosis)];
}

function sentenceOf(reason: Reason): string {
  return reason.kind === 'diagnosis' ? `No diagnosis of ${reason.label} was submitted.` : reason.text;
}
