import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { AuditRepository } from '../../audit/audit.repository';
import { PublicRoute } from '../../auth/auth.decorators';
import { ContextualRequest } from '../../common/request-context';
import { consoleReturnPath, formText } from '../forms';
import { ConsoleSession, ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleUsersRepository } from './console-users.repository';
import { SecondFactor } from './second-factor';
import { CODE_FIELD, sendCodePage, sendSetUpPage, WRONG_CODE } from './second-factor-pages';
import { recordSignInEvent } from './sign-in-audit';
import { SECOND_FACTOR_PATH } from './sign-in.controller';
import { SignInThrottle, tooManyAttempts } from './sign-in-throttle';

export const ACCOUNT_TWO_STEP_PATH = '/console/account/two-step';

/**
 * The second step of signing in: a code from the person's authenticator app, set up here first if
 * they have none (admins and reviewers cannot get in without one); and turning it on later from the
 * account page.
 */
@ApiExcludeController()
@Controller('console')
export class SecondFactorController {
  constructor(
    @Inject(ConsoleUsersRepository) private readonly users: ConsoleUsersRepository,
    @Inject(ConsoleSessionsRepository) private readonly sessions: ConsoleSessionsRepository,
    @Inject(SecondFactor) private readonly secondFactor: SecondFactor,
    @Inject(SignInThrottle) private readonly throttle: SignInThrottle,
    @Inject(AuditRepository) private readonly audit: AuditRepository,
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
    const user = await this.users.findCredentials(session.userId);
    if (!user) return res.redirect(303, '/console/sign-in');
    const address = req.ip ?? 'unknown';
    const wait = await this.throttle.admit(user.email, address);
    if (wait > 0) throw tooManyAttempts(wait);

    const code = formText(body, CODE_FIELD, 16);
    const settingUp = !session.totpEnabled;
    const accepted = settingUp
      ? await this.secondFactor.confirmSetUp(session, code)
      : await this.secondFactor.verify(session.userId, code);
    if (!accepted) {
      await recordSignInEvent(this.audit, req, 'user.sign_in_failed', user);
      return this.sendSecondStep(req, res, session, { next, error: WRONG_CODE }, 400);
    }
    await this.throttle.forgive(user.email, address);
    if (settingUp) await recordSignInEvent(this.audit, req, 'user.second_factor_enabled', user);
    // Recorded before the session opens anything: a sign-in the trail missed never completes.
    await recordSignInEvent(this.audit, req, 'user.signed_in', user);
    await this.sessions.completeSignIn(session.id);
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
    const accepted = await this.secondFactor.confirmSetUp(session, formText(body, CODE_FIELD, 16));
    if (!accepted) return this.sendTwoStepSetUp(req, res, session, WRONG_CODE, 400);
    await recordSignInEvent(this.audit, req, 'user.second_factor_enabled', {
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
    const user = await this.users.findCredentials(session.userId);
    const secret = await this.secondFactor.offeredSecret(session.id);
    sendSetUpPage(
      req,
      res,
      {
        action: next === undefined ? ACCOUNT_TWO_STEP_PATH : SECOND_FACTOR_PATH,
        next,
        error,
        secret,
        accountLabel: user?.email ?? session.displayName,
      },
      status,
    );
  }
}
