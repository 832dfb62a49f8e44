/** The published retry schedule of a webhook delivery, which the delivery workflow hands Temporal. */
export interface RetrySchedule {
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  expireAfterMs: number;
}

/** The input of one delivery workflow: ids and schedule only; URL, secret and body stay in SQL. */
export interface DeliveryAttemptInput {
  deliveryId: string;
  retry: RetrySchedule;
  timeoutMs: number;
  /** Attempts made before the workflow started (a failed first attempt); absent in older deliveries. */
  attemptsMade?: number;
}

/** How a delivery workflow ends. */
export type DeliveryOutcome = 'succeeded' | 'failed';

/**
 * The delivery workflow as its starters see it: its Temporal name and signature, so a typed start
 * needs nothing from `workflows/`.
 */
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
export type WebhookDeliveryWorkflow = (input: DeliveryAttemptInput) => Promise<DeliveryOutcome>;
