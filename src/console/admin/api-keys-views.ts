import { ACCOUNT_ROLES } from '../../../domain/accounts/roles';
import type { ApiKeyRecord } from '../../../infrastructure/accounts/accounts.repository';
import { KEY_MODES } from '../../../infrastructure/accounts/api-key-secret';
import {
  actionButton,
  badge,
  card,
  choiceGroup,
  definitionList,
  emptyState,
  inputField,
  notice,
  optionsOf,
  postForm,
  secretReveal,
  submitButton,
  table,
} from '../views';
import { Html, html } from '../views/html';
import { moment } from '../views/markup';

export const API_KEYS_PATH = '/console/api-keys';

/** The creation form's fields as the person sent them, so a refused form comes back as it was. */
export interface KeyForm {
  label: string;
  roles: string[];
  mode: string;
}

export const EMPTY_KEY_FORM: KeyForm = { label: '', roles: [], mode: 'test' };

/** The account's keys and the form that creates one. */
export function apiKeysView(keys: ApiKeyRecord[], form: KeyForm, csrf: Html): Html {
  return html`${keyTable(keys, csrf)} ${creationForm(form, csrf)}`;
}

/** The one page that ever shows a key's secret: the answer to the form that created it. */
export function newApiKeyView(key: ApiKeyRecord, secret: string): Html {
  return card({
    id: 'secret-heading',
    heading: 'Your new API key',
    body: html`${notice({
        kind: 'error',
        body: 'Copy this key now and keep it somewhere safe: it will not be shown again. If it is lost, revoke it and create another.',
      })}
      ${secretReveal({ id: 'api-key-secret', value: secret, copyLabel: 'Copy' })}
      <p><a class="button" href="${API_KEYS_PATH}">Back to API keys</a></p>
      ${definitionList([
        ['Label', key.label],
        ['Roles', key.roles.join(', ')],
        ['Mode', modeBadge(key)],
        ['Ends in', key.key_hint],
      ])}`,
  });
}

function keyTable(keys: ApiKeyRecord[], csrf: Html): Html {
  return table({
    caption: "The account's API keys (secrets are shown only once, when a key is created)",
    rows: keys,
    empty: emptyState('This account has no API keys yet.'),
    columns: [
      { heading: 'Label', cell: (key) => key.label },
      { heading: 'Roles', cell: (key) => key.roles.join(', ') },
      { heading: 'Mode', cell: modeBadge },
      { heading: 'Ends in', cell: (key) => html`<code>${key.key_hint}</code>` },
      { heading: 'Created', cell: (key) => moment(key.created_at) },
      { heading: 'Last used', cell: (key) => moment(key.last_used_at, 'never') },
      {
        heading: 'Status',
        cell: (key) => (key.revoked_at ? badge('revoked', 'bad') : badge('active', 'ok')),
      },
      {
        heading: 'Action',
        cell: (key) =>
          key.revoked_at
            ? ''
            : actionButton({
                action: `${API_KEYS_PATH}/${key.id}/revoke`,
                csrf,
                confirm: `Revoke the key ${key.label}? Requests that send it will be refused at once.`,
                label: `Revoke ${key.label}`,
                kind: 'danger',
                small: true,
              }),
      },
    ],
  });
}

/** A live key reaches real payers: its mode is never left for the reader to infer from the prefix. */
function modeBadge(key: ApiKeyRecord): Html {
  return key.livemode ? badge('live', 'warn') : badge('test');
}

function creationForm(form: KeyForm, csrf: Html): Html {
  return card({
    id: 'create-heading',
    heading: 'Create an API key',
    narrow: true,
    body: postForm({
      action: API_KEYS_PATH,
      csrf,
      body: html`${inputField({
        name: 'label',
        label: 'Label',
        value: form.label,
        attributes: html`maxlength="100" required`,
      })}
      ${choiceGroup({
        legend: 'Roles',
        name: 'roles',
        type: 'checkbox',
        idPrefix: 'role',
        options: optionsOf(ACCOUNT_ROLES),
        chosen: form.roles,
      })}
      ${choiceGroup({
        legend: 'Mode',
        name: 'mode',
        type: 'radio',
        idPrefix: 'mode',
        options: KEY_MODES.map((mode) => ({
          value: mode,
          label: mode === 'test' ? 'Test: simulated payers, mock results allowed' : 'Live: real payers',
        })),
        chosen: [form.mode],
      })}
      ${submitButton({ label: 'Create API key', kind: 'primary' })}`,
    }),
  });
}
