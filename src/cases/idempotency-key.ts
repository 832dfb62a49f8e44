import { createParamDecorator, ExecutionContext } from '@nestjs/common';

import { ApiError } from '../common/errors';

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header of a case-creating POST, validated at the edge. */
export const IdempotencyKeyHeader = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string | undefined => {
    const value = ctx.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers[
      'idempotency-key'
    ];
    if (value === undefined) return undefined;
    if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'Idempotency-Key', issue: 'must be 1 to 255 visible ASCII characters' },
      ]);
    }
    return value;
  },
);
