import type { CriterionResult, EvidenceCitation } from '../clinical/clinical-model';
import type { CriterionNode } from '../clinical/criteria';
import type { ClinicalCatalog } from '../clinical/criteria-catalog';
import { judgeCriteria } from '../clinical/criteria-evaluation';
import type { CriterionDefinition } from './payer-catalog';
import type { CriterionAnswer, PriorAuthPrefillInput } from './payer-connector';

const ANSWER_OF_STATUS: Readonly<Record<CriterionResult['status'], CriterionAnswer['answer']>> = {
  met: 'yes',
  not_met: 'no',
  unknown: 'unknown',
};

/**
 * Answers each criterion with the criteria engine that clinical eligibility runs, on the same catalog
 * criteria, so a record qualified in clinical eligibility is answered yes throughout, and a criterion it
 * fails is answered no. Criteria are judged as of `asOf`.
 */
export function answerPriorAuthCriteria(
  criteria: readonly CriterionDefinition[],
  input: PriorAuthPrefillInput,
  asOf: string,
  catalog: ClinicalCatalog,
): CriterionAnswer[] {
  const verdicts = judgeCriteria(
    criteria.map(criterionNode),
    {
      patient: input.patient,
      asOf,
      drugs: [{ name: input.drug.name ?? input.drug.ndc ?? '', quantity: input.drug.quantity }],
      diagnoses: input.diagnoses,
      questionnaires: input.questionnaires,
      visitNotes: input.visitNotes,
      evidence: input.evidence,
    },
    catalog,
  );
  return criteria.map((criterion, index) => {
    const verdict = verdicts[index]!;
    const [first] = verdict.evidence;
    return {
      id: criterion.id,
      question: criterion.question,
      answer: ANSWER_OF_STATUS[verdict.status],
      source: verdict.status !== 'unknown' && first ? cited(first) : null,
    };
  });
}

function criterionNode({ id, question, check }: CriterionDefinition): CriterionNode {
  return check.kind === 'group' ? check.group : { id, description: question, check };
}

/** A clinician-readable source: `visit note 2026-02-10: "metformin for 6 weeks"`, `questionnaire: "…?" → "Yes"`. */
function cited({ source, excerpt }: EvidenceCitation): string {
  if (!excerpt || source.includes(excerpt)) return source;
  return source.startsWith('questionnaire') ? `${source} → "${excerpt}"` : `${source}: "${excerpt}"`;
}
