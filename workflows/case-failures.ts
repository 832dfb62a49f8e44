import { ActivityFailure, ApplicationFailure } from '@temporalio/common';

import { OPERATOR_FAILURE_REASONS, type CaseFailure, type FailNowRequest } from '../domain/cases/case-model';
import {
  CASE_FAILURE_CODE,
  CLINICAL_EVALUATION_TIMED_OUT,
  PAYER_ANSWER_UNREADABLE,
  PAYER_REJECTED,
  PAYER_UNAVAILABLE,
  PROGRAM_HUB_REJECTED,
  PROGRAM_HUB_UNAVAILABLE,
} from '../domain/failures';

/** How a case ends when its work fails (or its time runs out): the status history's reason and the case's `failure`. */
export interface CaseFailureEnding {
  reason: string;
  failure: CaseFailure;
}

export const ending = (reason: string, code: string, message: string): CaseFailureEnding => ({
  reason,
  failure: { code, message },
});

const UNAVAILABLE_CODE = {
  payer: CASE_FAILURE_CODE.payerUnavailable,
  program: CASE_FAILURE_CODE.programUnavailable,
} as const;

/**
 * How a case ends when its connector (the payer, the program hub) stays unreachable, or its work
 * fails otherwise; `notDone`, when given, says what the case could not do without it.
 */
export const unreachableEnding = (connector: keyof typeof UNAVAILABLE_CODE, notDone?: string) =>
  ending(
    `The ${connector} could not be reached.`,
    UNAVAILABLE_CODE[connector],
    `The ${connector} connection failed repeatedly${notDone ? `; ${notDone}` : ''}.`,
  );

/** The ending for each failure type of the taxonomy that a case's activities raise. */
const ENDINGS: Readonly<
  Record<string, (cause: ApplicationFailure, otherwise: CaseFailureEnding) => CaseFailureEnding>
> = {
  // Written for the submitter and quoting nothing of the record, so passed on as is.
  [CLINICAL_EVALUATION_TIMED_OUT]: (cause) =>
    ending(
      'The clinical record took too long to read.',
      CASE_FAILURE_CODE.clinicalEvaluationTimedOut,
      cause.message,
    ),
  // Unavailable after every retry: the case type's own ending says what was not done.
  [PAYER_UNAVAILABLE]: (_cause, otherwise) => otherwise,
  [PROGRAM_HUB_UNAVAILABLE]: (_cause, otherwise) => otherwise,
  [PAYER_REJECTED]: () =>
    ending(
      'The payer refused the request.',
      CASE_FAILURE_CODE.payerRejected,
      'The payer refused the request; trying again would not change its answer.',
    ),
  // The payer may well have taken the request: the submitter learns the answer was unreadable, and
  // an operator reads the rule and path it broke in the activity's failure.
  [PAYER_ANSWER_UNREADABLE]: () =>
    ending(
      "The payer's answer could not be read.",
      CASE_FAILURE_CODE.payerRejected,
      "The payer's answer could not be read; ask the payer for the request's status.",
    ),
  [PROGRAM_HUB_REJECTED]: () =>
    ending(
      'The program refused the enrollment.',
      CASE_FAILURE_CODE.programRejected,
      'The program hub refused the submission; trying again would not change its answer.',
    ),
};

/**
 * The ending of a case whose activity failed with a failure type of the taxonomy, or `otherwise` for
 * any other error.
 */
export function failureEnding(error: unknown, otherwise: CaseFailureEnding): CaseFailureEnding {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  const endingOf = cause instanceof ApplicationFailure && cause.type ? ENDINGS[cause.type] : undefined;
  return endingOf ? endingOf(cause as ApplicationFailure, otherwise) : otherwise;
}

/** Raised inside the workflow when an operator ended a case waiting out an outage. */
export class FailedByOperator extends Error {
  readonly ending: CaseFailureEnding;

  constructor(request: FailNowRequest) {
    super('Ended by an operator.');
    this.name = 'FailedByOperator';
    this.ending = ending(
      'Ended by an operator.',
      CASE_FAILURE_CODE.failedByOperator,
      OPERATOR_FAILURE_REASONS[request.reason],
    );
  }
}
