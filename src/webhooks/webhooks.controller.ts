import { Body, Delete, Get, HttpCode, Inject, Param, Patch, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ApiController } from '../common/api-controller';
import { Audited } from '../common/audited.decorator';
import { CurrentPrincipal } from '../common/route-access';
import { success, wholeList } from '../common/envelope';
import { Answers, AnswersList } from '../contract/answers';
import { IdempotentPost } from '../idempotency/idempotency.module';
import { CreateWebhookDto, ListDeliveriesQuery, UpdateWebhookDto } from './webhooks.dto';
import { WebhooksService } from './webhooks.service';

/** The specification's "admin panel, Webhooks section", as an API. */
@ApiController('webhooks', { role: 'provider' })
export class WebhooksController {
  constructor(@Inject(WebhooksService) private readonly webhooks: WebhooksService) {}

  @IdempotentPost()
  @Audited('webhook_endpoint.created', 'webhook_endpoint')
  @ApiOperation({ summary: 'Create a webhook endpoint (inactive until toggled on)' })
  @Answers('WebhookEndpoint')
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateWebhookDto) {
    return success(await this.webhooks.create(principal, body));
  }

  @Get()
  @ApiOperation({ summary: "List the account's webhook endpoints" })
  @AnswersList('WebhookEndpoint')
  async list(@CurrentPrincipal() principal: Principal) {
    const endpoints = await this.webhooks.list(principal);
    return success(wholeList(endpoints));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook endpoint' })
  @Answers('WebhookEndpoint')
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.webhooks.get(principal, id));
  }

  @Patch(':id')
  @Audited('webhook_endpoint.updated', 'webhook_endpoint')
  @ApiOperation({ summary: 'Change name, URL, events or secret; toggle with { "active": true | false }' })
  @Answers('WebhookEndpoint')
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
  ) {
    return success(await this.webhooks.update(principal, id, body));
  }

  @Delete(':id')
  @Audited('webhook_endpoint.deleted', 'webhook_endpoint')
  @ApiOperation({ summary: 'Delete a webhook endpoint; its pending deliveries are abandoned' })
  @Answers('DeletedWebhookEndpoint')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.webhooks.remove(principal, id));
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'Deliveries to this endpoint, newest first, with every attempt' })
  @AnswersList('WebhookDelivery')
  async listDeliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: ListDeliveriesQuery,
  ) {
    return success(await this.webhooks.listDeliveries(principal, id, query));
  }

  @IdempotentPost(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  // A retry sends the event (a case object, PHI) again, to wherever the endpoint points now.
  @Audited('webhook_delivery.retried', 'webhook_endpoint')
  @ApiOperation({ summary: 'Send a delivery again, with the same event id' })
  @Answers('WebhookDeliveryRetry')
  async retryDelivery(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    return success(await this.webhooks.retryDelivery(principal, id, deliveryId));
  }

  @IdempotentPost(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a webhook.test event to this endpoint' })
  @Answers('WebhookTestSent')
  async test(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.webhooks.sendTest(principal, id));
  }
}
