import { isGrpcServiceError } from '@temporalio/client';

/** gRPC status codes of a Temporal frontend that cannot answer now. */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

/**
 * The gRPC status behind a Temporal call's failure. The SDK wraps the service's error (a ServiceError,
 * an update's timeout error) and keeps it as a cause; raw service calls throw it as is.
 */
function grpcStatusOf(error: unknown): number | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (isGrpcServiceError(current)) return current.code;
  }
  return undefined;
}

/** The call's deadline passed before Temporal answered: it may still have taken effect. */
export function isTemporalDeadlineExceeded(error: unknown): boolean {
  return grpcStatusOf(error) === GRPC_DEADLINE_EXCEEDED;
}

/** Temporal could not be reached, or did not answer in time: the API answers 503 and the client retries. */
export function isTemporalUnavailable(error: unknown): boolean {
  const status = grpcStatusOf(error);
  return status === GRPC_UNAVAILABLE || status === GRPC_DEADLINE_EXCEEDED;
}

/**
 * The request may have reached Temporal before its answer was lost (a timeout, a dropped connection),
 * so what it started must be looked up before anything it would own is removed.
 */
export function mayHaveStarted(error: unknown): boolean {
  return isTemporalUnavailable(error);
}
