import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

import { InvalidCursorError } from '../../../infrastructure/storage/cursors';
import { ApiError } from '../errors';
import { Stack, TextField } from './compose';

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

/** `cursor` of a listing: the opaque next_cursor of the previous page, at most `maxLength` characters. */
export function PageCursor(maxLength: number): PropertyDecorator {
  return TextField(maxLength, { optional: true, description: 'The next_cursor of the previous page.' });
}

/** Reads a page, answering a cursor the list did not hand out with a 400 on `cursor`. */
export async function refusingBadCursors<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidCursorError) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'cursor', issue: 'must be a next_cursor this list returned' },
      ]);
    }
    throw error;
  }
}
