import { RegistryQueryError, RegistryUnavailableError } from '../../domain/providers/npi-registry';
import { ApiError } from '../common/errors';

/**
 * What a client waits before asking again while the registry is down: NPPES outages are usually
 * minutes, and every lookup of the interval would fail the same way.
 */
export const REGISTRY_RETRY_AFTER_SECONDS = 30;

/** 503 `registry_unavailable` (contract section 13): nothing was looked up or created. */
export function registryUnavailable(): ApiError {
  return new ApiError(
    'registry_unavailable',
    'The NPI registry is unavailable, so nothing was looked up; retry shortly.',
    [],
    { 'Retry-After': String(REGISTRY_RETRY_AFTER_SECONDS) },
  );
}

/**
 * The registry's failures in the API's words: an outage is 503, a query the registry refuses is 400
 * on the fields it concerns. The registry's own wording and data are never passed on.
 */
export function registryRefusalOf(error: unknown): ApiError | undefined {
  if (error instanceof RegistryUnavailableError) return registryUnavailable();
  if (error instanceof RegistryQueryError) {
    return new ApiError(
      'validation_error',
      'The request is invalid; see details.',
      error.fields.map((field) => ({ field, issue: 'the NPI registry cannot search by this value' })),
    );
  }
  return undefined;
}
