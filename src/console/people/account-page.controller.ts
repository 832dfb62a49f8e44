import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { ContextualRequest } from '../../common/request-context';
import { html } from '../html';
import { sendPage } from '../layout';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './session-policy';

/** Who is signed in, to which account, with which roles: every signed-in person may see it. */
@ApiExcludeController()
@Controller('console/account')
export class AccountPageController {
  @Get()
  show(@Req() req: Request, @Res() res: Response): void {
    const session = (req as ContextualRequest).context.console!;
    sendPage(req, res, {
      title: 'Your account',
      body: html`<section class="card">
        <dl class="facts">
          <dt>Account</dt>
          <dd>${session.accountName}</dd>
          <dt>Signed in as</dt>
          <dd>${session.displayName}</dd>
          <dt>Roles</dt>
          <dd>${session.roles.join(', ')}</dd>
          <dt>Two-step sign-in</dt>
          <dd>${session.totpEnabled ? 'On (authenticator app)' : 'Off'}</dd>
          <dt>Session</dt>
          <dd>
            Ends after ${SESSION_IDLE_MS / 60_000} minutes without activity, and
            ${SESSION_ABSOLUTE_MS / 3_600_000} hours after sign-in.
          </dd>
        </dl>
      </section>`,
    });
  }
}
