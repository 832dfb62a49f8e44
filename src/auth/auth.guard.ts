import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { APP_CONFIG } from '../app/tokens';
import { ApiError } from '../common/errors';
import type { AppConfig } from '../config/config';
import { ContextualRequest } from '../common/request-context';
import { AccountsRepository } from './accounts.repository';
import { LOOPBACK_TRUSTED, PUBLIC_ROUTE, REQUIRED_ROLE } from './auth.decorators';
import { RateLimiter } from './rate-limiter';
import { grants, Role } from './roles';

const BEARER = /^Bearer ([\x21-\x7e]{16,256})$/;

/** Authenticates every route, then applies the per-key rate limit and the route's role. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(RateLimiter) private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const req = context.switchToHttp().getRequest<ContextualRequest>();
    if (
      this.config.codec.trustLoopback &&
      this.reflector.getAllAndOverride<boolean>(LOOPBACK_TRUSTED, targets) &&
      !req.headers.authorization &&
      isLoopback(req.socket.remoteAddress)
    ) {
      return true;
    }
    const match = BEARER.exec(req.headers.authorization ?? '');
    const principal = match ? await this.accounts.findActiveKeyBySecret(match[1]!) : undefined;
    if (!principal) throw ApiError.unauthorized();
    req.context.principal = principal;

    const retryAfterSeconds = this.rateLimiter.take(principal.apiKeyId);
    if (retryAfterSeconds > 0) {
      throw new ApiError('rate_limited', 'Too many requests for this API key; slow down.', [], {
        'Retry-After': String(retryAfterSeconds),
      });
    }

    const requiredRole = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, targets);
    if (requiredRole && !grants(principal.roles, requiredRole)) throw ApiError.forbidden(requiredRole);
    return true;
  }
}

function isLoopback(address: string | undefined): boolean {
  return (
    address === '::1' || address?.startsWith('127.') === true || address?.startsWith('::ffff:127.') === true
  );
}
