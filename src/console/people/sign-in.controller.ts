import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { AuditRepository } from '../../audit/audit.repository';
import { PublicRoute } from '../../auth/auth.decorators';
import { ApiError } from '../../common/errors';
import { ContextualRequest } from '../../common/request-context';
import { clearCookie, setCookie } from '../cookies';
import { consoleReturnPath, formText } from '../forms';
import { html } from '../html';
import { csrfField, NAVIGATION, sendPage } from '../layout';
import { grants } from '../../auth/roles';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleUsersRepository } from './console-users.repository';
import { INVITATION_ACCEPTED } from './invitation-page.controller';
import { PASSWORD_MAX_LENGTH, verifyPassword } from './passwords';
import { requiresSecondFactor, SESSION_ABSOLUTE_MS, SESSION_COOKIE } from './session-policy';
import { recordSignInEvent } from './sign-in-audit';
import { SignInThrottle, tooManyAttempts } from './sign-in-throttle';

export const SECOND_FACTOR_PATH = '/console/sign-in/second-factor';

/** Signing in with email and password, signing out, and the console's front door. */
@ApiExcludeController()
@Controller('console')
export class SignInController {
  constructor(
    @Inject(ConsoleUsersRepository) private readonly users: ConsoleUsersRepository,
    @Inject(ConsoleSessionsRepository) private readonly sessions: ConsoleSessionsRepository,
    @Inject(SignInThrottle) private readonly throttle: SignInThrottle,
    @Inject(AuditRepository) private readonly audit: AuditRepository,
  ) {}

  @Get()
  @PublicRoute()
  home(@Req() req: Request, @Res() res: Response): void {
    const session = (req as ContextualRequest).context.console;
    if (session?.stage !== 'signed_in') return res.redirect(303, '/console/sign-in');
    const first = NAVIGATION.find((item) => grants(session.roles, item.role));
    res.redirect(303, first?.href ?? '/console/account');
  }

  @Get('sign-in')
  @PublicRoute()
  showSignIn(
    @Req() req: Request,
    @Res() res: Response,
    @Query('next') next?: string,
    @Query('done') done?: string,
  ): void {
    this.sendSignIn(req, res, { next: consoleReturnPath(next), joined: done === INVITATION_ACCEPTED });
  }

  @Post('sign-in')
  @PublicRoute()
  async signIn(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const email = formText(body, 'email', 320);
    const password = formText(body, 'password', PASSWORD_MAX_LENGTH);
    const next = consoleReturnPath(formText(body, 'next'));
    const address = req.ip ?? 'unknown';
    const wait = await this.throttle.admit(email, address);
    if (wait > 0) throw tooManyAttempts(wait);
    const user = email && password ? await this.users.findByEmail(email) : undefined;
    // A missing user costs a hash too, so the answer's timing does not tell which emails exist.
    const matches = await verifyPassword(password, user?.password_hash ?? UNKNOWN_USER_HASH);
    if (!user || !matches || user.disabled_at !== null) {
      if (user) await recordSignInEvent(this.audit, req, 'user.sign_in_failed', user);
      return this.sendSignIn(req, res, { next, email, failed: true }, 401);
    }
    await this.throttle.forgive(email, address);
    if (user.account_status !== 'active') throw ApiError.accountSuspended();
    const needsSecondFactor = requiresSecondFactor(user.roles) || user.totp_enabled_at !== null;
    const { token } = await this.sessions.start(user, needsSecondFactor ? 'password_verified' : 'signed_in');
    // Recorded before the browser receives the cookie: a sign-in the trail missed never opens a page.
    if (!needsSecondFactor) await recordSignInEvent(this.audit, req, 'user.signed_in', user);
    setCookie(req, res, SESSION_COOKIE, token, { maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 });
    res.redirect(303, needsSecondFactor ? `${SECOND_FACTOR_PATH}?next=${encodeURIComponent(next)}` : next);
  }

  @Post('sign-out')
  @PublicRoute()
  async signOut(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = (req as ContextualRequest).context.console;
    if (session) await this.sessions.end(session.id);
    clearCookie(req, res, SESSION_COOKIE);
    res.redirect(303, '/console/sign-in');
  }

  private sendSignIn(
    req: Request,
    res: Response,
    form: { next: string; email?: string; failed?: boolean; joined?: boolean },
    status = 200,
  ): void {
    sendPage(
      req,
      res,
      {
        title: 'Sign in',
        notice: form.failed
          ? { kind: 'error', text: 'That email and password do not match an active user.' }
          : form.joined
            ? { kind: 'success', text: 'Your user is ready. Sign in with your email and password.' }
            : undefined,
        body: html`<form method="post" action="/console/sign-in" class="card narrow">
          ${csrfField(req, res)}
          <input type="hidden" name="next" value="${form.next}" />
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username"
            required
            value="${form.email ?? ''}"
          />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          <button type="submit" class="primary">Sign in</button>
        </form>`,
      },
      status,
    );
  }
}

/** A valid hash of no one's password, so an unknown email takes as long as a wrong password. */
const UNKNOWN_USER_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
