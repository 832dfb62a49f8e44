import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

import { PageCursor, PageLimit, TimeRangeEnd, TimeRangeStart } from '../common/dto/page-query';
import { IsWebhookEvent } from '../common/validators';

export class ListEventsQuery {
  @ApiPropertyOptional({
    description: 'Only events of this type: its machine name or its title.',
    example: 'prior_authorization.updated',
  })
  @IsOptional()
  @IsWebhookEvent()
  type?: string;

  @TimeRangeStart({
    description: 'Events at or after this time: calendar date or ISO 8601 date-time with a zone.',
    example: '2026-11-01T00:00:00Z',
  })
  created_after?: string;

  @TimeRangeEnd('created_after', {
    description:
      'Events at or before this time: calendar date or ISO 8601 date-time with a zone; not before created_after.',
    example: '2026-11-30',
  })
  created_before?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}
