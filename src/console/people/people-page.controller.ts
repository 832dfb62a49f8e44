import { Body, Get, Inject, Post } from '@nestjs/common';

import { ACCOUNT_ROLES } from '../../../domain/accounts/roles';
import { INVITATION_LIFETIME_MS } from '../../../infrastructure/console/invitations.repository';
import { formChoices } from '../forms';
import { PeopleService } from './people.service';
import { AccountRole, invitationLinkView, peopleView } from './people-views';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';
import { ConsolePage, Page } from '../console-page';

function isAccountRole(role: string): role is AccountRole {
  return (ACCOUNT_ROLES as readonly string[]).includes(role);
}

/** The account's people and invitations to join it; admins only. */
@ConsolePages('people', 'admin')
export class PeoplePageController {
  constructor(@Inject(PeopleService) private readonly people: PeopleService) {}

  @Get()
  async show(@Page() page: ConsolePage): Promise<void> {
    await this.sendPeople(page, { roles: [] });
  }

  @Post('invitations')
  async invite(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const principal = principalOf(page.req);
    const chosen = formChoices(body, 'roles');
    const roles = chosen.filter(isAccountRole);
    const problem =
      roles.length !== chosen.length
        ? `Roles must be among ${ACCOUNT_ROLES.join(', ')}.`
        : roles.length === 0
          ? 'Choose at least one role.'
          : undefined;
    if (problem) return this.sendPeople(page, { roles, error: problem }, 400);

    const distinctRoles = [...new Set(roles)];
    const invitation = await this.people.invite({
      accountId: principal.accountId,
      roles: distinctRoles,
      invitedBy: principal.credential.id,
    });
    await page.audit(
      'user.invited',
      { object: 'console_invitation', id: invitation.id },
      { roles: distinctRoles },
    );
    const link = `${page.req.protocol}://${page.req.get('host')}/console/invitations/${invitation.token}`;
    page.send({
      title: 'Invitation link',
      notice: { kind: 'success', text: 'The invitation was created.' },
      body: invitationLinkView(link, distinctRoles, INVITATION_LIFETIME_MS / 3_600_000),
    });
  }

  private async sendPeople(
    page: ConsolePage,
    form: { roles: AccountRole[]; error?: string },
    status = 200,
  ): Promise<void> {
    const principal = principalOf(page.req);
    const body = peopleView(await this.people.ofAccount(principal.accountId), form.roles, page.csrf());
    const notice = form.error ? { kind: 'error' as const, text: form.error } : undefined;
    page.send({ title: 'People', notice, body }, status);
  }
}
