import type { Request } from 'express';

import { actorOf } from '../audit/actor';
import type { AuditAction, AuditDetails, AuditTarget } from '../audit/audit-event';
import type { AuditRepository } from '../audit/audit.repository';
import type { ContextualRequest } from '../common/request-context';

/**
 * Console pages answer with redirects and pages, which the API's audit interceptor cannot read, so
 * each console action records its own event: the same actions, with the person as the actor.
 */
export async function recordConsoleAction(
  audit: AuditRepository,
  req: Request,
  action: AuditAction,
  target: AuditTarget | null,
  details?: AuditDetails,
  /** The account that owns the target, when it is not the person's own (an operator's read). */
  ownerAccountId?: string,
): Promise<void> {
  const context = (req as ContextualRequest).context;
  await audit.record([
    {
      accountId: ownerAccountId ?? context.principal?.accountId ?? context.console?.accountId ?? null,
      actor: actorOf(context),
      action,
      target,
      requestId: context.requestId,
      details,
    },
  ]);
}
