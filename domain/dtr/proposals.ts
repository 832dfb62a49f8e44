import type { CriterionAnswer } from '../payers/payer-connector';
import type { CaseQuestionnaire, QuestionnaireItemState } from './questionnaire';

/**
 * The evidence reader's proposals for the items the payer's CQL left empty (docs/dtr.md, "Origins"): where
 * an item asks what one of the case's criteria asks (the same id, as the sandbox's packages name their
 * items), the criteria's answer from the record, with its citation. A proposal is never sent and does
 * not count as an answer: a person confirms it by answering the item with it, which sends it as
 * `manual`. The CQL reads the request's structured record; the criteria also read the text of its
 * documents and notes, which is where a proposal adds what the CQL could not see.
 */
export function withProposals(
  questionnaire: CaseQuestionnaire,
  criteria: readonly CriterionAnswer[],
  /** Only these items (a round's new ones), so an item a person cleared is not proposed again. */
  onlyLinkIds?: ReadonlySet<string>,
): CaseQuestionnaire {
  const answers = new Map(criteria.map((criterion) => [criterion.id, criterion]));
  const items = questionnaire.items.map((item) => {
    const criterion = answers.get(item.link_id);
    const considered = onlyLinkIds === undefined || onlyLinkIds.has(item.link_id);
    return criterion && considered && proposable(item) ? proposed(item, criterion) : item;
  });
  return { ...questionnaire, items };
}

function proposable(item: QuestionnaireItemState): boolean {
  return item.type === 'boolean' && item.enabled && !item.read_only && item.answer === null;
}

function proposed(item: QuestionnaireItemState, criterion: CriterionAnswer): QuestionnaireItemState {
  if (criterion.answer === 'unknown') return item;
  return {
    ...item,
    answer: criterion.answer === 'yes',
    origin: 'proposed',
    source: { kind: 'evidence', reference: criterion.source ?? criterion.question },
  };
}
