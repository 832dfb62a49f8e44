import { Client } from '@temporalio/client';

import { describeEvent, EventType } from '../../domain/webhooks/event-types';
import type { WebhookSettings } from '../config/config';
import { API_START_OWNERSHIP_MS, DurableDeliveries } from './durable-deliveries';
import type { FirstAttempts } from './first-attempts';
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
 * Turns an event into deliveries. With `firstAttempts` (the worker), each new delivery is attempted
 * at once in the background and only a failure reaches Temporal; without (the API), each delivery
 * starts its delivery workflow right away. Either way publishing never waits for a receiver, and
 * repeating a publish (an activity retry) writes nothing twice and sends nothing twice, so case
 * workflows can call it with at-least-once semantics, as a regular or a local activity.
 */
export class WebhookPublisher {
  private readonly durable: DurableDeliveries;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    temporalClient: Client,
    settings: { taskQueue: string; webhooks: WebhookSettings },
    private readonly firstAttempts?: FirstAttempts,
  ) {
    this.durable = new DurableDeliveries(deliveries, temporalClient, settings);
  }

  /** Returns the ids of the event's deliveries still pending. */
  async publish(input: PublishEventInput, onlyEndpointId?: string): Promise<string[]> {
    const notification: NotificationBody = {
      id: input.eventId,
      type: input.type,
      ...describeEvent(input.type),
      created_at: input.createdAt,
      data: input.data,
    };
    const recorded = await this.deliveries.recordEvent(notification, input.accountId, {
      onlyEndpointId,
      firstAttemptMs: this.firstAttempts?.ownershipMs ?? API_START_OWNERSHIP_MS,
    });
    if (this.firstAttempts) {
      this.firstAttempts.start(recorded.recordedDeliveryIds);
    } else {
      await Promise.all(recorded.pendingDeliveryIds.map((deliveryId) => this.startDelivery(deliveryId)));
    }
    return recorded.pendingDeliveryIds;
  }

  /**
   * Straight to the durable path (manual retries, and every delivery the API records). A delivery
   * whose workflow could not be started is not lost: it stays pending past its ownership deadline,
   * and a worker's sweep starts it (API_START_OWNERSHIP_MS).
   */
  async startDelivery(deliveryId: string): Promise<void> {
    await this.durable.start(deliveryId).catch(() => undefined);
  }
}
