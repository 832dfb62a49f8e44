import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';

import type { RoleRequirement } from '../../domain/accounts/roles';
import { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ContextualRequest } from './request-context';

export const REQUIRED_ROLE = Symbol('requiredRole');
export const PUBLIC_ROUTE = Symbol('publicRoute');
export const LOOPBACK_TRUSTED = Symbol('loopbackTrusted');

/** The role a route needs; routes without it need any valid key. */
export const RequiresRole = (role: RoleRequirement) => SetMetadata(REQUIRED_ROLE, role);

/**
 * For documentation only: everything holding account data requires a key. Authentication runs
 * before routing (authentication.middleware.ts), so a public route must also match its PUBLIC_PATHS.
 */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);

/**
 * Temporal Web in local mode has no login and so cannot send a key; with CODEC_TRUST_LOOPBACK (local
 * mode only) the route also serves a browser on this machine, as authentication.middleware.ts judges it.
 */
export const LoopbackTrusted = () => SetMetadata(LOOPBACK_TRUSTED, true);

export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<ContextualRequest>().context.principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
