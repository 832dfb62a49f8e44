import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';

import { AUDIT_ACTIONS, AuditAction } from '../../infrastructure/audit/audit-event';
import { TextField } from '../common/dto/compose';
import { PageCursor, PageLimit, TimeRangeEnd, TimeRangeStart } from '../common/dto/page-query';

/** Our ids and the loopback operator: letters, digits, `_` and `-`, never free text. */
const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
const ID_MAX = 100;

export class ListAuditEventsQuery {
  @TextField(ID_MAX, {
    optional: true,
    description: 'Only events by this actor (an API key or user id).',
    example: 'key_…',
  })
  @Matches(ID_PATTERN, { message: 'must be an id' })
  actor_id?: string;

  @TextField(ID_MAX, {
    optional: true,
    description: 'Only events about this case or resource.',
    example: 'pa_01jd3k4m5n6p7q8r9s0t1v2w3x',
  })
  @Matches(ID_PATTERN, { message: 'must be an id' })
  target_id?: string;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: AuditAction;

  @TimeRangeStart({
    description: 'Events at or after this time: calendar date or ISO 8601 date-time with a zone.',
    example: '2026-11-01T00:00:00Z',
  })
  from?: string;

  @TimeRangeEnd('from', {
    description:
      'Events at or before this time: calendar date or ISO 8601 date-time with a zone; not before from.',
    example: '2026-12-01',
  })
  to?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}
