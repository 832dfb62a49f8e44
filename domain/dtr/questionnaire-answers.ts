/**
 * A batch of people's answers to the questionnaire: what is wrong with it, and the items once it is
 * recorded. Pure and deterministic, because the workflow records answers given by signal.
 */
import type {
  AnswerOrigin,
  CaseQuestionnaire,
  QuestionnaireAnswerInput,
  QuestionnaireAnswers,
  QuestionnaireItemState,
} from './questionnaire';
import { UNNAMED_AUTHOR } from './questionnaire';
import { MAX_REPEATED_ANSWERS, normalizedAnswer, sameAnswer, valueIssue } from './answer-values';
import { pendingLinkIds, withEnablement } from './enablement';

/**
 * What is wrong with a batch of answers, each naming its item: unknown or unanswerable items, hidden
 * ones (after the batch's own answers are applied, so a choice and the question it reveals can come
 * together), values of the wrong type, lists for items that do not repeat, and repeated link_ids.
 */
export function answerIssues(
  items: QuestionnaireItemState[],
  answers: QuestionnaireAnswerInput[],
): { link_id: string; message: string }[] {
  const byLinkId = new Map(items.map((item) => [item.link_id, item]));
  const issues: { link_id: string; message: string }[] = [];
  const seen = new Set<string>();
  const wellFormed: QuestionnaireAnswerInput[] = [];
  for (const answer of answers) {
    const linkId = answer.link_id;
    if (seen.has(linkId)) {
      issues.push({ link_id: linkId, message: `${linkId} is answered more than once in this request.` });
      continue;
    }
    seen.add(linkId);
    // A null the request sent arrives absent: the edge drops null members of what it validated.
    const value = answer.value ?? null;
    const item = byLinkId.get(linkId);
    const problem = item
      ? structuralIssue(item, value)
      : `No item of the questionnaire has link_id ${linkId}.`;
    if (problem) issues.push({ link_id: linkId, message: problem });
    else wellFormed.push({ ...answer, value });
  }
  const after = new Map(withAnswers(items, wellFormed, '').map((item) => [item.link_id, item]));
  for (const answer of wellFormed) {
    // Clearing a hidden item's answer is harmless, and is how a stale answer behind a change goes.
    if (answer.value !== null && !after.get(answer.link_id)?.enabled)
      issues.push({
        link_id: answer.link_id,
        message: `${answer.link_id} is not shown (its enableWhen conditions do not hold), so it takes no answer.`,
      });
  }
  return issues;
}

function structuralIssue(item: QuestionnaireItemState, value: unknown): string | null {
  const linkId = item.link_id;
  if (item.type === 'group' || item.type === 'display')
    return `${linkId} is a ${item.type} item and takes no answer.`;
  if (item.read_only) return `${linkId} is read-only and takes no answer.`;
  if (value === null) return null;
  if (Array.isArray(value)) {
    if (!item.repeats) return `${linkId} does not repeat: give one value, not a list.`;
    if (value.length === 0) return `${linkId} got an empty list: give null to clear the answer.`;
    if (value.length > MAX_REPEATED_ANSWERS)
      return `${linkId} takes at most ${MAX_REPEATED_ANSWERS} answers; it got ${value.length}.`;
    for (const entry of value) {
      const problem = valueIssue(item, entry);
      if (problem) return problem;
    }
    return null;
  }
  return valueIssue(item, value);
}
/**
 * Records a person's answers (already checked by answerIssues): `manual` where nothing or only a
 * proposal stood, `override` where it replaces the payer's CQL answer with another value (the same
 * value stays `auto`), and null clears. Codings take the option's system and display.
 */
export function withAnswers(
  items: QuestionnaireItemState[],
  answers: QuestionnaireAnswerInput[],
  author: string,
): QuestionnaireItemState[] {
  const byLinkId = new Map(answers.map((answer) => [answer.link_id, answer.value]));
  const answered = items.map((item): QuestionnaireItemState => {
    if (!byLinkId.has(item.link_id)) return item;
    const value = byLinkId.get(item.link_id) ?? null;
    if (value === null) return { ...item, answer: null, origin: null, source: null, author: null };
    const normalized = normalizedAnswer(item, value);
    if (item.origin === 'auto' && sameAnswer(item.answer, normalized)) return item;
    const origin: AnswerOrigin = item.origin === 'auto' || item.origin === 'override' ? 'override' : 'manual';
    return { ...item, answer: normalized, origin, source: { kind: 'person', reference: author }, author };
  });
  return withEnablement(answered);
}

/** Items with what they still wait for: the pending link_ids, and `completed` once there are none. */
export function questionnaireState(
  items: QuestionnaireItemState[],
): Pick<CaseQuestionnaire, 'items' | 'pending' | 'status'> {
  const pending = pendingLinkIds(items);
  return { items, pending, status: pending.length === 0 ? 'completed' : 'in_progress' };
}

/** The case's questionnaire with these answers recorded (already checked by answerIssues). */
export function answeredQuestionnaire(
  questionnaire: CaseQuestionnaire,
  answers: QuestionnaireAnswers,
): CaseQuestionnaire {
  const items = withAnswers(questionnaire.items, answers.answers, answers.author ?? UNNAMED_AUTHOR);
  return { ...questionnaire, ...questionnaireState(items) };
}
