import { Get, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../infrastructure/console/session-policy';
import { ContextualRequest } from '../../common/request-context';
import { card, definitionList } from '../views';
import { html } from '../views/html';
import { sendPage } from '../layout';
import { ACCOUNT_TWO_STEP_PATH } from './second-factor.controller';
import { ConsolePages } from '../console-pages';

/** Who is signed in, to which account, with which roles: every signed-in person may see it. */
@ConsolePages('account')
export class AccountPageController {
  @Get()
  show(@Req() req: Request, @Res() res: Response, @Query('done') done?: string): void {
    const session = (req as ContextualRequest).context.console!;
    sendPage(req, res, {
      title: 'Your account',
      notice: done === 'two-step-on' ? { kind: 'success', text: 'Two-step sign-in is on.' } : undefined,
      body: card({
        body: definitionList([
          ['Account', session.accountName],
          ['Signed in as', session.displayName],
          ['Roles', session.roles.join(', ')],
          [
            'Two-step sign-in',
            session.totpEnabled
              ? 'On (authenticator app)'
              : html`Off. <a href="${ACCOUNT_TWO_STEP_PATH}">Turn on two-step sign-in</a>`,
          ],
          [
            'Session',
            `Ends after ${SESSION_IDLE_MS / 60_000} minutes without activity, and ${SESSION_ABSOLUTE_MS / 3_600_000} hours after sign-in.`,
          ],
        ]),
      }),
    });
  }
}
