import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';

import {
  WEBHOOK_ATTEMPT_FAILED,
  WEBHOOK_DELIVERY_ABANDONED,
  WEBHOOK_ENDPOINT_GONE,
} from '../domain/failures';
import { finalCaseEventId } from '../domain/webhooks/case-event-ids';
import type { DeliveryAttemptInput, RetrySchedule } from '../domain/webhooks/webhook-delivery';
import type { WebhookSettings } from '../infrastructure/config/config';
import type { DeliveryAttempts } from '../infrastructure/webhooks/delivery-attempt';
import { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { WebhookDeliveriesRepository } from '../infrastructure/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../infrastructure/webhooks/webhook-endpoints.repository';
import { PublishEventInput, WebhookPublisher } from '../infrastructure/webhooks/webhook-publisher';
import type { WebhookMetrics } from '../infrastructure/webhooks/delivery-metrics';

export interface WebhookActivityDependencies {
  /** Shared with the first attempts, so both count themselves in one place (MeteredDeliveryAttempts). */
  attempts: DeliveryAttempts;
  metrics: WebhookMetrics;
  endpoints: WebhookEndpointsRepository;
  deliveries: WebhookDeliveriesRepository;
  publisher: WebhookPublisher;
  policy: WebhookTargetPolicy;
  settings: WebhookSettings;
}

export const createWebhookActivities = (deps: WebhookActivityDependencies) => {
  const { attempts } = deps;
  return {
    /**
     * Fan-out of a case event to the account's active, subscribed endpoints. A case event carries
     * the case and its request; events of runs from before local publishing carry the case alone, and
     * the publisher reads the request from the case's memo, so receivers get the whole case. Returns
     * once the deliveries are recorded; their first attempts run on in this process (never awaited
     * here).
     */
    async publishEvent(input: PublishEventInput): Promise<string[]> {
      if (input.caseId === undefined) return deps.publisher.publish(input);
      // A case event is about the workflow publishing it: a request missing from the input comes from
      // that case's memo only, whatever id the input names.
      const caseId = Context.current().info.workflowExecution?.workflowId ?? input.caseId;
      // A case that told its provider how it ended tells nothing more, even from a run a Reset
      // started behind its final status: its final event again is a no-op, anything else is dropped.
      const finalEventId = finalCaseEventId(caseId);
      if (input.eventId !== finalEventId && (await deps.deliveries.hasEvent(finalEventId))) return [];
      return deps.publisher.publish({ ...input, caseId });
    },

    /**
     * One attempt of the delivery workflow. The retry policy is Temporal's; attempts made before the
     * workflow started (the first attempt) keep their numbers in the delivery log.
     */
    async attemptWebhookDelivery(input: DeliveryAttemptInput): Promise<void> {
      const info = Context.current().info;
      const outcome = await attempts.attempt(input.deliveryId, {
        attempt: (input.attemptsMade ?? 0) + info.attempt,
        timeoutMs: input.timeoutMs,
        nextAttemptAt: () => nextAttemptAt(input.retry, info),
      });
      switch (outcome.kind) {
        case 'acknowledged':
        case 'skipped':
          return;
        case 'abandoned':
          throw ApplicationFailure.nonRetryable(
            'The endpoint was deleted or deactivated',
            WEBHOOK_DELIVERY_ABANDONED,
          );
        case 'gone':
          throw ApplicationFailure.nonRetryable('The receiver answered 410 Gone', WEBHOOK_ENDPOINT_GONE);
        case 'failed':
          throw ApplicationFailure.retryable(
            `Delivery attempt failed: ${outcome.reason}`,
            WEBHOOK_ATTEMPT_FAILED,
          );
      }
    },

    /** Retries ran out (or the delivery was abandoned): the final status, written once. */
    async finishFailedDelivery(input: { deliveryId: string }): Promise<void> {
      // Moved from pending here: no attempt ended it (a success, 410 Gone, an abandoned endpoint), so the schedule did.
      if (await deps.deliveries.complete(input.deliveryId, 'failed')) deps.metrics.record('gave_up');
    },

    async verifyWebhookTarget(input: { endpointId: string }): Promise<{ allowed: boolean; reason?: string }> {
      const endpoint = await deps.endpoints.find(input.endpointId);
      if (!endpoint) return { allowed: false, reason: 'the endpoint was deleted' };
      return deps.policy.verify(endpoint.url);
    },

    async completeWebhookActivation(input: {
      endpointId: string;
      allowed: boolean;
      reason?: string;
    }): Promise<void> {
      await deps.endpoints.setStatus(
        input.endpointId,
        input.allowed ? 'active' : 'inactive',
        input.allowed ? null : `activation refused: ${input.reason}`,
        'activating',
      );
    },
  };
};

/** When Temporal will try again, per the retry schedule; null when the schedule has run out. */
function nextAttemptAt(
  retry: RetrySchedule,
  info: { attempt: number; scheduledTimestampMs: number },
): string | null {
  const delay = Math.min(
    retry.initialIntervalMs * retry.backoffCoefficient ** (info.attempt - 1),
    retry.maximumIntervalMs,
  );
  const next = Date.now() + delay;
  return next > info.scheduledTimestampMs + retry.expireAfterMs ? null : new Date(next).toISOString();
}
