import { createParamDecorator, ExecutionContext } from '@nestjs/common';

import { IdempotencyConflictError } from '../../infrastructure/idempotency/idempotency.repository';
import { ApiError } from '../common/errors';

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** A request's Idempotency-Key header, validated at the edge; undefined when it has none. */
export function readIdempotencyKey(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const value = headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ApiError('validation_error', 'The request is invalid; see details.', [
      { field: 'Idempotency-Key', issue: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return value;
}

/** The Idempotency-Key header of a case-creating POST. */
export const IdempotencyKeyHeader = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string | undefined =>
    readIdempotencyKey(
      ctx.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers,
    ),
);

/** Claims a key, answering a key reused for another request with 409 `idempotency_conflict`. */
export async function claimingKey<T>(claim: () => Promise<T>): Promise<T> {
  try {
    return await claim();
  } catch (error) {
    if (error instanceof IdempotencyConflictError) {
      throw new ApiError(
        error.code,
        'This Idempotency-Key was already used with a different request; use a new key for a new request.',
      );
    }
    throw error;
  }
}
