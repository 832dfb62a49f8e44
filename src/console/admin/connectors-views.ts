import { CONNECTOR_KINDS, ConnectorKind } from '../../../domain/connectors/connector-kinds';
import {
  CONNECTOR_AUTH_TYPES,
  connectorTimeoutRange,
  ELIGIBILITY_FORMATS,
  INTERCHANGE_USAGES,
  MAIL_SECURITIES,
} from '../../../domain/connectors/connector-settings';
import type {
  Connector,
  ConnectorSigningView,
} from '../../../infrastructure/connectors/connector-settings.repository';
import {
  actionButton,
  badge,
  card,
  definitionList,
  hiddenFields,
  inputField,
  optionsOf,
  postForm,
  selectField,
  submitButton,
  table,
  textareaField,
} from '../views';
import { Html, html } from '../views/html';
import { moment } from '../views/markup';

export const CONNECTORS_PATH = '/console/connectors';

export const KIND_TITLES: Record<ConnectorKind, string> = {
  eligibility: 'Eligibility clearinghouse (X12 270/271)',
  prior_authorization: 'Prior authorization payer endpoint (Da Vinci PAS)',
  program_enrollment: 'Manufacturer program hub',
  coverage_requirements: 'Coverage requirements discovery (Da Vinci CRD)',
  questionnaire: 'Payer questionnaires (Da Vinci DTR)',
  mail: 'Mail to prescribers (SMTP)',
};

export const CONNECTOR_FORM_FIELDS = [
  'url',
  'format',
  'auth_type',
  'username',
  'header_name',
  'submitter_id',
  'receiver_id',
  'usage',
  'client_id',
  'host',
  'port',
  'security',
  'from',
  'ca_certificate',
  'timeout_ms',
] as const;

/** The form's fields as they were sent, so a refused form comes back as it was typed (the secret aside). */
export type ConnectorForm = Record<(typeof CONNECTOR_FORM_FIELDS)[number], string>;

/** Every kind of connector, configured or not, so a missing one is as visible as a set one. */
export function connectorsListView(configured: Connector[]): Html {
  return html`<p class="hint">
      Live-mode cases go to the connectors configured here; test mode always uses the simulators. A live case
      whose connector is missing is refused. Live-mode mail goes through the mail connector; test-mode mail
      stays in the <a href="/console/providers/outbox">outbox</a>.
    </p>
    ${table({
      caption: "The account's connectors",
      rows: CONNECTOR_KINDS.map((kind) => ({
        kind,
        connector: configured.find((entry) => entry.kind === kind),
      })),
      columns: [
        {
          heading: 'Connector',
          cell: ({ kind }) => html`<a href="${CONNECTORS_PATH}/${kind}">${KIND_TITLES[kind]}</a>`,
        },
        {
          heading: 'URL',
          cell: ({ connector }) =>
            connector ? html`<code>${connector.url}</code>` : badge('not configured', 'bad'),
        },
        {
          heading: 'Authentication',
          cell: ({ connector }) => (connector ? authenticationOf(connector) : '—'),
        },
        { heading: 'Updated', cell: ({ connector }) => moment(connector?.updated_at ?? null) },
      ],
    })}`;
}

function authenticationOf({ auth, signing }: Connector): string {
  if (signing) return `signed JWT (key ${signing.kid})`;
  return auth ? `${auth.type}${auth.hint ? ` (${auth.hint})` : ''}` : '—';
}

export interface ConnectorPageProps {
  kind: ConnectorKind;
  connector: Connector | undefined;
  form: ConnectorForm;
  csrf: Html;
}

/** One connector's settings form, its signing keys if it has any, and its removal once it exists. */
export function connectorView({ kind, connector, form, csrf }: ConnectorPageProps): Html {
  const base = `${CONNECTORS_PATH}/${kind}`;
  return html`${card({
    id: 'settings-heading',
    heading: connector ? 'Settings' : 'Set up',
    narrow: true,
    body: postForm({
      action: base,
      csrf,
      body: html`${
        kind === 'coverage_requirements'
          ? coverageRequirementsFields(form)
          : kind === 'mail'
            ? mailFields(form, connector?.auth?.hint ?? null)
            : connectorFields(kind, form, connector?.auth?.hint ?? null)
      }
      ${submitButton({ label: 'Save connector', kind: 'primary' })}`,
    }),
  })}
  ${connector?.signing ? signingKeysCard(base, connector.signing, csrf) : ''}
  ${
    connector
      ? card({
          id: 'delete-heading',
          heading: 'Remove',
          narrow: true,
          body: actionButton({
            action: `${base}/delete`,
            csrf,
            confirm: 'Remove this connector? Live cases that need it are refused until it is set again.',
            label: 'Remove connector',
            kind: 'danger',
          }),
        })
      : ''
  }`;
}

/**
 * The public side of a CRD connector's keys, which the payer registers, and their rotation. The
 * private key never leaves the service.
 */
function signingKeysCard(base: string, signing: ConnectorSigningView, csrf: Html): Html {
  return card({
    id: 'signing-heading',
    heading: 'Signing keys',
    narrow: true,
    body: html`<p class="hint">
        Each call carries a JWT signed with the current key. Give the payer the JWKS URL; it serves the public
        keys only.
      </p>
      ${definitionList([
        ['JWKS URL', html`<code>${signing.jwks_url}</code>`],
        ['Current key', html`<code>${signing.kid}</code>`],
        [
          'Previous key (still published)',
          signing.previous_kid && html`<code>${signing.previous_kid}</code>`,
        ],
        ['Rotated', signing.rotated_at && moment(signing.rotated_at)],
      ])}
      ${postForm({
        action: `${base}/rotate-signing-key`,
        csrf,
        body: html`${hiddenFields({ from_kid: signing.kid })}${submitButton({ label: 'Rotate signing key' })}`,
        confirm:
          'Rotate the signing key? The new key signs from now on; the current one stays published until the next rotation.',
      })}`,
  });
}

/** A CRD service: its order-sign URL, the client id the payer knows the account by, and a time limit. */
function coverageRequirementsFields(form: ConnectorForm): Html {
  return html`${urlField(form, 'order-sign URL')}
  ${inputField({
    name: 'client_id',
    label: 'Client id (the JWT issuer)',
    value: form.client_id,
    hint: 'As the payer registered the account.',
    attributes: html`required maxlength="255"`,
  })}
  ${timeoutField('coverage_requirements', form)}`;
}

/**
 * An SMTP server: where it is, how the session is secured (never in clear), the optional credentials,
 * the sender address, and a certificate to trust instead of the public authorities.
 */
function mailFields(form: ConnectorForm, hint: string | null): Html {
  return html`${inputField({
    name: 'host',
    label: 'SMTP server host',
    value: form.host,
    hint: 'Private, loopback and link-local addresses are refused.',
    attributes: html`required maxlength="253"`,
  })}
  ${inputField({ name: 'port', label: 'Port', value: form.port, attributes: html`required inputmode="numeric"` })}
  ${selectField({
    name: 'security',
    label: 'Security (tls: from the first byte, usually 465; starttls: upgraded, usually 587)',
    options: optionsOf(MAIL_SECURITIES),
    value: form.security,
  })}
  ${inputField({ name: 'username', label: 'User name (leave empty for none)', value: form.username })}
  ${inputField({
    name: 'secret',
    label: 'Password',
    type: 'password',
    hint: hint ? `Leave empty to keep the current one (ends in ${hint}).` : 'Only with a user name.',
    attributes: html`autocomplete="new-password"`,
  })}
  ${inputField({
    name: 'from',
    label: 'Sender address',
    type: 'email',
    value: form.from,
    attributes: html`required maxlength="254"`,
  })}
  ${textareaField({
    name: 'ca_certificate',
    label: 'Certificate to trust (PEM, optional)',
    value: form.ca_certificate,
    hint: "Instead of the public certificate authorities: a private relay's CA or its own certificate.",
    rows: 4,
  })}
  ${timeoutField('mail', form)}`;
}

/** How long a call to the connector may take, within the range its kind allows. */
function timeoutField(kind: ConnectorKind, form: ConnectorForm): Html {
  const { min, max } = connectorTimeoutRange(kind);
  return inputField({
    name: 'timeout_ms',
    label: `Timeout in milliseconds (${min}–${max})`,
    value: form.timeout_ms,
    attributes: html`inputmode="numeric"`,
  });
}

function urlField(form: ConnectorForm, label: string): Html {
  return inputField({
    name: 'url',
    label,
    type: 'url',
    value: form.url,
    hint: 'https; private, loopback and link-local addresses are refused.',
    attributes: html`required`,
  });
}

function connectorFields(kind: ConnectorKind, form: ConnectorForm, hint: string | null): Html {
  const choose = (name: keyof ConnectorForm, label: string, options: readonly string[]) =>
    selectField({ name, label, options: optionsOf(options), value: form[name] });
  const type = (name: keyof ConnectorForm, label: string, attributes?: Html) =>
    inputField({ name, label, value: form[name], attributes });
  // A DTR service is named by its FHIR base, which `Questionnaire/$questionnaire-package` is under.
  const url = kind === 'questionnaire' ? urlField(form, 'FHIR base URL') : urlField(form, 'URL');
  return html`${url} ${choose('auth_type', 'Authentication', CONNECTOR_AUTH_TYPES)}
  ${type('username', 'User name (basic)')} ${type('header_name', 'Header name (header)')}
  ${inputField({
    name: 'secret',
    label: 'Password, token or header value',
    type: 'password',
    hint: hint
      ? `Leave empty to keep the current one (ends in ${hint}).`
      : 'Not needed for authentication none.',
    attributes: html`autocomplete="new-password"`,
  })}
  ${timeoutField(kind, form)}
  ${
    kind === 'eligibility'
      ? html`${choose('format', 'Format', ELIGIBILITY_FORMATS)}
        ${type('submitter_id', 'Submitter id (ISA06)', html`maxlength="15"`)}
        ${type('receiver_id', 'Receiver id (ISA08)', html`maxlength="15"`)}
        ${choose('usage', 'Usage (ISA15)', INTERCHANGE_USAGES)}`
      : ''
  }`;
}
