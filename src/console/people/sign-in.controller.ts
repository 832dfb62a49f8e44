import { Body, Get, Inject, Post, Query } from '@nestjs/common';

import { grants } from '../../../domain/accounts/roles';
import { PASSWORD_MAX_LENGTH } from '../../../infrastructure/console/passwords';
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE } from '../../../infrastructure/console/session-policy';
import { PublicRoute } from '../../common/route-access';
import { clearCookie, setCookie } from '../cookies';
import { consoleReturnPath, formText } from '../forms';
import { NAVIGATION } from '../layout';
import { INVITATION_ACCEPTED } from './invitation-page.controller';
import { SignInService } from './sign-in.service';
import { signInView } from './second-factor-pages';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

export const SECOND_FACTOR_PATH = '/console/sign-in/second-factor';

/** Signing in with email and password, signing out, and the console's front door. */
@ConsolePages()
export class SignInController {
  constructor(@Inject(SignInService) private readonly signIns: SignInService) {}

  @Get()
  @PublicRoute()
  home(@Page() page: ConsolePage): void {
    const session = page.req.context.console;
    if (session?.stage !== 'signed_in') return page.seeOther('/console/sign-in');
    const first = NAVIGATION.find((item) => grants(session.roles, item.role));
    page.seeOther(first?.href ?? '/console/account');
  }

  @Get('sign-in')
  @PublicRoute()
  showSignIn(@Page() page: ConsolePage, @Query('next') next?: string, @Query('done') done?: string): void {
    this.sendSignIn(page, { next: consoleReturnPath(next), joined: done === INVITATION_ACCEPTED });
  }

  @Post('sign-in')
  @PublicRoute()
  async signIn(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const email = formText(body, 'email', 320);
    const password = formText(body, 'password', PASSWORD_MAX_LENGTH);
    const next = consoleReturnPath(formText(body, 'next'));
    const attempt = await this.signIns.checkPassword(email, password, page.req.ip ?? 'unknown');
    if (!attempt.accepted) {
      if (attempt.user) await page.auditUserAction('user.sign_in_failed', attempt.user);
      return this.sendSignIn(page, { next, email, failed: true }, 401);
    }
    const { token, needsSecondFactor } = await this.signIns.startSession(attempt.user);
    // Recorded before the browser receives the cookie: a sign-in the trail missed never opens a page.
    if (!needsSecondFactor) await page.auditUserAction('user.signed_in', attempt.user);
    setCookie(page.req, page.res, SESSION_COOKIE, token, { maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 });
    page.seeOther(needsSecondFactor ? `${SECOND_FACTOR_PATH}?next=${encodeURIComponent(next)}` : next);
  }

  @Post('sign-out')
  @PublicRoute()
  async signOut(@Page() page: ConsolePage): Promise<void> {
    const session = page.req.context.console;
    if (session) await this.signIns.signOut(session.id);
    clearCookie(page.req, page.res, SESSION_COOKIE);
    page.seeOther('/console/sign-in');
  }

  private sendSignIn(
    page: ConsolePage,
    form: { next: string; email?: string; failed?: boolean; joined?: boolean },
    status = 200,
  ): void {
    page.send(
      {
        title: 'Sign in',
        notice: form.failed
          ? { kind: 'error', text: 'That email and password do not match an active user.' }
          : form.joined
            ? { kind: 'success', text: 'Your user is ready. Sign in with your email and password.' }
            : undefined,
        body: signInView(form, page.csrf()),
      },
      status,
    );
  }
}
