import { Body, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import { ACCOUNT_ROLES } from '../../../domain/accounts/roles';
import { INVITATION_LIFETIME_MS } from '../../../infrastructure/console/invitations.repository';
import { ConsoleAudit } from '../console-audit';
import { formChoices } from '../forms';
import { csrfField, sendPage } from '../layout';
import { PeopleService } from './people.service';
import { AccountRole, invitationLinkView, peopleView } from './people-views';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';

function isAccountRole(role: string): role is AccountRole {
  return (ACCOUNT_ROLES as readonly string[]).includes(role);
}

/** The account's people and invitations to join it; admins only. */
@ConsolePages('people', 'admin')
export class PeoplePageController {
  constructor(
    @Inject(PeopleService) private readonly people: PeopleService,
    @Inject(ConsoleAudit) private readonly audit: ConsoleAudit,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendPeople(req, res, { roles: [] });
  }

  @Post('invitations')
  async invite(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const principal = principalOf(req);
    const chosen = formChoices(body, 'roles');
    const roles = chosen.filter(isAccountRole);
    const problem =
      roles.length !== chosen.length
        ? `Roles must be among ${ACCOUNT_ROLES.join(', ')}.`
        : roles.length === 0
          ? 'Choose at least one role.'
          : undefined;
    if (problem) return this.sendPeople(req, res, { roles, error: problem }, 400);

    const distinctRoles = [...new Set(roles)];
    const invitation = await this.people.invite({
      accountId: principal.accountId,
      roles: distinctRoles,
      invitedBy: principal.credential.id,
    });
    await this.audit.record(
      req,
      'user.invited',
      { object: 'console_invitation', id: invitation.id },
      { roles: distinctRoles },
    );
    const link = `${req.protocol}://${req.get('host')}/console/invitations/${invitation.token}`;
    sendPage(req, res, {
      title: 'Invitation link',
      notice: { kind: 'success', text: 'The invitation was created.' },
      body: invitationLinkView(link, distinctRoles, INVITATION_LIFETIME_MS / 3_600_000),
    });
  }

  private async sendPeople(
    req: Request,
    res: Response,
    form: { roles: AccountRole[]; error?: string },
    status = 200,
  ): Promise<void> {
    const principal = principalOf(req);
    const body = peopleView(
      await this.people.ofAccount(principal.accountId),
      form.roles,
      csrfField(req, res),
    );
    const notice = form.error ? { kind: 'error' as const, text: form.error } : undefined;
    sendPage(req, res, { title: 'People', notice, body }, status);
  }
}
