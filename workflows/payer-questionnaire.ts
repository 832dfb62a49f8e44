import type { PriorAuthorizationCase, ReviewDecisionInput } from '../domain/cases/prior-authorization';
import { answerIssues, pendingLinkIds, withAnswers } from '../domain/dtr/questionnaire-items';
import { UNNAMED_AUTHOR } from '../domain/dtr/questionnaire';
import type { CaseQuestionnaire, QuestionnaireAnswers } from '../domain/dtr/questionnaire';
import type { CoverageRequirements } from '../domain/payers/coverage-requirements';
import { refuse } from './case-lifecycle';
import type { CaseLifecycle } from './case-lifecycle';
import { refuseIssues } from './case-workflow';
import type { Cancellation, Decision } from './case-workflow';
import {
  payerQuestionnaireAnswersSignal,
  submitPayerQuestionnaireAnswersUpdate,
} from './prior-authorization.messages';

/**
 * The questionnaire step of a prior authorization (Da Vinci DTR, docs/dtr.md): the payer's CRD answer
 * names a questionnaire, the payer's CQL prefills it from the record, and people answer the rest while
 * the case awaits review. Approval waits until every enabled required item is answered.
 */

/** The part of a prior authorization's run this step reads and changes. */
interface QuestionnaireRun {
  readonly record: PriorAuthorizationCase;
  readonly lifecycle: CaseLifecycle<PriorAuthorizationCase>;
  readonly cancellation: Cancellation;
}

/** The questionnaire the payer's own CRD answer names; none from a fallback, or when it named none. */
export function namedQuestionnaire(requirements: CoverageRequirements | undefined): string | undefined {
  if (!requirements || requirements.source !== 'crd') return undefined;
  return requirements.questionnaires[0];
}

/** What the case still waits for before it may be approved: the enabled required items unanswered. */
export function pendingItems(record: PriorAuthorizationCase): string[] {
  return record.questionnaire?.pending ?? [];
}

/** A review decision the case can act on now: a rejection at once, an approval once nothing is pending. */
export function reviewActionable(
  record: PriorAuthorizationCase,
  review: ReviewDecisionInput | undefined,
): boolean {
  return review !== undefined && (review.decision === 'reject' || pendingItems(record).length === 0);
}

/** Refuses an approval while the questionnaire has unanswered required items (409 over HTTP). */
export function refuseApprovalWhilePending(
  record: PriorAuthorizationCase,
  review: ReviewDecisionInput,
): void {
  const pending = pendingItems(record);
  if (review.decision !== 'approve' || pending.length === 0) return;
  refuse(
    `The payer's questionnaire has ${pending.length} unanswered required item(s): ${pending.join(', ')}. ` +
      'Answer them before approving.',
  );
}

/** The case's questionnaire with these answers recorded, its enablement and pending items recomputed. */
export function answered(questionnaire: CaseQuestionnaire, answers: QuestionnaireAnswers): CaseQuestionnaire {
  const items = withAnswers(questionnaire.items, answers.answers, answers.author ?? UNNAMED_AUTHOR);
  const pending = pendingLinkIds(items);
  return { ...questionnaire, items, pending, status: pending.length === 0 ? 'completed' : 'in_progress' };
}

/**
 * Answers to the questionnaire, accepted while the case awaits review: each is checked as the
 * Questionnaire says (refused with the item's link_id), recorded with its origin and author, and the
 * case as it then stands is the update's answer.
 */
export function questionnaireAnswersDecision(run: QuestionnaireRun): Decision<QuestionnaireAnswers> {
  const { record, lifecycle, cancellation } = run;
  return {
    signal: payerQuestionnaireAnswersSignal,
    update: submitPayerQuestionnaireAnswersUpdate,
    check: () => {
      if (!record.questionnaire || record.questionnaire.items.length === 0)
        refuse('This case has no payer questionnaire to answer.');
      if (record.status !== 'awaiting_review' || cancellation.requested())
        refuse(`Questionnaire answers need status awaiting_review; this case is ${record.status}.`);
    },
    checkInput: (answers: QuestionnaireAnswers) =>
      refuseIssues(
        answerIssues(record.questionnaire!.items, answers.answers).map(({ link_id, message }) => ({
          field: `answers.${link_id}`,
          issue: message,
        })),
      ),
    keep: (answers: QuestionnaireAnswers) => {
      // A signal is not checked on its way in: one whose answers do not fit is dropped, as any misfit signal.
      if (answerIssues(record.questionnaire!.items, answers.answers).length > 0) return;
      record.questionnaire = answered(record.questionnaire!, answers);
    },
    answer: async (apply) => {
      apply();
      await lifecycle.update({ questionnaire: record.questionnaire });
      return lifecycle.record;
    },
  };
}
