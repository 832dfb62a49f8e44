import { ACCOUNT_ROLES } from '../../../domain/accounts/roles';
import {
  badge,
  card,
  choiceGroup,
  emptyState,
  postForm,
  secretReveal,
  submitButton,
  tableCard,
} from '../views';
import { Html, html } from '../views/html';
import { day, moment } from '../views/markup';
import type { PeopleService } from './people.service';

export type AccountRole = (typeof ACCOUNT_ROLES)[number];

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

type AccountPeople = Awaited<ReturnType<PeopleService['ofAccount']>>;

/** The account's people, its open invitations, and the form that invites someone. */
export function peopleView(
  { people, openInvitations }: AccountPeople,
  chosenRoles: string[],
  csrf: Html,
): Html {
  return html`${tableCard({
    heading: 'People who sign in to this account',
    framed: false,
    caption: 'Console users of this account',
    rows: people,
    columns: [
      { heading: 'Name', cell: (person) => person.display_name },
      { heading: 'Email', cell: (person) => person.email },
      { heading: 'Roles', cell: (person) => person.roles.join(', ') },
      {
        heading: 'Two-step sign-in',
        cell: (person) => (person.totp_enabled_at === null ? badge('Off', 'warn') : badge('On', 'ok')),
      },
      { heading: 'Created', cell: (person) => day(person.created_at) },
    ],
  })}
  ${tableCard({
    heading: 'Open invitations',
    framed: false,
    caption: 'Invitation links not used yet',
    rows: openInvitations,
    empty: emptyState('No invitation is waiting to be used.'),
    columns: [
      { heading: 'Roles', cell: (invitation) => invitation.roles.join(', ') },
      { heading: 'Created', cell: (invitation) => moment(invitation.created_at) },
      { heading: 'Expires', cell: (invitation) => moment(invitation.expires_at) },
    ],
  })}
  ${card({
    heading: 'Invite someone',
    narrow: true,
    body: postForm({
      action: '/console/people/invitations',
      csrf,
      body: html`${choiceGroup({
        legend: 'Roles',
        name: 'roles',
        type: 'checkbox',
        idPrefix: 'role',
        options: ACCOUNT_ROLES.map((role) => ({
          value: role,
          label: html`${ROLE_LABELS[role]} <span class="hint">(${ROLE_HINTS[role]})</span>`,
        })),
        chosen: chosenRoles,
      })}
      ${submitButton({ label: 'Create invitation link', kind: 'primary' })}`,
    }),
  })}`;
}

/** The invitation link, shown this once: there is no mail delivery, the admin sends it themselves. */
export function invitationLinkView(link: string, roles: AccountRole[], lifetimeHours: number): Html {
  return card({
    body: html`<p>
        Send this link to your colleague yourself: there is no mail delivery yet. It is shown only now, works
        once, and expires in ${lifetimeHours} hours. Whoever opens it joins this account as
        ${roles.map((role) => ROLE_LABELS[role]).join(', ')}.
      </p>
      ${secretReveal({ id: 'invitation-link', value: link, copyLabel: 'Copy link' })}
      <p><a href="/console/people">Back to people</a></p>`,
  });
}
