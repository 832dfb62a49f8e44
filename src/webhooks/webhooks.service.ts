import type { Client } from '@temporalio/client';

import { newId } from '../../domain/ids';
import {
  CaseEventType,
  normalizeEventType,
  SubscribableEventType,
  TEST_EVENT_TYPE,
} from '../../domain/webhooks/event-types';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import type {
  CaseEventDelivery,
  WebhookDeliveriesRepository,
} from '../../infrastructure/webhooks/webhook-deliveries.repository';
import type {
  WebhookEndpoint,
  WebhookEndpointsRepository,
} from '../../infrastructure/webhooks/webhook-endpoints.repository';
import type { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
import type { webhookActivationWorkflow } from '../../workflows/webhook-activation.workflow';
import { DEFAULT_PAGE_SIZE } from '../common/dto/page-query';
import { ApiError } from '../common/errors';
import { CreateWebhookDto, ListDeliveriesQuery, UpdateWebhookDto } from './webhooks.dto';

/** An account's webhook endpoints, their activation, and the delivery log. */
export class WebhooksService {
  constructor(
    private readonly config: AppConfig,
    private readonly temporalClient: Client,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly publisher: WebhookPublisher,
  ) {}

  create(principal: Principal, body: CreateWebhookDto): Promise<WebhookEndpoint> {
    return this.endpoints.create({
      accountId: principal.accountId,
      ...body,
      events: normalizeEvents(body.events),
      livemode: principal.livemode,
    });
  }

  list(principal: Principal): Promise<WebhookEndpoint[]> {
    return this.endpoints.list(principal.accountId, principal.livemode);
  }

  /** The caller's endpoint, in the caller's mode: the other mode's endpoints are not found. */
  async get(principal: Principal, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(id, principal.accountId, principal.livemode);
    if (!endpoint) throw ApiError.notFound('No webhook endpoint with this id exists in your account.');
    return endpoint;
  }

  async update(principal: Principal, id: string, body: UpdateWebhookDto): Promise<WebhookEndpoint> {
    const before = await this.get(principal, id);
    const { active, ...changes } = body;
    const updated = (await this.endpoints.update(id, principal.accountId, {
      ...changes,
      events: changes.events ? normalizeEvents(changes.events) : undefined,
    }))!;
    const urlChanged = changes.url !== undefined && changes.url !== before.url;
    if (active === false) {
      return (await this.endpoints.setStatus(id, 'inactive', 'deactivated by the account'))!;
    }
    // Toggling on again while activating restarts the check, so an endpoint can never stay stuck there.
    if ((active === true && before.status !== 'active') || (urlChanged && before.status !== 'inactive')) {
      return this.activate(updated);
    }
    return updated;
  }

  async remove(
    principal: Principal,
    id: string,
  ): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
    await this.get(principal, id);
    if (!(await this.endpoints.softDelete(id, principal.accountId))) {
      throw ApiError.notFound('No webhook endpoint with this id exists in your account.');
    }
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  async listDeliveries(principal: Principal, endpointId: string, query: ListDeliveriesQuery) {
    await this.get(principal, endpointId);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const { deliveries, hasMore } = await this.deliveries.listForEndpoint(endpointId, principal.accountId, {
      limit,
      before: query.cursor,
    });
    return {
      object: 'list' as const,
      data: deliveries,
      has_more: hasMore,
      next_cursor: hasMore ? deliveries[deliveries.length - 1]!.id : null,
    };
  }

  /**
   * The deliveries of a case's events of `eventType`, oldest first, for the console's case page; the
   * times its history records a status find the events written before they named their case.
   */
  deliveriesOfCase(
    accountId: string,
    caseId: string,
    eventType: CaseEventType,
    statusTimes: string[],
  ): Promise<CaseEventDelivery[]> {
    return this.deliveries.listForCase(accountId, caseId, eventType, statusTimes);
  }

  /** Sends the same event again, as a new delivery with its own attempts; the event id stays. */
  async retryDelivery(principal: Principal, endpointId: string, deliveryId: string) {
    await this.get(principal, endpointId);
    const original = await this.deliveries.find(deliveryId, principal.accountId);
    if (!original || original.endpoint_id !== endpointId) {
      throw ApiError.notFound('No delivery with this id exists for this webhook endpoint.');
    }
    const retryId = (await this.deliveries.createRetry(
      deliveryId,
      principal.accountId,
      this.config.webhooks.handOffMs,
    ))!;
    await this.publisher.startDelivery(retryId);
    return {
      id: retryId,
      object: 'webhook_delivery' as const,
      retry_of: deliveryId,
      status: 'pending' as const,
    };
  }

  /** A `webhook.test` event to this endpoint only, whatever its status and subscriptions. */
  async sendTest(principal: Principal, endpointId: string) {
    const endpoint = await this.get(principal, endpointId);
    const eventId = newId('event');
    const [deliveryId] = await this.publisher.publish(
      {
        eventId,
        accountId: principal.accountId,
        type: TEST_EVENT_TYPE,
        createdAt: new Date().toISOString(),
        livemode: endpoint.livemode,
        data: {
          object: 'webhook_endpoint',
          id: endpoint.id,
          name: endpoint.name,
          livemode: endpoint.livemode,
          message: 'This is a test notification.',
        },
      },
      endpoint.id,
    );
    return { event_id: eventId, delivery_id: deliveryId };
  }

  /**
   * `activating` first, then the workflow that verifies the URL; if the workflow cannot be started
   * the endpoint goes back to what it was, so nothing is left half-activated.
   */
  private async activate(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    const activating = (await this.endpoints.setStatus(endpoint.id, 'activating', null))!;
    try {
      await this.temporalClient.workflow.start<typeof webhookActivationWorkflow>(
        'webhookActivationWorkflow',
        {
          workflowId: `activation-${endpoint.id}`,
          taskQueue: this.config.temporal.taskQueue,
          args: [{ endpointId: endpoint.id }],
          workflowIdConflictPolicy: 'TERMINATE_EXISTING',
        },
      );
    } catch (error) {
      await this.endpoints.setStatus(endpoint.id, endpoint.status, endpoint.status_reason, 'activating');
      throw error;
    }
    return activating;
  }
}

function normalizeEvents(events: string[]): SubscribableEventType[] {
  return [...new Set(events.map((event) => normalizeEventType(event)!))];
}
