import { randomUUID, createHash } from 'node:crypto';

import {
  CallHandler,
  ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { catchError, concatMap, from, Observable, of } from 'rxjs';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { IdempotencyRepository } from '../../infrastructure/idempotency/idempotency.repository';
import { ApiError } from '../common/errors';
import type { ContextualRequest } from '../common/request-context';
import { claimingKey, readIdempotencyKey } from './idempotency-key';

export const IDEMPOTENT_ROUTE = Symbol('idempotentRoute');

export interface IdempotentRouteOptions {
  /**
   * The route's action is keyed by the id bound to the Idempotency-Key (`IdempotentAttempt`), so
   * running it again after an interrupted first attempt cannot act twice (a decision's Temporal
   * update id). Otherwise a retry after an interruption is refused: its outcome is unknown.
   */
  resumable?: boolean;
}

/** What a route under `Idempotent()` learns of its Idempotency-Key; absent without the header. */
export interface IdempotentAttempt {
  /** Bound to the key by its first request: the same on every retry. */
  boundId: string;
  /** A first attempt under this key was interrupted; this one resumes it. */
  resumed: boolean;
}

/** Where the interceptor leaves the attempt for the route (`CurrentIdempotentAttempt`). */
export const IDEMPOTENT_ATTEMPT = Symbol('idempotentAttempt');

/**
 * How long a first request holds its key before a retry may take it for interrupted: longer than
 * any idempotent route works (a case decision waits 30 s for its workflow).
 */
const IN_FLIGHT_LOCK_MS = 60_000;

type IdempotentRequest = ContextualRequest & { [IDEMPOTENT_ATTEMPT]?: IdempotentAttempt };

/** Runs the routes marked `Idempotent()`: see there for the rules. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(IdempotencyRepository) private readonly keys: IdempotencyRepository,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const route = this.reflector.get<IdempotentRouteOptions | undefined>(
      IDEMPOTENT_ROUTE,
      context.getHandler(),
    );
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const key = readIdempotencyKey(request.headers);
    const principal = request.context.principal;
    if (!route || !key || !principal) return next.handle();

    const claim = await claimingKey(() =>
      this.keys.begin(
        {
          accountId: principal.accountId,
          livemode: principal.livemode,
          key,
          endpoint: `${request.method} ${request.path}`,
          requestSha256: createHash('sha256')
            .update(JSON.stringify(request.body ?? null))
            .digest('hex'),
          candidateId: randomUUID(),
        },
        IN_FLIGHT_LOCK_MS,
      ),
    );
    if (claim.kind === 'answered') {
      response.status(claim.status).setHeader('Idempotent-Replayed', 'true');
      return of(claim.body);
    }
    if (claim.kind === 'in_flight') {
      throw new ApiError(
        'idempotency_conflict',
        'The first request with this Idempotency-Key is still being processed; send this one again after Retry-After to receive its answer.',
        [],
        { 'Retry-After': String(claim.retryAfterSeconds) },
      );
    }
    if (claim.kind === 'interrupted' && !route.resumable) {
      await this.keys.unlock(principal, key);
      throw new ApiError(
        'idempotency_conflict',
        'The first request with this Idempotency-Key failed before it could answer, and may have acted; read the object to see, then use a new key for a new request.',
      );
    }
    request[IDEMPOTENT_ATTEMPT] = { boundId: claim.boundId, resumed: claim.kind === 'interrupted' };
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
    return next.handle().pipe(
      concatMap(async (body: unknown) => {
        await this.keys.answer(principal, key, status, body);
        return body;
      }),
      catchError((error: unknown) =>
        from(this.settleFailure(principal, key, claim.boundId, claim.kind === 'first', error)),
      ),
    );
  }

  /**
   * A first request refused before it changed anything (4xx) frees its key, as a case creation's
   * does; any other failure may have acted, so the key stays bound for a retry to resume.
   */
  private async settleFailure(
    principal: Principal,
    key: string,
    boundId: string,
    first: boolean,
    error: unknown,
  ): Promise<never> {
    if (first && refusedBeforeActing(error)) await this.keys.release(principal, key, boundId);
    else await this.keys.unlock(principal, key);
    throw error;
  }
}

function refusedBeforeActing(error: unknown): boolean {
  if (error instanceof ApiError) return error.httpStatus < 500;
  return error instanceof HttpException && error.getStatus() < 500;
}
