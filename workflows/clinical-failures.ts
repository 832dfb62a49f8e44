import { ActivityFailure, ApplicationFailure } from '@temporalio/common';

import type { CaseFailure } from '../domain/cases/case-model';
import { CLINICAL_EVALUATION_TIMED_OUT } from '../domain/failures';

/** How a case ends when its work fails: the status history's reason and the case's `failure`. */
export interface CaseFailureEnding {
  reason: string;
  failure: CaseFailure;
}

/**
 * The ending of a case whose clinical record took too long to read, or undefined when the error is
 * anything else (the caller's own ending applies). The failure's message was written for the submitter
 * and quotes nothing of the record, so it is passed on as is.
 */
export function clinicalEvaluationTimeout(error: unknown): CaseFailureEnding | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== CLINICAL_EVALUATION_TIMED_OUT)
    return undefined;
  return {
    reason: 'The clinical record took too long to read.',
    failure: { code: 'clinical_evaluation_timed_out', message: cause.message },
  };
}
