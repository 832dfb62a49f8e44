import type { Request } from 'express';

import type { AuditAction } from '../../audit/audit-event';
import type { AuditRepository } from '../../audit/audit.repository';
import type { ContextualRequest } from '../../common/request-context';

/**
 * Sign-in events happen before the session holds a principal, so the person is named from the user
 * row: the actor and the target are that user, never their email.
 */
export async function recordSignInEvent(
  audit: AuditRepository,
  req: Request,
  action: Extract<AuditAction, 'user.signed_in' | 'user.sign_in_failed' | 'user.second_factor_enabled'>,
  user: { id: string; account_id: string },
): Promise<void> {
  await audit.record([
    {
      accountId: user.account_id,
      actor: { type: 'user', id: user.id },
      action,
      target: { object: 'console_user', id: user.id },
      requestId: (req as ContextualRequest).context.requestId,
    },
  ]);
}
