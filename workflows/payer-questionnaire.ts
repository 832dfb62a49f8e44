import type { PriorAuthorizationCase, ReviewDecisionInput } from '../domain/cases/prior-authorization';
import { answeredQuestionnaire, answerIssues } from '../domain/dtr/questionnaire-items';
import type { QuestionnaireAnswers } from '../domain/dtr/questionnaire';
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
  /** The review decision taken, after which the questionnaire that goes to the payer no longer changes. */
  readonly review?: ReviewDecisionInput;
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

/** Whether an approval must wait: the questionnaire has enabled required items unanswered. */
export function approvalWaits(record: PriorAuthorizationCase, review: ReviewDecisionInput): boolean {
  return review.decision === 'approve' && pendingItems(record).length > 0;
}

/** Refuses an approval while the questionnaire has unanswered required items (409 over HTTP). */
export function refuseApprovalWhilePending(
  record: PriorAuthorizationCase,
  review: ReviewDecisionInput,
): void {
  if (!approvalWaits(record, review)) return;
  const pending = pendingItems(record);
  refuse(
    `The payer's questionnaire has ${pending.length} unanswered required item(s): ${pending.join(', ')}. ` +
      'Answer them before approving.',
  );
}

/**
 * Answers to the questionnaire, accepted while the case awaits review: each is checked as the
 * Questionnaire says (refused with the item's link_id), recorded with its origin and author, and the
 * case as it then stands is the update's answer.
 */
export function questionnaireAnswersDecision(run: QuestionnaireRun): Decision<QuestionnaireAnswers> {
  const { record, lifecycle, cancellation } = run;
  const items = () => record.questionnaire?.items ?? [];
  return {
    signal: payerQuestionnaireAnswersSignal,
    update: submitPayerQuestionnaireAnswersUpdate,
    check: () => {
      if (items().length === 0) refuse('This case has no payer questionnaire to answer.');
      if (record.status !== 'awaiting_review' || cancellation.requested())
        refuse(`Questionnaire answers need status awaiting_review; this case is ${record.status}.`);
      if (run.review)
        refuse('The review decision is taken: the questionnaire it approved no longer changes.');
    },
    checkInput: (answers: QuestionnaireAnswers) =>
      refuseIssues(
        answerIssues(items(), answers.answers).map(({ link_id, message }) => ({
          field: `answers.${link_id}`,
          issue: message,
        })),
      ),
    keep: (answers: QuestionnaireAnswers) => {
      // A signal is not checked on its way in: one whose answers do not fit is dropped, as any misfit signal.
      if (!record.questionnaire || answerIssues(items(), answers.answers).length > 0) return;
      record.questionnaire = answeredQuestionnaire(record.questionnaire, answers);
    },
    answer: async (apply) => {
      apply();
      await lifecycle.update({ questionnaire: record.questionnaire });
      return lifecycle.record;
    },
  };
}
