import { Body, Get, Inject, Post, Query } from '@nestjs/common';

import type { ConsoleSession } from '../../../infrastructure/console/console-sessions.repository';
import { PublicRoute } from '../../common/route-access';
import { consoleReturnPath, formText } from '../forms';
import { CODE_FIELD, sendCodePage, sendSetUpPage, WRONG_CODE } from './second-factor-pages';
import { SECOND_FACTOR_PATH } from './sign-in.controller';
import { SignInService } from './sign-in.service';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

export const ACCOUNT_TWO_STEP_PATH = '/console/account/two-step';

/**
 * The second step of signing in: a code from the person's authenticator app, set up here first if
 * they have none (admins and reviewers cannot get in without one); and turning it on later from the
 * account page.
 */
@ConsolePages()
export class SecondFactorController {
  constructor(@Inject(SignInService) private readonly signIns: SignInService) {}

  @Get('sign-in/second-factor')
  @PublicRoute()
  async showSecondFactor(@Page() page: ConsolePage, @Query('next') nextQuery?: string): Promise<void> {
    const next = consoleReturnPath(nextQuery);
    const session = page.req.context.console;
    if (!session) return page.seeOther(`/console/sign-in?next=${encodeURIComponent(next)}`);
    if (session.stage === 'signed_in') return page.seeOther(next);
    await this.sendSecondStep(page, session, { next });
  }

  @Post('sign-in/second-factor')
  @PublicRoute()
  async checkSecondFactor(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const next = consoleReturnPath(formText(body, 'next'));
    const session = page.req.context.console;
    if (!session) return page.seeOther(`/console/sign-in?next=${encodeURIComponent(next)}`);
    if (session.stage === 'signed_in') return page.seeOther(next);
    const check = await this.signIns.checkCode(
      session,
      formText(body, CODE_FIELD, 16),
      page.req.ip ?? 'unknown',
    );
    if (!check) return page.seeOther('/console/sign-in');
    if (!check.accepted) {
      await page.auditUserAction('user.sign_in_failed', check.user);
      return this.sendSecondStep(page, session, { next, error: WRONG_CODE }, 400);
    }
    if (check.settingUp) await page.auditUserAction('user.second_factor_enabled', check.user);
    // Recorded before the session opens anything: a sign-in the trail missed never completes.
    await page.auditUserAction('user.signed_in', check.user);
    await this.signIns.completeSignIn(session.id);
    page.seeOther(next);
  }

  /** Any signed-in person without a second factor may turn it on; admins and reviewers already had to. */
  @Get('account/two-step')
  async showTwoStepSetUp(@Page() page: ConsolePage): Promise<void> {
    const session = page.req.context.console!;
    if (session.totpEnabled) return page.seeOther('/console/account');
    await this.sendTwoStepSetUp(page, session);
  }

  @Post('account/two-step')
  async turnOnTwoStep(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const session = page.req.context.console!;
    if (session.totpEnabled) return page.seeOther('/console/account');
    const accepted = await this.signIns.enableSecondFactor(session, formText(body, CODE_FIELD, 16));
    if (!accepted) return this.sendTwoStepSetUp(page, session, WRONG_CODE, 400);
    await page.auditUserAction('user.second_factor_enabled', {
      id: session.userId,
      account_id: session.accountId,
    });
    page.seeOther('/console/account?done=two-step-on');
  }

  private async sendSecondStep(
    page: ConsolePage,
    session: ConsoleSession,
    form: { next: string; error?: string },
    status = 200,
  ): Promise<void> {
    if (session.totpEnabled) return sendCodePage(page, { action: SECOND_FACTOR_PATH, ...form }, status);
    await this.sendTwoStepSetUp(page, session, form.error, status, form.next);
  }

  private async sendTwoStepSetUp(
    page: ConsolePage,
    session: ConsoleSession,
    error?: string,
    status = 200,
    next?: string,
  ): Promise<void> {
    const { secret, accountLabel } = await this.signIns.setUpOffer(session);
    sendSetUpPage(
      page,
      {
        action: next === undefined ? ACCOUNT_TWO_STEP_PATH : SECOND_FACTOR_PATH,
        next,
        error,
        secret,
        accountLabel,
      },
      status,
    );
  }
}
