import { ActivityFailure, proxyActivities } from '@temporalio/workflow';

import type { createWebhookActivities } from '../activities/webhooks.activities';
import { FINAL_WEBHOOK_FAILURES } from '../domain/failures';
import type { DeliveryAttemptInput, DeliveryOutcome } from '../domain/webhooks/webhook-delivery';

type WebhookActivities = ReturnType<typeof createWebhookActivities>;

/** Finishing touches after the attempts: plain database writes. */
const bookkeeping = proxyActivities<WebhookActivities>({ startToCloseTimeout: '30 seconds' });

/**
 * Delivers one notification to one endpoint. Retries are Temporal's: the attempt activity carries
 * the published schedule as its retry policy and runs until acknowledged, told 410 Gone, abandoned,
 * or out of time. The input holds ids only; the activity reads URL, secret and body at each attempt.
 */
export async function webhookDeliveryWorkflow(input: DeliveryAttemptInput): Promise<DeliveryOutcome> {
  const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
    // The receiver's time limit, plus room to record the attempt.
    startToCloseTimeout: input.timeoutMs + 5_000,
    scheduleToCloseTimeout: input.retry.expireAfterMs,
    retry: {
      initialInterval: input.retry.initialIntervalMs,
      backoffCoefficient: input.retry.backoffCoefficient,
      maximumInterval: input.retry.maximumIntervalMs,
      nonRetryableErrorTypes: FINAL_WEBHOOK_FAILURES,
    },
  });
  try {
    await attemptWebhookDelivery(input);
    return 'succeeded';
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    await bookkeeping.finishFailedDelivery({ deliveryId: input.deliveryId });
    return 'failed';
  }
}
