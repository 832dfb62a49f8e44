/**
 * A keyset cursor names the item a page ended on, `<microseconds>_<id>`: the item's sort time in
 * whole microseconds since 1970-01-01T00:00:00Z and its id, which orders items of the same time. The
 * API document states this shape, and the service takes any string of it as a position: every query
 * still applies the caller's account, mode and filters, so a cursor needs no seal, and one made by
 * hand only moves where the next page starts.
 *
 * Sixteen digits reach the year 2286 and stay within the integers a double holds exactly.
 */
export const KEYSET_CURSOR = /^[0-9]{1,16}_[0-9A-Za-z_]{1,64}$/;

export const KEYSET_CURSOR_DESCRIPTION =
  'The next_cursor of the previous page: `<microseconds>_<id>`, the sort time (microseconds since ' +
  '1970-01-01T00:00:00Z) and id of the item the page ended on. Any value of this shape is taken as a ' +
  'position; the next page starts after it.';

/** Where a page ended: an exact timestamp (ISO 8601, microseconds) and the id ordering equal times. */
export interface KeysetPosition {
  at: string;
  id: string;
}

/**
 * SQL for a timestamp column's position, exact to the microsecond, as text. Rows carry it because
 * the timestamps they return are cut to milliseconds (infrastructure/storage/database.ts).
 */
export function positionColumn(column: string): string {
  return `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
}

export function keysetCursor(position: string, id: string): string {
  return `${position}_${id}`;
}

/** The position a cursor of KEYSET_CURSOR's shape names; the edge has checked the shape. */
export function keysetPosition(cursor: string): KeysetPosition {
  const separator = cursor.indexOf('_');
  const microseconds = BigInt(cursor.slice(0, separator));
  const wholeMilliseconds = new Date(Number(microseconds / 1000n)).toISOString();
  const fraction = (microseconds % 1000n).toString().padStart(3, '0');
  return { at: `${wholeMilliseconds.slice(0, -1)}${fraction}Z`, id: cursor.slice(separator + 1) };
}
