import { Body, Post } from '@nestjs/common';

import { ConsolePage, Page } from './console-page';
import { ConsolePages } from './console-pages';
import { CONSOLE_MODE_COOKIE } from './console-mode';
import { setCookie } from './cookies';
import { consoleReturnPath, formText } from './forms';

/** The switch in every page's top bar posts here, and comes back to the page it was on. */
@ConsolePages('mode')
export class ConsoleModeController {
  @Post()
  switchMode(@Page() page: ConsolePage, @Body() body: unknown): void {
    const mode = formText(body, 'mode') === 'live' ? 'live' : 'test';
    setCookie(page.req, page.res, CONSOLE_MODE_COOKIE, mode);
    page.seeOther(consoleReturnPath(formText(body, 'return_to')));
  }
}

export const modeConsole = { controllers: [ConsoleModeController], providers: () => [] };
