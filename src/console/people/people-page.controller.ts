import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { ACCOUNT_ROLES } from '../../../domain/accounts/roles';
import { INVITATION_LIFETIME_MS } from '../../../infrastructure/console/invitations.repository';
import { RequiresRole } from '../../common/route-access';
import { ContextualRequest } from '../../common/request-context';
import { ConsoleAudit } from '../console-audit';
import { Html, html } from '../html';
import { csrfField, sendPage } from '../layout';
import { PeopleService } from './people.service';

type AccountRole = (typeof ACCOUNT_ROLES)[number];

const ROLE_LABELS: Record<AccountRole, string> = {
  provider: 'Provider',
  reviewer: 'Reviewer',
  admin: 'Admin',
};

const ROLE_HINTS: Record<AccountRole, string> = {
  provider: 'starts and follows cases',
  reviewer: 'decides prior authorizations in review',
  admin: 'everything, plus API keys, webhooks and people',
};

/** A stored time as a machine-readable <time>, shown in UTC to the minute (or the day). */
function timeOf(stored: string, precision: 'date' | 'minute' = 'minute'): Html {
  const iso = new Date(stored).toISOString();
  const shown = precision === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return html`<time datetime="${iso}">${shown}</time>`;
}

/** The roles ticked in a form: repeated fields arrive as an array, one as a string. */
function chosenRoles(body: unknown): string[] {
  const value = (body as Record<string, unknown> | undefined)?.roles;
  return [value ?? []].flat().filter((role): role is string => typeof role === 'string');
}

function isAccountRole(role: string): role is AccountRole {
  return (ACCOUNT_ROLES as readonly string[]).includes(role);
}

/** The account's people and invitations to join it; admins only. */
@ApiExcludeController()
@Controller('console/people')
@RequiresRole('admin')
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
    const principal = (req as ContextualRequest).context.principal!;
    const chosen = chosenRoles(body);
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
      body: html`<section class="card">
        <p>
          Send this link to your colleague yourself: there is no mail delivery yet. It is shown only now,
          works once, and expires in ${INVITATION_LIFETIME_MS / 3_600_000} hours. Whoever opens it joins this
          account as ${distinctRoles.map((role) => ROLE_LABELS[role]).join(', ')}.
        </p>
        <p class="secret" id="invitation-link">${link}</p>
        <button type="button" class="small" data-copy-from="invitation-link">Copy link</button>
        <p><a href="/console/people">Back to people</a></p>
      </section>`,
    });
  }

  private async sendPeople(
    req: Request,
    res: Response,
    form: { roles: AccountRole[]; error?: string },
    status = 200,
  ): Promise<void> {
    const principal = (req as ContextualRequest).context.principal!;
    const { people, openInvitations } = await this.people.ofAccount(principal.accountId);
    sendPage(
      req,
      res,
      {
        title: 'People',
        notice: form.error ? { kind: 'error', text: form.error } : undefined,
        body: html`<section>
            <h2>People who sign in to this account</h2>
            <table>
              <caption>
                Console users of this account
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Roles</th>
                  <th scope="col">Two-step sign-in</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                ${people.map(
                  (person) =>
                    html`<tr>
                      <td>${person.display_name}</td>
                      <td>${person.email}</td>
                      <td>${person.roles.join(', ')}</td>
                      <td>
                        ${
                          person.totp_enabled_at === null
                            ? html`<span class="badge badge-warn">Off</span>`
                            : html`<span class="badge badge-ok">On</span>`
                        }
                      </td>
                      <td>${timeOf(person.created_at, 'date')}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </section>
          <section>
            <h2>Open invitations</h2>
            ${
              openInvitations.length === 0
                ? html`<p class="empty">No invitation is waiting to be used.</p>`
                : html`<table>
                    <caption>
                      Invitation links not used yet
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Roles</th>
                        <th scope="col">Created</th>
                        <th scope="col">Expires</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${openInvitations.map(
                        (invitation) =>
                          html`<tr>
                            <td>${invitation.roles.join(', ')}</td>
                            <td>${timeOf(invitation.created_at)}</td>
                            <td>${timeOf(invitation.expires_at)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>`
            }
          </section>
          <section class="card narrow">
            <h2>Invite someone</h2>
            <form method="post" action="/console/people/invitations">
              ${csrfField(req, res)}
              <fieldset>
                <legend>Roles</legend>
                ${ACCOUNT_ROLES.map(
                  (role) =>
                    html`<div>
                      <input
                        type="checkbox"
                        id="role-${role}"
                        name="roles"
                        value="${role}"
                        ${form.roles.includes(role) ? html`checked` : ''}
                      />
                      <label for="role-${role}">${ROLE_LABELS[role]}</label>
                      <span class="hint">(${ROLE_HINTS[role]})</span>
                    </div>`,
                )}
              </fieldset>
              <button type="submit" class="primary">Create invitation link</button>
            </form>
          </section>`,
      },
      status,
    );
  }
}
