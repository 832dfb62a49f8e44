import { ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';

import {
  isTemporalDeadlineExceeded,
  isTemporalUnavailable,
  mayHaveStarted,
} from '../../infrastructure/temporal/outages';

/** A gRPC status error as @grpc/grpc-js throws it. */
function grpcError(code: number): Error {
  return Object.assign(new Error(`${code} status`), {
    code,
    details: 'status details',
    metadata: {},
  });
}

const UNAVAILABLE = 14;
const DEADLINE_EXCEEDED = 4;
const NOT_FOUND = 5;

describe('classifying Temporal outages', () => {
  it('sees an outage in a raw gRPC error, in the SDK ServiceError around it, and in an update timeout', () => {
    expect(isTemporalUnavailable(grpcError(UNAVAILABLE))).toBe(true);
    expect(isTemporalUnavailable(new ServiceError('unreachable', { cause: grpcError(UNAVAILABLE) }))).toBe(
      true,
    );
    expect(
      isTemporalUnavailable(
        new WorkflowUpdateRPCTimeoutOrCancelledError('timed out', { cause: grpcError(DEADLINE_EXCEEDED) }),
      ),
    ).toBe(true);
  });

  it('tells a deadline that passed, after which the call may still have taken effect', () => {
    const timedOut = new ServiceError('timed out', { cause: grpcError(DEADLINE_EXCEEDED) });
    expect(isTemporalDeadlineExceeded(timedOut)).toBe(true);
    expect(mayHaveStarted(timedOut)).toBe(true);
    expect(isTemporalDeadlineExceeded(grpcError(UNAVAILABLE))).toBe(false);
  });

  it('sees no outage in an answer Temporal gave, nor in errors that are not gRPC statuses', () => {
    expect(isTemporalUnavailable(new ServiceError('not found', { cause: grpcError(NOT_FOUND) }))).toBe(false);
    expect(isTemporalUnavailable(Object.assign(new Error('socket'), { code: UNAVAILABLE }))).toBe(false);
    expect(mayHaveStarted(undefined)).toBe(false);
  });
});
