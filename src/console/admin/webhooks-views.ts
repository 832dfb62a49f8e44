import { SUBSCRIBABLE_EVENT_TYPES } from '../../../domain/webhooks/event-types';
import type { WebhookDelivery } from '../../../infrastructure/webhooks/webhook-deliveries.repository';
import type {
  EndpointStatus,
  WebhookEndpoint,
} from '../../../infrastructure/webhooks/webhook-endpoints.repository';
import {
  actionButton,
  badge,
  BadgeTone,
  card,
  choiceGroup,
  choice,
  definitionList,
  emptyState,
  inputField,
  newestFirstPager,
  postForm,
  submitButton,
  table,
  tableCard,
} from '../views';
import { Html, html } from '../views/html';
import { moment } from '../views/markup';

export const WEBHOOKS_PATH = '/console/webhooks';

const THIN_NOTIFICATIONS = 'only the case id, object, status and livemode, no patient data';

const STATUS_TONES: Record<EndpointStatus, BadgeTone> = {
  active: 'ok',
  activating: 'warn',
  inactive: 'bad',
};

const DELIVERY_TONES: Record<WebhookDelivery['status'], BadgeTone> = {
  succeeded: 'ok',
  pending: 'warn',
  failed: 'bad',
  abandoned: 'bad',
};

/** An endpoint's fields as the person typed them, so a refused form comes back as it was (the secret aside). */
export interface EndpointForm {
  name: string;
  url: string;
  events: string[];
  thin: boolean;
}

export const EMPTY_ENDPOINT_FORM: EndpointForm = { name: '', url: '', events: [], thin: false };

/** The account's endpoints and the form that adds one. */
export function webhooksListView(endpoints: WebhookEndpoint[], form: EndpointForm, csrf: Html): Html {
  return html`${table({
    caption: "The account's webhook endpoints",
    rows: endpoints,
    empty: emptyState('No webhook endpoints yet.'),
    columns: [
      {
        heading: 'Name',
        cell: (endpoint) => html`<a href="${WEBHOOKS_PATH}/${endpoint.id}">${endpoint.name}</a>`,
      },
      { heading: 'URL', cell: (endpoint) => html`<code>${endpoint.url}</code>` },
      {
        heading: 'Events',
        cell: (endpoint) => endpoint.events.map((type) => SUBSCRIBABLE_EVENT_TYPES[type].title).join(', '),
      },
      { heading: 'Status', cell: (endpoint) => badge(endpoint.status, STATUS_TONES[endpoint.status]) },
    ],
  })}
  ${card({
    id: 'create-heading',
    heading: 'Add an endpoint',
    narrow: true,
    body: html`<p class="hint">
        A new endpoint is inactive: turn it on from its page once your receiver is ready.
      </p>
      ${postForm({
        action: WEBHOOKS_PATH,
        csrf,
        body: html`${endpointFields(form, { secretRequired: true })}
        ${submitButton({ label: 'Add endpoint', kind: 'primary' })}`,
      })}`,
  })}`;
}

export interface EndpointPageProps {
  endpoint: WebhookEndpoint;
  form: EndpointForm;
  deliveries: WebhookDelivery[];
  /** Set when this page is not the newest deliveries: it links back to them. */
  cursor?: string;
  nextCursor: string | null;
  csrf: Html;
}

/** One endpoint: its status (refreshed while activating), delivery log, edit form and delete. */
export function endpointView({
  endpoint,
  form,
  deliveries,
  cursor,
  nextCursor,
  csrf,
}: EndpointPageProps): Html {
  const base = `${WEBHOOKS_PATH}/${endpoint.id}`;
  return html`${card({
    id: 'status-heading',
    heading: 'Status',
    body: html`${definitionList([
        ['Status', liveStatus(endpoint)],
        ['Reason', endpoint.status_reason || undefined],
        ['URL', html`<code>${endpoint.url}</code>`],
        ['Secret', html`ends in <code>${endpoint.secret_hint}</code>`],
        ['Notifications', endpoint.thin ? THIN_NOTIFICATIONS : 'full: the whole case'],
      ])}
      <div class="actions">
        ${
          endpoint.status === 'inactive'
            ? actionButton({ action: `${base}/turn-on`, csrf, label: 'Turn on', kind: 'primary' })
            : actionButton({ action: `${base}/turn-off`, csrf, label: 'Turn off' })
        }
        ${actionButton({ action: `${base}/test`, csrf, label: 'Send test event' })}
      </div>`,
  })}
  ${deliveryLog(base, { deliveries, cursor, nextCursor }, csrf)}
  ${card({
    id: 'edit-heading',
    heading: 'Edit',
    narrow: true,
    body: postForm({
      action: base,
      csrf,
      body: html`${endpointFields(form, { secretRequired: false, secretHint: endpoint.secret_hint })}
      ${submitButton({ label: 'Save changes', kind: 'primary' })}`,
    }),
  })}
  ${card({
    id: 'delete-heading',
    heading: 'Delete',
    narrow: true,
    body: actionButton({
      action: `${base}/delete`,
      csrf,
      confirm: 'Delete this endpoint? Its pending deliveries are abandoned.',
      label: 'Delete endpoint',
      kind: 'danger',
    }),
  })}`;
}

/** The status the page's script refreshes until the activation has settled one way or the other. */
function liveStatus(endpoint: WebhookEndpoint): Html {
  return html`<span
    role="status"
    id="endpoint-status"
    data-refresh-url="/console/api/webhooks/${endpoint.id}"
    data-refresh-field="status"
    data-refresh-until="active inactive"
    data-value="${endpoint.status}"
    >${endpoint.status}</span
  >`;
}

function endpointFields(form: EndpointForm, secret: { secretRequired: boolean; secretHint?: string }): Html {
  return html`${inputField({
    name: 'name',
    label: 'Name',
    value: form.name,
    attributes: html`maxlength="100" required`,
  })}
  ${inputField({ name: 'url', label: 'URL', type: 'url', value: form.url, attributes: html`required` })}
  ${inputField({
    name: 'secret',
    label: 'Secret key',
    type: 'password',
    hint: secret.secretRequired
      ? 'At least 16 characters; it signs every notification.'
      : `Leave empty to keep the current secret (ends in ${secret.secretHint}). A new one applies from the next delivery attempt.`,
    attributes: html`autocomplete="new-password" ${secret.secretRequired ? html`required minlength="16"` : ''}`,
  })}
  ${choiceGroup({
    legend: 'Events',
    name: 'events',
    type: 'checkbox',
    idPrefix: 'event',
    options: Object.entries(SUBSCRIBABLE_EVENT_TYPES).map(([type, { title }]) => ({
      value: type,
      label: title,
    })),
    chosen: form.events,
  })}
  ${choice({
    id: 'thin',
    name: 'thin',
    type: 'checkbox',
    value: 'true',
    label: `Thin notifications: ${THIN_NOTIFICATIONS}`,
    checked: form.thin,
  })}`;
}

/** The endpoint's deliveries a page at a time, newest first, each failed or pending one with its retry. */
function deliveryLog(
  base: string,
  { deliveries, cursor, nextCursor }: Pick<EndpointPageProps, 'deliveries' | 'cursor' | 'nextCursor'>,
  csrf: Html,
): Html {
  const lastAttempt = (delivery: WebhookDelivery) => delivery.attempts[delivery.attempts.length - 1];
  return tableCard({
    id: 'deliveries-heading',
    heading: 'Delivery log',
    caption: 'Deliveries to this endpoint, newest first',
    rows: deliveries,
    empty: emptyState('No deliveries to this endpoint yet.'),
    columns: [
      {
        heading: 'Event',
        cell: (delivery) =>
          html`${delivery.event_type}${delivery.retry_of ? html` <span class="hint">(retry)</span>` : ''}`,
      },
      { heading: 'Created', cell: (delivery) => moment(delivery.created_at) },
      { heading: 'Status', cell: (delivery) => badge(delivery.status, DELIVERY_TONES[delivery.status]) },
      { heading: 'Attempts', cell: (delivery) => delivery.attempts.length },
      {
        heading: 'Last response',
        cell: (delivery) => {
          const last = lastAttempt(delivery);
          return last ? (last.http_status ?? last.error ?? '') : 'none yet';
        },
      },
      {
        heading: 'Next retry',
        cell: (delivery) =>
          delivery.status === 'pending' ? moment(lastAttempt(delivery)?.next_attempt_at ?? null) : '—',
      },
      {
        heading: 'Action',
        cell: (delivery) =>
          delivery.status === 'failed' || delivery.status === 'pending'
            ? actionButton({
                action: `${base}/deliveries/${delivery.id}/retry`,
                csrf,
                label: 'Retry now',
                small: true,
              })
            : '',
      },
    ],
    after: newestFirstPager({
      label: 'Delivery log pages',
      path: base,
      cursor,
      nextCursor,
      entries: 'deliveries',
    }),
  });
}
