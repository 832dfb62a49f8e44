import type { Request } from 'express';

import { readCookies, cookieName } from './cookies';

/**
 * A console user works in one mode at a time, test unless they switched to live. The choice is a
 * cookie, not part of the session: it decides only which of the account's objects are shown, never
 * what the person may do, and it survives signing in again.
 */
export const CONSOLE_MODE_COOKIE = 'haa_console_mode';
export const CONSOLE_MODE_PATH = '/console/mode';

/** Whether the console shows live data to this request: only when the person chose it. */
export function consoleLivemode(req: Request): boolean {
  return readCookies(req).get(cookieName(req, CONSOLE_MODE_COOKIE)) === 'live';
}
