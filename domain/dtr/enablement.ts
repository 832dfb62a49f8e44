/**
 * Which of the questionnaire's items show (enableWhen) and which still wait for a person. Pure and
 * deterministic, because the workflow recomputes it whenever an answer changes.
 */
import type { AnswerValue, EnableWhenCondition, QuestionnaireItemState } from './questionnaire';
import { ANSWERABLE_ITEM_TYPES } from './questionnaire';
import { sameValue } from './answer-values';

/** An enableWhenExpression that was false at prefill: an empty `any`, which never holds, as FHIR reads it. */
export const NEVER_ENABLED: Pick<QuestionnaireItemState, 'enable_when' | 'enable_behavior'> = {
  enable_when: [],
  enable_behavior: 'any',
};

/**
 * Recomputes `enabled`: an item shows when its own conditions hold and its parent shows. A question
 * hidden (or answered only by a proposal) counts as unanswered in others' conditions, as FHIR says of
 * disabled items. Conditions may point at later items, so it repeats until nothing changes.
 */
export function withEnablement(items: QuestionnaireItemState[]): QuestionnaireItemState[] {
  let current = items;
  for (let pass = 0; pass <= items.length; pass++) {
    const byLinkId = new Map(current.map((item) => [item.link_id, item]));
    const next: QuestionnaireItemState[] = [];
    const enabledNow = new Map<string, boolean>();
    for (const item of current) {
      const parentEnabled =
        item.parent_link_id === null ? true : (enabledNow.get(item.parent_link_id) ?? true);
      const enabled = parentEnabled && conditionsHold(item, byLinkId);
      enabledNow.set(item.link_id, enabled);
      next.push(enabled === item.enabled ? item : { ...item, enabled });
    }
    if (next.every((item, index) => item === current[index])) return next;
    current = next;
  }
  return current;
}

function conditionsHold(
  item: QuestionnaireItemState,
  byLinkId: Map<string, QuestionnaireItemState>,
): boolean {
  if (item.enable_when === null) return true;
  const results = item.enable_when.map((condition) =>
    conditionHolds(condition, byLinkId.get(condition.question)),
  );
  return item.enable_behavior === 'any' ? results.some(Boolean) : results.every(Boolean);
}

function conditionHolds(
  condition: EnableWhenCondition,
  question: QuestionnaireItemState | undefined,
): boolean {
  const answers = question && question.enabled ? confirmedAnswers(question) : [];
  if (condition.operator === 'exists') return answers.length > 0 === (condition.answer === true);
  // FHIR: `!=` holds when no answer equals the value, so also while the question is unanswered.
  if (condition.operator === '!=') return !answers.some((answer) => sameValue(answer, condition.answer));
  return answers.some((answer) => compares(answer, condition.operator, condition.answer));
}

function compares(
  answer: AnswerValue,
  operator: EnableWhenCondition['operator'],
  expected: AnswerValue,
): boolean {
  if (operator === '=') return sameValue(answer, expected);
  const left = orderable(answer);
  const right = orderable(expected);
  if (left === null || right === null || typeof left !== typeof right) return false;
  switch (operator) {
    case '>':
      return left > right;
    case '<':
      return left < right;
    case '>=':
      return left >= right;
    case '<=':
      return left <= right;
  }
  return false;
}

function orderable(value: AnswerValue): number | string | null {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'object' && 'value' in value) return value.value;
  return null;
}

/** An item's answers a payer may see: none while unanswered or only proposed. */
export function confirmedAnswers(item: QuestionnaireItemState): AnswerValue[] {
  if (item.answer === null || item.origin === 'proposed') return [];
  return Array.isArray(item.answer) ? item.answer : [item.answer];
}

function takesAnswers(item: QuestionnaireItemState): boolean {
  return (ANSWERABLE_ITEM_TYPES as readonly string[]).includes(item.type) && !item.read_only;
}

/** The enabled required items a person could answer and nobody has (a proposal is not an answer yet). */
export function pendingLinkIds(items: QuestionnaireItemState[]): string[] {
  return items
    .filter((item) => item.enabled && item.required && takesAnswers(item))
    .filter((item) => confirmedAnswers(item).length === 0)
    .map((item) => item.link_id);
}
