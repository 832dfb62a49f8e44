import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

import { IsIsoDateTime, IsNotBefore } from '../common/dto/case-validators';
import { PageCursor, PageLimit } from '../common/dto/page-query';
import { IsWebhookEvent } from '../common/validators';

export class ListEventsQuery {
  @ApiPropertyOptional({
    description: 'Only events of this type: its machine name or its title.',
    example: 'prior_authorization.updated',
  })
  @IsOptional()
  @IsWebhookEvent()
  type?: string;

  @ApiPropertyOptional({
    description: 'Events at or after this time: calendar date or ISO 8601 date-time with a zone.',
    example: '2026-11-01T00:00:00Z',
  })
  @IsOptional()
  @IsIsoDateTime({ zone: 'required', orCalendarDate: true })
  created_after?: string;

  @ApiPropertyOptional({
    description:
      'Events at or before this time: calendar date or ISO 8601 date-time with a zone; not before created_after.',
    example: '2026-11-30',
  })
  @IsOptional()
  @IsIsoDateTime({ zone: 'required', orCalendarDate: true })
  @IsNotBefore('created_after')
  created_before?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}
