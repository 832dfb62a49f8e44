import type { ProviderAuthorization } from '../../../domain/providers/provider-authorization';
import {
  actionButton,
  badge,
  BadgeTone,
  card,
  emptyState,
  inputField,
  newestFirstPager,
  postForm,
  submitButton,
  table,
} from '../views';
import { Html, html } from '../views/html';
import { day, moment } from '../views/markup';

export const AUTHORIZATIONS_PATH = '/console/providers';

/** The start form's fields as the person sent them, so a refused form comes back as it was. */
export interface AuthorizationForm {
  npi: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  practice: string;
}

export const EMPTY_AUTHORIZATION_FORM: AuthorizationForm = {
  npi: '',
  first_name: '',
  last_name: '',
  email: '',
  phone: '',
  practice: '',
};

const STATUS_TONES: Record<ProviderAuthorization['status'], BadgeTone | undefined> = {
  pending: 'warn',
  signed: 'ok',
  expired: undefined,
  revoked: 'bad',
};

/** The account's authorizations in this mode, a revoke button on each that can be revoked, and the start form. */
export function authorizationsView(props: {
  authorizations: ProviderAuthorization[];
  /** Set when this page is not the newest authorizations: it links back to them. */
  cursor?: string;
  nextCursor: string | null;
  form: AuthorizationForm;
  csrf: Html;
  canReadOutbox: boolean;
  /** Whether this mode's BVs and PAs need their prescriber's signed authorization. */
  enforced: boolean;
  /** The ids of the signed ones (not revoked or expired) signed from a network the account asked from. */
  signedFromRequesterNetwork: Set<string>;
}): Html {
  return html`${enforcementNote(props.enforced)} ${sectionLinks(props.canReadOutbox)}
  ${authorizationTable(props.authorizations, props.csrf, props.signedFromRequesterNetwork)}
  ${newestFirstPager({
    label: 'Authorizations pages',
    path: AUTHORIZATIONS_PATH,
    cursor: props.cursor,
    nextCursor: props.nextCursor,
    entries: 'authorizations',
  })}
  ${startForm(props.form, props.csrf)}`;
}

function authorizationTable(
  authorizations: ProviderAuthorization[],
  csrf: Html,
  signedFromRequesterNetwork: Set<string>,
): Html {
  return table({
    caption: "Prescribers' authorizations of this account to act in their name",
    rows: authorizations,
    empty: emptyState('No prescriber has been asked yet. Start an authorization below.'),
    columns: [
      { heading: 'Prescriber', cell: (row) => `${row.first_name} ${row.last_name}` },
      { heading: 'NPI', cell: (row) => html`<code>${row.npi}</code>` },
      { heading: 'Email', cell: (row) => row.email },
      {
        heading: 'Status',
        cell: (row) =>
          html`${badge(row.status, STATUS_TONES[row.status])}${
            signedFromRequesterNetwork.has(row.id) ? requesterNetworkWarning : ''
          }`,
      },
      { heading: 'Signed', cell: (row) => moment(row.signed_at, 'not yet') },
      { heading: 'Lapses', cell: lapse },
      {
        heading: 'Action',
        cell: (row) =>
          row.status === 'pending' || row.status === 'signed'
            ? actionButton({
                action: `${AUTHORIZATIONS_PATH}/${row.id}/revoke`,
                csrf,
                label: html`Revoke<span class="visually-hidden"> ${row.first_name} ${row.last_name}</span>`,
                kind: 'danger',
                small: true,
                confirm: `Revoke the authorization of ${row.first_name} ${row.last_name}? BVs and PAs in their name are refused from then on where enforcement is on.`,
              })
            : '',
      },
    ],
  });
}

/**
 * The signature came from where this account's own requests came from, so someone at the clinic who
 * could read the link may have signed: said, never acted on (clinics and prescribers share networks).
 */
const requesterNetworkWarning = html` ${badge('signed from your network', 'warn')}
  <small
    >Signed from a network this account asked for authorizations from. Confirm with the prescriber that they
    signed it themselves; if not, revoke it.</small
  >`;

/** When it lapses while it can: the link of a pending one, the signature of a signed one. */
function lapse(row: ProviderAuthorization): Html | string {
  if (row.status === 'pending' && row.link_expires_at) return html`link ${day(row.link_expires_at)}`;
  if (row.status === 'signed' && row.expires_at) return day(row.expires_at);
  return '—';
}

function enforcementNote(enforced: boolean): Html {
  return html`<p>
    ${
      enforced
        ? 'In this mode, a benefit verification or prior authorization is refused unless its prescriber signed an authorization that has not lapsed.'
        : 'In this mode, benefit verifications and prior authorizations are accepted whether or not their prescriber signed an authorization.'
    }
    Admins change this on <a href="/console/account">the account page</a>.
  </p>`;
}

/** Where else the Providers section leads: the registry, and the mail test mode sent (admins only). */
function sectionLinks(canReadOutbox: boolean): Html {
  return html`<p>
    <a href="${AUTHORIZATIONS_PATH}/lookup">Look a prescriber up in the NPI registry</a>
    ${canReadOutbox ? html` · <a href="${AUTHORIZATIONS_PATH}/outbox">Outbox (mail sent in test mode)</a>` : ''}
  </p>`;
}

function startForm(form: AuthorizationForm, csrf: Html): Html {
  return card({
    id: 'start-heading',
    heading: 'Ask a prescriber to authorize this account',
    body: postForm({
      action: AUTHORIZATIONS_PATH,
      csrf,
      body: html`<p>
          The NPI and name are checked against the NPI registry. The prescriber is mailed a link to sign; it
          works once and lapses after 14 days.
        </p>
        ${inputField({ name: 'npi', label: 'NPI', value: form.npi, attributes: html`inputmode="numeric" maxlength="10" required` })}
        ${inputField({ name: 'first_name', label: 'First name', value: form.first_name, attributes: html`maxlength="100" required` })}
        ${inputField({ name: 'last_name', label: 'Last name', value: form.last_name, attributes: html`maxlength="100" required` })}
        ${inputField({ name: 'email', label: 'Email', type: 'email', value: form.email, attributes: html`maxlength="320" required` })}
        ${inputField({ name: 'phone', label: 'Phone (optional)', value: form.phone, attributes: html`maxlength="40"` })}
        ${inputField({ name: 'practice', label: 'Practice (optional)', value: form.practice, attributes: html`maxlength="200"` })}
        ${submitButton({ label: 'Send the signing link', kind: 'primary' })}`,
    }),
  });
}
