import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  Post,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

import {
  IDEMPOTENT_ATTEMPT,
  IDEMPOTENT_ROUTE,
  IdempotencyInterceptor,
  IdempotentAttempt,
  IdempotentRouteOptions,
} from './idempotency.interceptor';

/**
 * Makes a POST idempotent under the `Idempotency-Key` header (contract section 7): the same key,
 * route and body within 24 h replay the first answer with `Idempotent-Replayed: true` and act no
 * more; the same key with another body or route is 409 `idempotency_conflict`, and so is a retry
 * while the first request is still being processed (with Retry-After). Declares the header in the
 * API document.
 */
export const Idempotent = (options: IdempotentRouteOptions = {}) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, options),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes a retry safe: the same key, route and body within 24 h replay the first answer instead of acting again.',
    }),
    UseInterceptors(IdempotencyInterceptor),
  );

/** A POST of the API, idempotent as every POST but the codec's is (contract section 7). */
export const IdempotentPost = (path?: string) => applyDecorators(Post(path), Idempotent());

/** The route's `IdempotentAttempt`, or undefined when the request has no Idempotency-Key. */
export const CurrentIdempotentAttempt = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): IdempotentAttempt | undefined =>
    ctx.switchToHttp().getRequest<{ [IDEMPOTENT_ATTEMPT]?: IdempotentAttempt }>()[IDEMPOTENT_ATTEMPT],
);
