import { SetMetadata } from '@nestjs/common';

import type { AuditAction } from '../../infrastructure/audit/audit-event';

export const AUDITED_ROUTE = Symbol('auditedRoute');

export interface AuditedRoute {
  action: AuditAction;
  /** The kind of object the route acts on, e.g. `prior_authorization`, `api_key`. */
  object: string;
}

/**
 * Records the route's action in the caller's audit trail once it succeeds (AuditInterceptor). The
 * target is the route's `:id`, else the id of the object it answers with; lists record the names
 * of the filters they used.
 */
export const Audited = (action: AuditAction, object: string) =>
  SetMetadata(AUDITED_ROUTE, { action, object } satisfies AuditedRoute);
