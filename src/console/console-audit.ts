import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';

import type { AuditAction, AuditDetails, AuditTarget } from '../../infrastructure/audit/audit-event';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import { actorOf } from '../common/actor';
import type { ContextualRequest } from '../common/request-context';

/** What a person does before their session holds a principal: signing in, or joining through an invitation. */
export type UserAction = Extract<
  AuditAction,
  'user.signed_in' | 'user.sign_in_failed' | 'user.second_factor_enabled' | 'user.created'
>;

/**
 * Console pages answer with redirects and pages, which the API's audit interceptor cannot read, so
 * each console action records its own event: the same actions, with the person as the actor.
 */
@Injectable()
export class ConsoleAudit {
  constructor(@Inject(AuditRepository) private readonly audit: AuditRepository) {}

  async record(
    req: Request,
    action: AuditAction,
    target: AuditTarget | null,
    details?: AuditDetails,
    /** The account that owns the target, when it is not the person's own (an operator's read). */
    ownerAccountId?: string,
  ): Promise<void> {
    const context = (req as ContextualRequest).context;
    await this.audit.record([
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

  /**
   * The person is named from the user row, as no principal exists yet: the actor and the target are
   * that user, never their email.
   */
  async recordUserAction(
    req: Request,
    action: UserAction,
    user: { id: string; account_id: string },
    details?: AuditDetails,
  ): Promise<void> {
    await this.audit.record([
      {
        accountId: user.account_id,
        actor: { type: 'user', id: user.id },
        action,
        target: { object: 'console_user', id: user.id },
        requestId: (req as ContextualRequest).context.requestId,
        details,
      },
    ]);
  }
}
