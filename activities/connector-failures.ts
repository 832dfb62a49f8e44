import { ApplicationFailure } from '@temporalio/common';

import {
  ConnectorError,
  PAYER_ANSWER_UNREADABLE,
  PAYER_REJECTED,
  PAYER_UNAVAILABLE,
  PROGRAM_HUB_REJECTED,
  PROGRAM_HUB_UNAVAILABLE,
} from '../domain/failures';

const FAILURE_TYPES = {
  payer: { transient: PAYER_UNAVAILABLE, permanent: PAYER_REJECTED, unreadable: PAYER_ANSWER_UNREADABLE },
  programHub: {
    transient: PROGRAM_HUB_UNAVAILABLE,
    permanent: PROGRAM_HUB_REJECTED,
    unreadable: PROGRAM_HUB_REJECTED,
  },
} as const;

/**
 * The longest wait a connector's Retry-After may ask between attempts: the connector activities'
 * own maximum interval, so a far-off Retry-After cannot park a case for days within its attempts.
 */
const LONGEST_RETRY_DELAY_MS = 60_000;

/**
 * Runs one connector call and classifies its failure once, here: a permanent ConnectorError becomes a
 * non-retryable failure of the connector's rejected type (one attempt, the case fails at once; its
 * unreadable type when the other side answered what cannot be read), a
 * transient one a retryable failure of its unavailable type, waiting as long as the other side asked.
 * Anything else is thrown as it is and retried by the workflow's policy.
 */
export async function callConnector<Result>(
  connector: keyof typeof FAILURE_TYPES,
  call: () => Promise<Result>,
): Promise<Result> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    const types = FAILURE_TYPES[connector];
    throw ApplicationFailure.create({
      type: error.answerUnreadable ? types.unreadable : error.transient ? types.transient : types.permanent,
      message: error.message,
      nonRetryable: !error.transient,
      nextRetryDelay:
        error.transient && error.retryAfterMs !== undefined
          ? Math.min(error.retryAfterMs, LONGEST_RETRY_DELAY_MS)
          : undefined,
    });
  }
}
