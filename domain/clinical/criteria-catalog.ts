import { containsWords, normalizeName } from '../payers/name-matching';
import { CLINICAL_CATALOG_DRUGS, childrenOf, isLeaf, leavesOf } from './criteria';
import type {
  AgeLimit,
  CatalogDrugName,
  ClinicalCatalogDrug,
  Comparator,
  CriterionCheck,
  CriterionGroup,
  CriterionLeaf,
  DocumentationCheck,
  DrugCriteria,
  DrugCriteriaTree,
  TrialLength,
} from './criteria';
import { ClinicalFactExtractor } from './evidence-extractor';
import type { Icd10Subset } from './icd10';
import { MEASUREMENT_NAMES, MEASUREMENT_UNITS } from './measurements';
import type { DocumentKind } from './passages';

/** The clinical criteria catalog: the drugs and their criteria, checked to be well formed when it loads. */

const DOCUMENT_KINDS: readonly DocumentKind[] = ['visit_note', 'evidence', 'questionnaire'];
const COMPARATORS: readonly Comparator[] = ['>=', '>', '<=', '<'];

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
