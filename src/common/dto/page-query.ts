import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

import { KEYSET_CURSOR, KEYSET_CURSOR_DESCRIPTION } from '../../../infrastructure/storage/keyset-cursor';
import { IsIsoDateTime, IsNotBefore } from './case-validators';
import { Field, Stack } from './compose';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** `limit` of a listing: 1 to 100 items, 20 when absent (contract section 5). */
export function PageLimit(): PropertyDecorator {
  return Stack(
    ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
    IsOptional(),
    // Query values arrive as text.
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_SIZE),
  );
}

/** `cursor` of a listing: a position of the documented shape `<microseconds>_<id>`. */
export function PageCursor(): PropertyDecorator {
  return Stack(
    Field({
      optional: true,
      description: KEYSET_CURSOR_DESCRIPTION,
      example: '1764350235123456_cas_01jc9w6v3m8k2q5r7t9x1z3b5d',
    }),
    Matches(KEYSET_CURSOR, { message: 'must be a next_cursor this list returned: <microseconds>_<id>' }),
  );
}

/** What a listing's time filter says of itself in the API document. */
export interface TimeFilterDoc {
  description: string;
  example: string;
}

/** The start of a listing's time range: a calendar date or an ISO 8601 date-time with a zone. */
export function TimeRangeStart(doc: TimeFilterDoc): PropertyDecorator {
  return Stack(Field({ optional: true, ...doc }), IsIsoDateTime({ zone: 'required', orCalendarDate: true }));
}

/** The end of a listing's time range, of the same forms as its start and not before `startProperty`. */
export function TimeRangeEnd(startProperty: string, doc: TimeFilterDoc): PropertyDecorator {
  return Stack(TimeRangeStart(doc), IsNotBefore(startProperty));
}
