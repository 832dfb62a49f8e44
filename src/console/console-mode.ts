import { Body, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import { readCookies, cookieName, setCookie } from './cookies';
import { consoleReturnPath, formText } from './forms';
import { ConsolePages } from './console-pages';

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

/** The switch in every page's top bar posts here, and comes back to the page it was on. */
@ConsolePages('mode')
export class ConsoleModeController {
  @Post()
  switchMode(@Req() req: Request, @Res() res: Response, @Body() body: unknown): void {
    const mode = formText(body, 'mode') === 'live' ? 'live' : 'test';
    setCookie(req, res, CONSOLE_MODE_COOKIE, mode);
    res.redirect(303, consoleReturnPath(formText(body, 'return_to')));
  }
}

export const modeConsole = { controllers: [ConsoleModeController], providers: () => [] };
