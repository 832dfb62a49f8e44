import { Body, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import type { ConsoleSession } from '../../../infrastructure/console/console-sessions.repository';
import { PublicRoute } from '../../common/route-access';
import { ContextualRequest } from '../../common/request-context';
import { ConsoleAudit } from '../console-audit';
import { consoleReturnPath, formText } from '../forms';
import { CODE_FIELD, sendCodePage, sendSetUpPage, WRONG_CODE } from './second-factor-pages';
import { SECOND_FACTOR_PATH } from './sign-in.controller';
import { SignInService } from './sign-in.service';
import { ConsolePages } from '../console-pages';

export const ACCOUNT_TWO_STEP_PATH = '/console/account/two-step';

/**
 * The second step of signing in: a code from the person's authenticator app, set up here first if
 * they have none (admins and reviewers cannot get in without one); and turning it on later from the
 * account page.
 */
@ConsolePages()
export class SecondFactorController {
  constructor(
    @Inject(SignInService) private readonly signIns: SignInService,
    @Inject(ConsoleAudit) private readonly audit: ConsoleAudit,
  ) {}

  @Get('sign-in/second-factor')
  @PublicRoute()
  async showSecondFactor(
    @Req() req: Request,
    @Res() res: Response,
    @Query('next') nextQuery?: string,
  ): Promise<void> {
    const next = consoleReturnPath(nextQuery);
    const session = (req as ContextualRequest).context.console;
    if (!session) return res.redirect(303, `/console/sign-in?next=${encodeURIComponent(next)}`);
    if (session.stage === 'signed_in') return res.redirect(303, next);
    await this.sendSecondStep(req, res, session, { next });
  }

  @Post('sign-in/second-factor')
  @PublicRoute()
  async checkSecondFactor(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const next = consoleReturnPath(formText(body, 'next'));
    const session = (req as ContextualRequest).context.console;
    if (!session) return res.redirect(303, `/console/sign-in?next=${encodeURIComponent(next)}`);
    if (session.stage === 'signed_in') return res.redirect(303, next);
    const check = await this.signIns.checkCode(session, formText(body, CODE_FIELD, 16), req.ip ?? 'unknown');
    if (!check) return res.redirect(303, '/console/sign-in');
    if (!check.accepted) {
      await this.audit.recordUserAction(req, 'user.sign_in_failed', check.user);
      return this.sendSecondStep(req, res, session, { next, error: WRONG_CODE }, 400);
    }
    if (check.settingUp) await this.audit.recordUserAction(req, 'user.second_factor_enabled', check.user);
    // Recorded before the session opens anything: a sign-in the trail missed never completes.
    await this.audit.recordUserAction(req, 'user.signed_in', check.user);
    await this.signIns.completeSignIn(session.id);
    res.redirect(303, next);
  }

  /** Any signed-in person without a second factor may turn it on; admins and reviewers already had to. */
  @Get('account/two-step')
  async showTwoStepSetUp(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = (req as ContextualRequest).context.console!;
    if (session.totpEnabled) return res.redirect(303, '/console/account');
    await this.sendTwoStepSetUp(req, res, session);
  }

  @Post('account/two-step')
  async turnOnTwoStep(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const session = (req as ContextualRequest).context.console!;
    if (session.totpEnabled) return res.redirect(303, '/console/account');
    const accepted = await this.signIns.enableSecondFactor(session, formText(body, CODE_FIELD, 16));
    if (!accepted) return this.sendTwoStepSetUp(req, res, session, WRONG_CODE, 400);
    await this.audit.recordUserAction(req, 'user.second_factor_enabled', {
      id: session.userId,
      account_id: session.accountId,
    });
    res.redirect(303, '/console/account?done=two-step-on');
  }

  private async sendSecondStep(
    req: Request,
    res: Response,
    session: ConsoleSession,
    form: { next: string; error?: string },
    status = 200,
  ): Promise<void> {
    if (session.totpEnabled) return sendCodePage(req, res, { action: SECOND_FACTOR_PATH, ...form }, status);
    await this.sendTwoStepSetUp(req, res, session, form.error, status, form.next);
  }

  private async sendTwoStepSetUp(
    req: Request,
    res: Response,
    session: ConsoleSession,
    error?: string,
    status = 200,
    next?: string,
  ): Promise<void> {
    const { secret, accountLabel } = await this.signIns.setUpOffer(session);
    sendSetUpPage(
      req,
      res,
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
