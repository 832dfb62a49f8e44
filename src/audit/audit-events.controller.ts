import { Get, Inject, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import { ApiController } from '../common/api-controller';
import { CurrentPrincipal } from '../common/route-access';
import { DEFAULT_PAGE_SIZE } from '../common/dto/page-query';
import { success } from '../common/envelope';
import { AnswersList } from '../contract/answers';
import { ListAuditEventsQuery } from './audit-events.dto';
import { AuditEventsService } from './audit-events.service';

/** The account's audit trail, for its admins: who did what to which case or resource, and when. */
@ApiController('audit-events', { role: 'admin', tag: 'audit' })
export class AuditEventsController {
  constructor(@Inject(AuditEventsService) private readonly auditEvents: AuditEventsService) {}

  @Get()
  @ApiOperation({ summary: "List the account's audit events, newest first" })
  @AnswersList('AuditEvent')
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListAuditEventsQuery) {
    return success(
      await this.auditEvents.list(principal.accountId, {
        actorId: query.actor_id,
        targetId: query.target_id,
        action: query.action,
        from: query.from,
        to: query.to,
        limit: query.limit ?? DEFAULT_PAGE_SIZE,
        ...(query.cursor && { after: keysetPosition(query.cursor) }),
      }),
    );
  }
}
