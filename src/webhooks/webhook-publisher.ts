import { Client } from '@temporalio/client';

import type { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.workflow';
import type { WebhookSettings } from '../config/config';
import { describeEvent, EventType } from './event-types';
import { NotificationBody, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

export interface PublishEventInput {
  eventId: string;
  accountId: string;
  type: EventType;
  /** The case's GET object (or the test event's payload). */
  data: object;
  createdAt: string;
}

/**
 * Turns an event into deliveries and starts one delivery workflow per delivery, with the delivery id
 * as workflow id. Repeating a publish (an activity retry) writes nothing twice and starts nothing
 * twice, so case workflows can call it with at-least-once semantics.
 */
export class WebhookPublisher {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly temporalClient: Client,
    private readonly settings: { taskQueue: string; webhooks: WebhookSettings },
  ) {}

  async publish(input: PublishEventInput, onlyEndpointId?: string): Promise<string[]> {
    const notification: NotificationBody = {
      id: input.eventId,
      type: input.type,
      ...describeEvent(input.type),
      created_at: input.createdAt,
      data: input.data,
    };
    const deliveryIds = await this.deliveries.recordEvent(notification, input.accountId, onlyEndpointId);
    await Promise.all(deliveryIds.map((deliveryId) => this.startDelivery(deliveryId)));
    return deliveryIds;
  }

  async startDelivery(deliveryId: string): Promise<void> {
    await this.temporalClient.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
      workflowId: deliveryId,
      taskQueue: this.settings.taskQueue,
      args: [
        { deliveryId, retry: this.settings.webhooks.retry, timeoutMs: this.settings.webhooks.timeoutMs },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  }
}
