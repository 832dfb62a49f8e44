import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';

import type { RetrySchedule, WebhookSettings } from '../src/config/config';
import { signedHeaders } from '../src/webhooks/signing';
import { WebhookTargetPolicy } from '../src/webhooks/target-policy';
import { WebhookDeliveriesRepository } from '../src/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../src/webhooks/webhook-endpoints.repository';
import { PublishEventInput, WebhookPublisher } from '../src/webhooks/webhook-publisher';
import { sendNotification } from '../src/webhooks/webhook-sender';

/** Failure types the delivery workflow's retry policy treats as final. */
export const WEBHOOK_ENDPOINT_GONE = 'WebhookEndpointGone';
export const WEBHOOK_DELIVERY_ABANDONED = 'WebhookDeliveryAbandoned';
export const WEBHOOK_ATTEMPT_FAILED = 'WebhookAttemptFailed';

export interface WebhookActivityDependencies {
  endpoints: WebhookEndpointsRepository;
  deliveries: WebhookDeliveriesRepository;
  publisher: WebhookPublisher;
  policy: WebhookTargetPolicy;
  settings: WebhookSettings;
}

export interface DeliveryAttemptInput {
  deliveryId: string;
  retry: RetrySchedule;
  timeoutMs: number;
}

export const createWebhookActivities = (deps: WebhookActivityDependencies) => ({
  /** Fan-out of a case event to the account's active, subscribed endpoints. */
  async publishEvent(input: PublishEventInput): Promise<string[]> {
    return deps.publisher.publish(input);
  },

  /**
   * One delivery attempt. Everything is read at attempt time (the endpoint's URL, its secret, its
   * status), so neither the secret nor the notification's PHI ever enters workflow history, and a
   * rotated secret or a deactivation applies from the next attempt on.
   */
  async attemptWebhookDelivery(input: DeliveryAttemptInput): Promise<void> {
    const info = Context.current().info;
    const target = await deps.deliveries.findTarget(input.deliveryId);
    if (!target || target.status !== 'pending') return;
    if (target.endpointDeleted || (target.endpointStatus !== 'active' && !target.requestedByOwner)) {
      await deps.deliveries.complete(input.deliveryId, 'abandoned');
      throw ApplicationFailure.nonRetryable(
        'The endpoint was deleted or deactivated',
        WEBHOOK_DELIVERY_ABANDONED,
      );
    }
    const secret = (await deps.endpoints.readSecret(target.endpointId))!;
    const body = JSON.stringify(target.notification);
    const startedAt = new Date();
    const result = await sendNotification(
      target.endpointUrl,
      body,
      signedHeaders(body, target.notification, secret, deps.settings.issuer),
      { policy: deps.policy, timeoutMs: input.timeoutMs },
    );
    const status = result.httpStatus;
    const acknowledged = status !== undefined && status >= 200 && status < 300;
    const gone = status === 410;
    const failure = acknowledged
      ? null
      : (result.error ??
        `answered HTTP ${status}${status && status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`);
    await deps.deliveries.recordAttempt(input.deliveryId, {
      attempt: info.attempt,
      started_at: startedAt.toISOString(),
      duration_ms: result.durationMs,
      http_status: status ?? null,
      error: failure,
      next_attempt_at: acknowledged || gone ? null : nextAttemptAt(input.retry, info),
    });
    if (acknowledged) {
      await deps.deliveries.complete(input.deliveryId, 'succeeded');
      return;
    }
    if (gone) {
      await deps.endpoints.setStatus(target.endpointId, 'inactive', 'the receiver answered 410 Gone');
      await deps.deliveries.complete(input.deliveryId, 'failed');
      throw ApplicationFailure.nonRetryable('The receiver answered 410 Gone', WEBHOOK_ENDPOINT_GONE);
    }
    throw ApplicationFailure.retryable(`Delivery attempt failed: ${failure}`, WEBHOOK_ATTEMPT_FAILED);
  },

  /** Retries ran out (or the delivery was abandoned): the final status, written once. */
  async finishFailedDelivery(input: { deliveryId: string }): Promise<void> {
    await deps.deliveries.complete(input.deliveryId, 'failed');
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
});

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
