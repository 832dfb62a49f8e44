import { Body, Get, Inject, Param, Post } from '@nestjs/common';
import { isEmail } from 'class-validator';

import { PASSWORD_MAX_LENGTH, passwordProblem } from '../../../infrastructure/console/passwords';
import { PublicRoute } from '../../common/route-access';
import { ApiError } from '../../common/errors';
import { failedChecks, failedChecksNotice, formText } from '../forms';
import { closedInvitationView, JoinForm, joinView, NAME_MAX_LENGTH } from './invitation-views';
import { PeopleService } from './people.service';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const EMAIL_MAX_LENGTH = 320;

export const INVITATION_ACCEPTED = 'invitation-accepted';

/** Where an invited person chooses their name, email and password; the link is the only credential. */
@ConsolePages('invitations')
export class InvitationPageController {
  constructor(@Inject(PeopleService) private readonly people: PeopleService) {}

  @Get(':token')
  @PublicRoute()
  async show(@Page() page: ConsolePage, @Param('token') token: string): Promise<void> {
    if (!(await this.isOpen(page, token))) return;
    sendJoinPage(page, { displayName: '', email: '' });
  }

  @Post(':token')
  @PublicRoute()
  async accept(
    @Page() page: ConsolePage,
    @Param('token') token: string,
    @Body() body: unknown,
  ): Promise<void> {
    if (!(await this.isOpen(page, token))) return;
    const form: JoinForm = {
      displayName: formText(body, 'display_name', NAME_MAX_LENGTH),
      email: formText(body, 'email', EMAIL_MAX_LENGTH),
    };
    const password = formText(body, 'password', PASSWORD_MAX_LENGTH);
    const errors = failedChecks([
      form.displayName ? undefined : `Enter your name (at most ${NAME_MAX_LENGTH} characters).`,
      isEmail(form.email) ? undefined : 'Enter a valid email address.',
      passwordProblem(password),
      password === formText(body, 'password_again', PASSWORD_MAX_LENGTH)
        ? undefined
        : 'The two passwords differ.',
    ]);
    if (errors.length > 0) return sendJoinPage(page, { ...form, errors }, 400);
    const acceptance = await this.people.acceptInvitation(
      token,
      { displayName: form.displayName, email: form.email, password },
      page.req.ip ?? 'unknown',
    );
    if (acceptance.outcome === 'closed') return sendClosedPage(page);
    if (acceptance.outcome === 'email_taken') {
      return sendJoinPage(
        page,
        { ...form, errors: ['That email already signs in to the console; use another.'] },
        400,
      );
    }
    const { user, invitationId } = acceptance;
    await page.auditUserAction('user.created', user, {
      roles: user.roles,
      invitation_id: invitationId,
    });
    page.seeOther(`/console/sign-in?done=${INVITATION_ACCEPTED}`);
  }

  /** Answers for a link that opens nothing: 404 for one never issued, 410 for one used or expired. */
  private async isOpen(page: ConsolePage, token: string): Promise<boolean> {
    const state = TOKEN_SHAPE.test(token) ? await this.people.invitationState(token) : 'unknown';
    if (state === 'unknown')
      throw ApiError.notFound('This invitation link is not valid. Check that it was copied whole.');
    if (state === 'closed') sendClosedPage(page);
    return state === 'open';
  }
}

function sendClosedPage(page: ConsolePage): void {
  page.send({ title: 'Invitation no longer valid', body: closedInvitationView() }, 410);
}

function sendJoinPage(page: ConsolePage, form: JoinForm, status = 200): void {
  const notice = failedChecksNotice(form.errors);
  page.send({ title: 'Join your team', notice, body: joinView(form, page.csrf()) }, status);
}
