import { describeRequirement } from '../../domain/accounts/roles';
import type { RoleRequirement } from '../../domain/accounts/roles';
import { INVALID_STATE } from '../../domain/failures';

/**
 * The one error taxonomy of the service. Activities, services and the HTTP edge all speak these
 * codes; the global filter turns them into the contract's error body with the matching status.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_state: 409,
  idempotency_conflict: 409,
  provider_not_authorized: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  registry_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Workflow failure types that answer a request with a client error: a refused update carries one of
 * these, and its message was written for the caller (it names statuses, never case data).
 */
export const FAILURE_TYPE_ERRORS: Readonly<Record<string, ErrorCode>> = {
  [INVALID_STATE]: 'invalid_state',
};

/**
 * What a 503 asks clients to wait: about one database connect timeout, long enough for a restart or
 * a failover to finish, short enough that a recovered service is not left idle.
 */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface ErrorDetail {
  field: string;
  issue: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get httpStatus(): number {
    return ERROR_STATUS[this.code];
  }

  static notFound(what = 'The requested resource does not exist.'): ApiError {
    return new ApiError('not_found', what);
  }

  static unauthorized(): ApiError {
    return new ApiError(
      'unauthorized',
      'A valid API key is required: send the header "Authorization: Bearer <API key>".',
    );
  }

  /** A dependency (the database, the workflow engine) cannot answer now; the request changed nothing it reports. */
  static serviceUnavailable(what: string): ApiError {
    return new ApiError('service_unavailable', `${what} is unreachable; retry shortly.`, [], {
      'Retry-After': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }

  /** docs/decisions.md#accounts: a suspended account's keys and sessions answer 401 with a message that says why. */
  static accountSuspended(): ApiError {
    return new ApiError(
      'unauthorized',
      'This account is suspended: its API keys and console sign-ins are refused. Contact the platform operator.',
    );
  }

  /** Worded for what made the request: an API key, or a person signed in to the console. */
  static forbidden(role: RoleRequirement, credential: 'api_key' | 'user' = 'api_key'): ApiError {
    const named = describeRequirement(role);
    return new ApiError(
      'forbidden',
      credential === 'user'
        ? `This page needs the ${named} role, which your user does not hold. An admin of your account can invite you with it.`
        : `This API key lacks the ${named} role needed for this request.`,
    );
  }
}
