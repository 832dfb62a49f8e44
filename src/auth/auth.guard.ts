import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { grants, type RoleRequirement } from '../../domain/accounts/roles';
import { ApiError } from '../common/errors';
import { ContextualRequest } from '../common/request-context';
import { LOOPBACK_TRUSTED, PUBLIC_ROUTE, REQUIRED_ROLE } from '../common/route-access';

/**
 * Applies each route's role to the principal the authentication middleware found before the body
 * was read (authentication.middleware.ts); a route without a principal answers 401.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const req = context.switchToHttp().getRequest<ContextualRequest>();
    if (req.context.loopbackTrusted && this.reflector.getAllAndOverride<boolean>(LOOPBACK_TRUSTED, targets)) {
      return true;
    }
    const principal = req.context.principal;
    if (!principal) throw ApiError.unauthorized();

    const requiredRole = this.reflector.getAllAndOverride<RoleRequirement | undefined>(
      REQUIRED_ROLE,
      targets,
    );
    if (requiredRole && !grants(principal.roles, requiredRole))
      throw ApiError.forbidden(requiredRole, principal.credential.type);
    return true;
  }
}
