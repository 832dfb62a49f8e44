/** Calendar dates as the record writes them, and the days between them. */

import { DAY_MS } from '../durations';

/** The YYYY-MM-DD a date or date-time starts with, or null when it is not a calendar date. */
export function calendarDate(text: string): string | null {
  const found = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!found) return null;
  const [, year, month, day] = found as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day)
    ? `${year}-${month}-${day}`
    : null;
}

/** Days between two calendar dates (positive when `later` is after `earlier`). */
export function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / DAY_MS);
}
