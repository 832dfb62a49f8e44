import { Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ApiController } from '../common/api-controller';
import { Audited } from '../common/audited.decorator';
import { CurrentPrincipal } from '../common/route-access';
import { success } from '../common/envelope';
import { Answers, AnswersList } from '../contract/answers';
import { ListEventsQuery } from './events.dto';
import { EventsService } from './events.service';

/**
 * The events the account's webhooks carry, kept 30 days, so a receiver that was down or lost its
 * data catches up. Same role as the webhooks API; each event's `data` is the object a full-payload
 * endpoint received (PHI), so every read is audited.
 */
@ApiController('events', { role: 'provider' })
export class EventsController {
  constructor(@Inject(EventsService) private readonly events: EventsService) {}

  @Get()
  @Audited('event.listed', 'event')
  @ApiOperation({ summary: "List the account's events of the last 30 days, newest first" })
  @AnswersList('Event')
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListEventsQuery) {
    return success(await this.events.list(principal, query));
  }

  @Get(':id')
  @Audited('event.read', 'event')
  @ApiOperation({ summary: 'Get an event of the last 30 days, with the data its notification carried' })
  @Answers('Event')
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.events.get(principal, id));
  }
}
