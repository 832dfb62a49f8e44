import { condition, patched } from '@temporalio/workflow';

import type { createCaseActivities } from '../activities/cases.activities';
import type { PriorAuthorizationCase, ReviewDecisionInput } from '../domain/cases/prior-authorization';
import {
  adaptiveQuestionnaire,
  awaitsPayerQuestions,
  mergedItems,
  newItems,
} from '../domain/dtr/adaptive-questionnaire';
import { withProposals } from '../domain/dtr/proposals';
import { answeredQuestionnaire, answerIssues } from '../domain/dtr/questionnaire-answers';
import type { AdaptiveQuestionnaireState, QuestionnaireAnswers } from '../domain/dtr/questionnaire';
import type { CoverageRequirements } from '../domain/payers/coverage-requirements';
import type { CaseTimings } from '../domain/cases/case-model';
import { refuse } from './case-lifecycle';
import type { CaseLifecycle } from './case-lifecycle';
import { refuseIssues } from './case-workflow';
import type { Cancellation, ConnectedCaseRun, Decision } from './case-workflow';
import { ADAPTIVE_ROUND_PROPOSALS, RETRY_FAILED_LAST_ADAPTIVE_ROUND } from './patches';
import {
  payerQuestionnaireAnswersSignal,
  submitPayerQuestionnaireAnswersUpdate,
} from './prior-authorization.messages';

/**
 * The questionnaire step of a prior authorization (Da Vinci DTR, docs/dtr.md): the payer's CRD answer
 * names a questionnaire, the payer's CQL prefills it from the record, and people answer the rest while
 * the case awaits review. Approval waits until every enabled required item is answered, and, for an
 * adaptive questionnaire, until the payer's DTR service says it asks nothing more.
 */

/** The part of a prior authorization's run this step reads and changes. */
interface QuestionnaireRun {
  readonly record: PriorAuthorizationCase;
  readonly lifecycle: CaseLifecycle<PriorAuthorizationCase>;
  readonly cancellation: Cancellation;
  /** The review decision taken, after which the questionnaire that goes to the payer no longer changes. */
  readonly review?: ReviewDecisionInput;
  /** An adaptive questionnaire's state between `$next-question` rounds (patch `adaptive-payer-questionnaire`). */
  adaptive?: AdaptiveQuestionnaireState;
  /** How many times people answered an adaptive questionnaire. */
  adaptiveAnswers: number;
  /** How many of those answers its service has been asked about: fewer, and it is to be asked again. */
  adaptiveAnswersAsked: number;
  /** After a failed round, how long until it is asked again unprompted; none while the last round served. */
  adaptiveRetryMs?: number;
}

/** The run as the next-question round needs it: the payer's activities, the account, its outage timings. */
type AdaptiveRun = QuestionnaireRun &
  Pick<
    ConnectedCaseRun<
      PriorAuthorizationCase,
      { accountId: string; timings: Pick<CaseTimings, 'outage'> },
      ReturnType<typeof createCaseActivities>
    >,
    'connector' | 'input'
  >;

/** The questionnaire the payer's own CRD answer names; none from a fallback, or when it named none. */
export function namedQuestionnaire(requirements: CoverageRequirements | undefined): string | undefined {
  if (!requirements || requirements.source !== 'crd') return undefined;
  return requirements.questionnaires[0];
}

/** What the case still waits for before it may be approved: the enabled required items unanswered. */
export function pendingItems(record: PriorAuthorizationCase): string[] {
  return record.questionnaire?.pending ?? [];
}

/** Whether an adaptive questionnaire still has questions to come: unasked, or asked and unanswered. */
function awaitsPayer(run: QuestionnaireRun): boolean {
  return answersUnasked(run) || awaitsPayerQuestions(run.adaptive);
}

function answersUnasked(run: QuestionnaireRun): boolean {
  return run.adaptiveAnswers > run.adaptiveAnswersAsked;
}

/**
 * Whether an approval must wait: the questionnaire has enabled required items unanswered, or its DTR
 * service has not said it asks nothing more.
 */
export function approvalWaits(run: QuestionnaireRun, review: ReviewDecisionInput): boolean {
  return review.decision === 'approve' && (pendingItems(run.record).length > 0 || awaitsPayer(run));
}

/** Refuses an approval while the questionnaire waits for answers or for its payer's next questions (409 over HTTP). */
export function refuseApprovalWhilePending(run: QuestionnaireRun, review: ReviewDecisionInput): void {
  if (!approvalWaits(run, review)) return;
  const pending = pendingItems(run.record);
  if (pending.length > 0)
    refuse(
      `The payer's questionnaire has ${pending.length} unanswered required item(s): ${pending.join(', ')}. ` +
        'Answer them before approving.',
    );
  refuse(
    "The payer's adaptive questionnaire is not complete: its DTR service has not said it asks nothing more. " +
      'Answer the items shown (each answer asks it for the questions that follow) before approving.',
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
      const answered = answeredQuestionnaire(record.questionnaire, answers);
      record.questionnaire = answered;
      if (!run.adaptive) return;
      // The service may ask more, or other questions, after any answer: even one it called complete.
      run.adaptive = { ...run.adaptive, completed: false };
      run.adaptiveAnswers++;
      record.questionnaire = adaptiveQuestionnaire(
        answered,
        answered.items,
        run.adaptive,
        answered.prefill_failure,
      );
    },
    answer: async (apply) => {
      apply();
      await lifecycle.update({ questionnaire: record.questionnaire });
      // An adaptive questionnaire's answer shows the questions that follow: the round's result. A review
      // decided or a cancellation taken before the round asks it ends the rounds: none will come.
      const given = run.adaptiveAnswers;
      if (run.adaptive)
        await condition(
          () =>
            run.adaptiveAnswersAsked >= given ||
            run.review !== undefined ||
            cancellation.requested() !== undefined ||
            lifecycle.isFinal,
        );
      return lifecycle.record;
    },
  };
}

/**
 * Waits up to `timeoutMs` for a decision (`decided`) while an adaptive questionnaire is answered:
 * each time answers come, its DTR service is asked for what follows them, and a failed round is asked
 * again on the case's outage schedule until one serves. Says whether a decision came.
 */
export async function awaitDecisionAskingNextQuestions(
  run: AdaptiveRun,
  decided: () => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = until - Date.now();
    const wait = Math.min(left, run.adaptiveRetryMs ?? left);
    const woke = await condition(() => decided() || answersUnasked(run), Math.max(wait, 1));
    if (!woke && Date.now() >= until) return false;
    if (decided()) return true;
    await askNextQuestions(run);
  }
}

/**
 * One `$next-question` exchange, in an activity: the service's answer is merged into the case as it
 * now stands (answers given meanwhile win, and ask again), and the case shows it. A failed round keeps
 * the questionnaire as it was, naming why in `prefill_failure`, and one failed after others served keeps
 * what they served; the next answer, or the retry, asks again.
 */
async function askNextQuestions(run: AdaptiveRun): Promise<void> {
  const { record, lifecycle } = run;
  const sent = run.adaptiveAnswers;
  const asked = record.questionnaire!;
  const answer = await run.connector.askNextPayerQuestions({
    caseId: record.id,
    accountId: run.input.accountId,
    mode: record.livemode ? 'live' : 'test',
    canonical: asked.canonical,
    request: record.request,
    items: asked.items,
    adaptive: run.adaptive!,
  });
  const current = record.questionnaire!;
  if (answer.kind === 'failed') {
    record.questionnaire = { ...current, prefill_failure: answer.reason };
    run.adaptiveRetryMs = nextRetryMs(run);
  } else {
    run.adaptiveRetryMs = retryAfterRounds(run, answer.last_round_failed);
    // Answers given during the round are the service's to see: it stays incomplete until asked again.
    run.adaptive = run.adaptiveAnswers > sent ? { ...answer.adaptive, completed: false } : answer.adaptive;
    const items = mergedItems(current.items, answer.items);
    const served = adaptiveQuestionnaire(current, items, run.adaptive, answer.prefill_failure);
    // As at preparation: the sandbox's items are named by the catalog's criteria, a live payer's are its own.
    record.questionnaire =
      !record.livemode && patched(ADAPTIVE_ROUND_PROPOSALS)
        ? withProposals(
            served,
            record.criteria,
            new Set(newItems(current.items, items).map((item) => item.link_id)),
          )
        : served;
  }
  await lifecycle.update({ questionnaire: record.questionnaire });
  run.adaptiveAnswersAsked = sent;
}

/**
 * When to ask the service again unprompted after rounds that served: on the outage schedule when their
 * last round failed (patch `retry-failed-last-adaptive-round`), else not until the next answer.
 */
export function retryAfterRounds(run: AdaptiveRun, lastRoundFailed: true | undefined): number | undefined {
  return lastRoundFailed && patched(RETRY_FAILED_LAST_ADAPTIVE_ROUND) ? nextRetryMs(run) : undefined;
}

/** The outage schedule's first wait after a failed round, doubling up to its longest; none without one. */
function nextRetryMs({ adaptiveRetryMs, input }: AdaptiveRun): number | undefined {
  const outage = input.timings.outage;
  if (!outage) return undefined;
  if (adaptiveRetryMs === undefined) return outage.firstRetryMs;
  return Math.min(adaptiveRetryMs * 2, outage.longestRetryMs);
}
