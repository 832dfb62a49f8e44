import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { CASE_EVENT_TYPES } from '../../../domain/webhooks/event-types';
import type { Principal } from '../../../infrastructure/accounts/accounts.repository';
import type { WebhookDelivery } from '../../../infrastructure/webhooks/webhook-deliveries.repository';
import type {
  EndpointStatus,
  WebhookEndpoint,
} from '../../../infrastructure/webhooks/webhook-endpoints.repository';
import { RequiresRole } from '../../common/route-access';
import { success } from '../../common/envelope';
import { ContextualRequest } from '../../common/request-context';
import { CreateWebhookDto, ListDeliveriesQuery, UpdateWebhookDto } from '../../webhooks/webhooks.dto';
import { WebhooksService } from '../../webhooks/webhooks.service';
import { ConsoleAudit } from '../console-audit';
import { Html, html } from '../html';
import { csrfField, sendPage } from '../layout';
import { doneNotice, moment } from '../markup';
import { checkAsTheApiDoes, formChoices, formField, queryAsTheApiReads, refusalNotice } from './form-input';

const PATH = '/console/webhooks';

const LIST_DONE = { deleted: 'The endpoint was deleted. Its pending deliveries are abandoned.' };
const ENDPOINT_DONE = {
  created: 'The endpoint was created. It is inactive until you turn it on.',
  updated: 'The endpoint was saved.',
  activating: 'Activation started: the endpoint is checked and becomes active in a moment.',
  deactivated: 'The endpoint was turned off. It receives no more events until turned on again.',
  test_sent: 'A test event is on its way; its delivery is listed below.',
  retried: 'The delivery is being sent again; the new delivery is listed below.',
};

const THIN_NOTIFICATIONS = 'only the case id, object, status and livemode, no patient data';

const STATUS_BADGES: Record<EndpointStatus, string> = {
  active: 'badge-ok',
  activating: 'badge-warn',
  inactive: 'badge-bad',
};

interface EndpointForm {
  name: string;
  url: string;
  events: string[];
  thin: boolean;
}

type Notice = { kind: 'success' | 'error'; text: string } | undefined;

/**
 * The specification's admin panel, Webhooks section: endpoints, their activation and their delivery
 * log, through the same service as the API, so its SSRF policy, validation and refusals apply alike.
 */
@ApiExcludeController()
@Controller('console')
@RequiresRole('admin')
export class WebhooksPageController {
  constructor(
    @Inject(WebhooksService) private readonly webhooks: WebhooksService,
    @Inject(ConsoleAudit) private readonly audit: ConsoleAudit,
  ) {}

  @Get('webhooks')
  async list(@Req() req: Request, @Res() res: Response, @Query('done') done?: string): Promise<void> {
    await this.sendListPage(req, res, doneNotice(LIST_DONE, done));
  }

  @Post('webhooks')
  async create(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const form = endpointFormOf(body);
    const checked = await checkAsTheApiDoes(CreateWebhookDto, {
      ...form,
      secret: formField(body, 'secret') ?? '',
    });
    if (!checked.valid) return this.sendListPage(req, res, refusalNotice(checked.messages), form, 400);
    const endpoint = await this.webhooks.create(principalOf(req), checked.value);
    await this.audit.record(req, 'webhook_endpoint.created', endpointTarget(endpoint.id));
    res.redirect(303, `${PATH}/${endpoint.id}?done=created`);
  }

  @Get('webhooks/:id')
  async show(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    const endpoint = await this.webhooks.get(principalOf(req), id);
    await this.sendEndpointPage(req, res, endpoint, { notice: doneNotice(ENDPOINT_DONE, query.done), query });
  }

  @Post('webhooks/:id')
  async update(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<void> {
    const form = endpointFormOf(body);
    // An empty secret field keeps the current secret, as leaving it out of a PATCH does.
    const checked = await checkAsTheApiDoes(UpdateWebhookDto, {
      ...form,
      secret: formField(body, 'secret') || undefined,
    });
    if (!checked.valid) {
      const endpoint = await this.webhooks.get(principalOf(req), id);
      return this.sendEndpointPage(
        req,
        res,
        endpoint,
        { notice: refusalNotice(checked.messages), form },
        400,
      );
    }
    await this.webhooks.update(principalOf(req), id, checked.value);
    await this.audit.record(req, 'webhook_endpoint.updated', endpointTarget(id));
    res.redirect(303, `${PATH}/${id}?done=updated`);
  }

  @Post('webhooks/:id/turn-on')
  async turnOn(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhooks.update(principalOf(req), id, { active: true });
    await this.audit.record(req, 'webhook_endpoint.updated', endpointTarget(id));
    res.redirect(303, `${PATH}/${id}?done=activating`);
  }

  @Post('webhooks/:id/turn-off')
  async turnOff(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhooks.update(principalOf(req), id, { active: false });
    await this.audit.record(req, 'webhook_endpoint.updated', endpointTarget(id));
    res.redirect(303, `${PATH}/${id}?done=deactivated`);
  }

  @Post('webhooks/:id/delete')
  async remove(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(principalOf(req), id);
    await this.audit.record(req, 'webhook_endpoint.deleted', endpointTarget(id));
    res.redirect(303, `${PATH}?done=deleted`);
  }

  @Post('webhooks/:id/test')
  async sendTest(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.webhooks.sendTest(principalOf(req), id);
    res.redirect(303, `${PATH}/${id}?done=test_sent`);
  }

  @Post('webhooks/:id/deliveries/:deliveryId/retry')
  async retry(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    await this.webhooks.retryDelivery(principalOf(req), id, deliveryId);
    // A retry sends the event (a case object, PHI) again, to wherever the endpoint points now.
    await this.audit.record(req, 'webhook_delivery.retried', endpointTarget(id));
    res.redirect(303, `${PATH}/${id}?done=retried`);
  }

  /** What the endpoint page's live status asks while an activation is under way. */
  @Get('api/webhooks/:id')
  async status(@Req() req: Request, @Param('id') id: string) {
    return success(await this.webhooks.get(principalOf(req), id));
  }

  private async sendListPage(
    req: Request,
    res: Response,
    notice: Notice,
    form: EndpointForm = { name: '', url: '', events: [], thin: false },
    status = 200,
  ): Promise<void> {
    const endpoints = await this.webhooks.list(principalOf(req));
    sendPage(
      req,
      res,
      {
        title: 'Webhooks',
        notice,
        body: html`${endpointTable(endpoints)}
          <section class="card narrow" aria-labelledby="create-heading">
            <h2 id="create-heading">Add an endpoint</h2>
            <p class="hint">
              A new endpoint is inactive: turn it on from its page once your receiver is ready.
            </p>
            <form method="post" action="${PATH}">
              ${csrfField(req, res)} ${endpointFields(form, { secretRequired: true })}
              <button type="submit" class="primary">Add endpoint</button>
            </form>
          </section>`,
      },
      status,
    );
  }

  private async sendEndpointPage(
    req: Request,
    res: Response,
    endpoint: WebhookEndpoint,
    page: { notice: Notice; form?: EndpointForm; query?: Record<string, unknown> },
    status = 200,
  ): Promise<void> {
    const query = await queryAsTheApiReads(ListDeliveriesQuery, { cursor: page.query?.cursor });
    const deliveries = await this.webhooks.listDeliveries(principalOf(req), endpoint.id, query);
    const form = page.form ?? {
      name: endpoint.name,
      url: endpoint.url,
      events: endpoint.events,
      thin: endpoint.thin,
    };
    const base = `${PATH}/${endpoint.id}`;
    sendPage(
      req,
      res,
      {
        title: `Webhook endpoint: ${endpoint.name}`,
        notice: page.notice,
        body: html`<section class="card" aria-labelledby="status-heading">
            <h2 id="status-heading">Status</h2>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <span
                  role="status"
                  id="endpoint-status"
                  data-refresh-url="/console/api/webhooks/${endpoint.id}"
                  data-refresh-field="status"
                  data-refresh-until="active inactive"
                  data-value="${endpoint.status}"
                  >${endpoint.status}</span
                >
              </dd>
              ${
                endpoint.status_reason
                  ? html`<dt>Reason</dt>
                      <dd>${endpoint.status_reason}</dd>`
                  : ''
              }
              <dt>URL</dt>
              <dd><code>${endpoint.url}</code></dd>
              <dt>Secret</dt>
              <dd>ends in <code>${endpoint.secret_hint}</code></dd>
              <dt>Notifications</dt>
              <dd>${endpoint.thin ? THIN_NOTIFICATIONS : 'full: the whole case'}</dd>
            </dl>
            <div class="actions">
              ${
                endpoint.status === 'inactive'
                  ? postButton(req, res, `${base}/turn-on`, 'Turn on', 'primary')
                  : postButton(req, res, `${base}/turn-off`, 'Turn off')
              }
              ${postButton(req, res, `${base}/test`, 'Send test event')}
            </div>
          </section>
          <section class="card" aria-labelledby="deliveries-heading">
            <h2 id="deliveries-heading">Delivery log</h2>
            ${deliveryTable(req, res, base, deliveries.data)}
            <nav class="pager" aria-label="Delivery log pages">
              ${query.cursor ? html`<a href="${base}">Newest deliveries</a>` : ''}
              ${
                deliveries.next_cursor
                  ? html`<a href="${base}?cursor=${deliveries.next_cursor}">Older deliveries</a>`
                  : ''
              }
            </nav>
          </section>
          <section class="card narrow" aria-labelledby="edit-heading">
            <h2 id="edit-heading">Edit</h2>
            <form method="post" action="${base}">
              ${csrfField(req, res)}
              ${endpointFields(form, { secretRequired: false, secretHint: endpoint.secret_hint })}
              <button type="submit" class="primary">Save changes</button>
            </form>
          </section>
          <section class="card narrow" aria-labelledby="delete-heading">
            <h2 id="delete-heading">Delete</h2>
            <form
              method="post"
              action="${base}/delete"
              data-confirm="Delete this endpoint? Its pending deliveries are abandoned."
            >
              ${csrfField(req, res)}
              <button type="submit" class="danger">Delete endpoint</button>
            </form>
          </section>`,
      },
      status,
    );
  }
}

function principalOf(req: Request): Principal {
  return (req as ContextualRequest).context.principal!;
}

function endpointTarget(id: string) {
  return { object: 'webhook_endpoint', id };
}

function endpointFormOf(body: unknown): EndpointForm {
  return {
    name: formField(body, 'name') ?? '',
    url: formField(body, 'url') ?? '',
    events: formChoices(body, 'events'),
    // An unchecked box sends nothing: the endpoint gets full notifications.
    thin: formField(body, 'thin') === 'true',
  };
}

function postButton(req: Request, res: Response, action: string, text: string, kind?: 'primary'): Html {
  return html`<form method="post" action="${action}">
    ${csrfField(req, res)}<button type="submit" ${kind ? html`class="${kind}"` : ''}>${text}</button>
  </form>`;
}

function endpointFields(form: EndpointForm, secret: { secretRequired: boolean; secretHint?: string }): Html {
  return html`<label for="name">Name</label>
    <input id="name" name="name" type="text" maxlength="100" required value="${form.name}" />
    <label for="url">URL</label>
    <input id="url" name="url" type="url" required value="${form.url}" />
    <label for="secret">Secret key</label>
    ${
      secret.secretRequired
        ? html`<p class="hint" id="secret-hint">At least 16 characters; it signs every notification.</p>`
        : html`<p class="hint" id="secret-hint">
            Leave empty to keep the current secret (ends in ${secret.secretHint}). A new one applies from the
            next delivery attempt.
          </p>`
    }
    <input
      id="secret"
      name="secret"
      type="password"
      autocomplete="new-password"
      aria-describedby="secret-hint"
      ${secret.secretRequired ? html`required minlength="16"` : ''}
    />
    <fieldset>
      <legend>Events</legend>
      ${Object.entries(CASE_EVENT_TYPES).map(
        ([type, { title }]) =>
          html`<label class="checkbox" for="event-${type}">
            <input
              id="event-${type}"
              name="events"
              type="checkbox"
              value="${type}"
              ${form.events.includes(type) ? html`checked` : ''}
            />
            ${title}
          </label>`,
      )}
    </fieldset>
    <label class="checkbox" for="thin">
      <input id="thin" name="thin" type="checkbox" value="true" ${form.thin ? html`checked` : ''} />
      Thin notifications: ${THIN_NOTIFICATIONS}
    </label>`;
}

function endpointTable(endpoints: WebhookEndpoint[]): Html {
  if (endpoints.length === 0) return html`<p class="empty">No webhook endpoints yet.</p>`;
  return html`<table>
    <caption>
      The account's webhook endpoints
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">URL</th>
        <th scope="col">Events</th>
        <th scope="col">Status</th>
      </tr>
    </thead>
    <tbody>
      ${endpoints.map(
        (endpoint) =>
          html`<tr>
            <td><a href="${PATH}/${endpoint.id}">${endpoint.name}</a></td>
            <td><code>${endpoint.url}</code></td>
            <td>${endpoint.events.map((type) => CASE_EVENT_TYPES[type].title).join(', ')}</td>
            <td><span class="badge ${STATUS_BADGES[endpoint.status]}">${endpoint.status}</span></td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function deliveryTable(req: Request, res: Response, base: string, deliveries: WebhookDelivery[]): Html {
  if (deliveries.length === 0) return html`<p class="empty">No deliveries to this endpoint yet.</p>`;
  return html`<table>
    <caption>
      Deliveries to this endpoint, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Event</th>
        <th scope="col">Created</th>
        <th scope="col">Status</th>
        <th scope="col">Attempts</th>
        <th scope="col">Last response</th>
        <th scope="col">Next retry</th>
        <th scope="col">Action</th>
      </tr>
    </thead>
    <tbody>
      ${deliveries.map((delivery) => {
        const last = delivery.attempts[delivery.attempts.length - 1];
        return html`<tr>
          <td>${delivery.event_type}${delivery.retry_of ? html` <span class="hint">(retry)</span>` : ''}</td>
          <td>${moment(delivery.created_at)}</td>
          <td><span class="badge ${DELIVERY_BADGES[delivery.status]}">${delivery.status}</span></td>
          <td>${delivery.attempts.length}</td>
          <td>${last ? (last.http_status ?? last.error ?? '') : 'none yet'}</td>
          <td>${delivery.status === 'pending' ? moment(last?.next_attempt_at ?? null, '—') : '—'}</td>
          <td>
            ${
              delivery.status === 'failed' || delivery.status === 'pending'
                ? html`<form method="post" action="${base}/deliveries/${delivery.id}/retry">
                    ${csrfField(req, res)}
                    <button type="submit" class="small">Retry now</button>
                  </form>`
                : ''
            }
          </td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

const DELIVERY_BADGES: Record<WebhookDelivery['status'], string> = {
  succeeded: 'badge-ok',
  pending: 'badge-warn',
  failed: 'badge-bad',
  abandoned: 'badge-bad',
};
