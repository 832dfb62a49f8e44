import { calendarDate } from './clinical-dates';
import type {
  ClinicalEligibilityOutcome,
  ClinicalRecord,
  DrugEligibility,
  EvidenceCitation,
  PlanFormulary,
} from './clinical-model';
import { childrenOf, isLeaf } from './criteria';
import type { CriterionGroup, CriterionLeaf, CriterionNode } from './criteria';
import type { ClinicalCatalog } from './criteria-catalog';
import { completedMonths, evaluateLeaf, uniqueCitations } from './criterion-checks';
import type { EvaluationContext, LeafVerdict, Reason, Status } from './criterion-checks';

/** Judges a record against a drug's criteria tree, and says in sentences why a drug is not qualified. */

type NodeOutcome =
  | { kind: 'leaf'; leaf: CriterionLeaf; status: Status; verdict: LeafVerdict }
  | { kind: 'group'; group: CriterionGroup; status: Status; children: NodeOutcome[] };

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

// --- reasons

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
