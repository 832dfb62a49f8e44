import { Body, Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';

import type { WebhookEndpoint } from '../../../infrastructure/webhooks/webhook-endpoints.repository';
import { success } from '../../common/envelope';
import {
  CreateWebhookDto,
  ListDeliveriesQuery,
  UpdateWebhookDto,
  WebhooksService,
} from '../../webhooks/webhooks.module';
import { PageNotice } from '../layout';
import { doneNotice } from '../views/markup';
import { checkAsTheApiDoes, formChoices, formField, queryAsTheApiReads, refusalNotice } from '../forms';
import { principalOf } from '../console-principal';
import {
  EMPTY_ENDPOINT_FORM,
  EndpointForm,
  endpointView,
  WEBHOOKS_PATH,
  webhooksListView,
} from './webhooks-views';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

const LIST_DONE = { deleted: 'The endpoint was deleted. Its pending deliveries are abandoned.' };
const ENDPOINT_DONE = {
  created: 'The endpoint was created. It is inactive until you turn it on.',
  updated: 'The endpoint was saved.',
  activating: 'Activation started: the endpoint is checked and becomes active in a moment.',
  deactivated: 'The endpoint was turned off. It receives no more events until turned on again.',
  test_sent: 'A test event is on its way; its delivery is listed below.',
  retried: 'The delivery is being sent again; the new delivery is listed below.',
};

/**
 * The specification's admin panel, Webhooks section: endpoints, their activation and their delivery
 * log, through the same service as the API, so its SSRF policy, validation and refusals apply alike.
 */
@ConsolePages('', 'admin')
export class WebhooksPageController {
  constructor(@Inject(WebhooksService) private readonly webhooks: WebhooksService) {}

  @Get('webhooks')
  async list(@Page() page: ConsolePage, @Query('done') done?: string): Promise<void> {
    await this.sendListPage(page, doneNotice(LIST_DONE, done));
  }

  @Post('webhooks')
  async create(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const form = endpointFormOf(body);
    const checked = await checkAsTheApiDoes(CreateWebhookDto, {
      ...form,
      secret: formField(body, 'secret') ?? '',
    });
    if (!checked.valid) return this.sendListPage(page, refusalNotice(checked.messages), form, 400);
    const endpoint = await this.webhooks.create(principalOf(page.req), checked.value);
    await page.audit('webhook_endpoint.created', endpointTarget(endpoint.id));
    page.seeOther(`${WEBHOOKS_PATH}/${endpoint.id}?done=created`);
  }

  @Get('webhooks/:id')
  async show(
    @Page() page: ConsolePage,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    const endpoint = await this.webhooks.get(principalOf(page.req), id);
    await this.sendEndpointPage(page, endpoint, { notice: doneNotice(ENDPOINT_DONE, query.done), query });
  }

  @Post('webhooks/:id')
  async update(@Page() page: ConsolePage, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    const form = endpointFormOf(body);
    // An empty secret field keeps the current secret, as leaving it out of a PATCH does.
    const checked = await checkAsTheApiDoes(UpdateWebhookDto, {
      ...form,
      secret: formField(body, 'secret') || undefined,
    });
    if (!checked.valid) {
      const endpoint = await this.webhooks.get(principalOf(page.req), id);
      return this.sendEndpointPage(page, endpoint, { notice: refusalNotice(checked.messages), form }, 400);
    }
    await this.webhooks.update(principalOf(page.req), id, checked.value);
    await page.audit('webhook_endpoint.updated', endpointTarget(id));
    page.seeOther(`${WEBHOOKS_PATH}/${id}?done=updated`);
  }

  @Post('webhooks/:id/turn-on')
  async turnOn(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    await this.webhooks.update(principalOf(page.req), id, { active: true });
    await page.audit('webhook_endpoint.updated', endpointTarget(id));
    page.seeOther(`${WEBHOOKS_PATH}/${id}?done=activating`);
  }

  @Post('webhooks/:id/turn-off')
  async turnOff(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    await this.webhooks.update(principalOf(page.req), id, { active: false });
    await page.audit('webhook_endpoint.updated', endpointTarget(id));
    page.seeOther(`${WEBHOOKS_PATH}/${id}?done=deactivated`);
  }

  @Post('webhooks/:id/delete')
  async remove(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    await this.webhooks.remove(principalOf(page.req), id);
    await page.audit('webhook_endpoint.deleted', endpointTarget(id));
    page.seeOther(`${WEBHOOKS_PATH}?done=deleted`);
  }

  @Post('webhooks/:id/test')
  async sendTest(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    await this.webhooks.sendTest(principalOf(page.req), id);
    page.seeOther(`${WEBHOOKS_PATH}/${id}?done=test_sent`);
  }

  @Post('webhooks/:id/deliveries/:deliveryId/retry')
  async retry(
    @Page() page: ConsolePage,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    await this.webhooks.retryDelivery(principalOf(page.req), id, deliveryId);
    // A retry sends the event (a case object, PHI) again, to wherever the endpoint points now.
    await page.audit('webhook_delivery.retried', endpointTarget(id));
    page.seeOther(`${WEBHOOKS_PATH}/${id}?done=retried`);
  }

  /** What the endpoint page's live status asks while an activation is under way. */
  @Get('api/webhooks/:id')
  async status(@Req() req: Request, @Param('id') id: string) {
    return success(await this.webhooks.get(principalOf(req), id));
  }

  private async sendListPage(
    page: ConsolePage,
    notice: PageNotice | undefined,
    form: EndpointForm = EMPTY_ENDPOINT_FORM,
    status = 200,
  ): Promise<void> {
    const endpoints = await this.webhooks.list(principalOf(page.req));
    const body = webhooksListView(endpoints, form, page.csrf());
    page.send({ title: 'Webhooks', notice, body }, status);
  }

  private async sendEndpointPage(
    page: ConsolePage,
    endpoint: WebhookEndpoint,
    shown: { notice: PageNotice | undefined; form?: EndpointForm; query?: Record<string, unknown> },
    status = 200,
  ): Promise<void> {
    const query = await queryAsTheApiReads(ListDeliveriesQuery, { cursor: shown.query?.cursor });
    const deliveries = await this.webhooks.listDeliveries(principalOf(page.req), endpoint.id, query);
    const body = endpointView({
      endpoint,
      form: shown.form ?? {
        name: endpoint.name,
        url: endpoint.url,
        events: endpoint.events,
        thin: endpoint.thin,
      },
      deliveries: deliveries.data,
      cursor: query.cursor,
      nextCursor: deliveries.next_cursor,
      csrf: page.csrf(),
    });
    page.send({ title: `Webhook endpoint: ${endpoint.name}`, notice: shown.notice, body }, status);
  }
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
