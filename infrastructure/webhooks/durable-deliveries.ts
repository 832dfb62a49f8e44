import { Client } from '@temporalio/client';

import {
  DeliveryAttemptInput,
  RetrySchedule,
  WEBHOOK_DELIVERY_WORKFLOW,
  WebhookDeliveryWorkflow,
} from '../../domain/webhooks/webhook-delivery';
import type { WebhookSettings } from '../config/config';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Attempts a delivery already had before its workflow, and how long until the next one is due. */
export interface EarlierAttempts {
  attemptsMade: number;
  delayMs: number;
}

/**
 * The durable path: one `webhookDeliveryWorkflow` per delivery, workflow id = delivery id, so a
 * repeated hand-off (a sweeper racing a first attempt, two sweepers) starts nothing twice.
 */
export class DurableDeliveries {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly temporalClient: Client,
    private readonly settings: { taskQueue: string; webhooks: WebhookSettings },
  ) {}

  async start(deliveryId: string, earlier: EarlierAttempts = { attemptsMade: 0, delayMs: 0 }): Promise<void> {
    const { retry, timeoutMs } = this.settings.webhooks;
    const input: DeliveryAttemptInput = {
      deliveryId,
      retry: remainingSchedule(retry, earlier),
      timeoutMs,
      ...(earlier.attemptsMade > 0 ? { attemptsMade: earlier.attemptsMade } : {}),
    };
    await this.temporalClient.workflow.start<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
      workflowId: deliveryId,
      taskQueue: this.settings.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      // The delay is Temporal's own, so the workflow issues the same commands as it always has.
      ...(earlier.delayMs > 0 ? { startDelay: earlier.delayMs } : {}),
    });
    await this.deliveries.handedToDurablePath(deliveryId);
  }
}

/**
 * The published schedule continued after `attemptsMade` attempts: the workflow's first activity
 * attempt is the delivery's next one, so its retries start from the interval that attempt would
 * have had, and the whole schedule still ends `expireAfterMs` after the first attempt.
 */
export function remainingSchedule(retry: RetrySchedule, earlier: EarlierAttempts): RetrySchedule {
  if (earlier.attemptsMade === 0) return retry;
  return {
    ...retry,
    initialIntervalMs: Math.min(
      retry.initialIntervalMs * retry.backoffCoefficient ** earlier.attemptsMade,
      retry.maximumIntervalMs,
    ),
    expireAfterMs: Math.max(retry.expireAfterMs - earlier.delayMs, 1_000),
  };
}

/** How long after attempt number `attempt` the schedule makes the next one. */
export function intervalAfter(retry: RetrySchedule, attempt: number): number {
  return Math.min(
    retry.initialIntervalMs * retry.backoffCoefficient ** (attempt - 1),
    retry.maximumIntervalMs,
  );
}
