import type { WebhookSettings } from '../config/config';
import { signedHeaders } from './signing';
import { WebhookTargetPolicy } from './target-policy';
import { thinNotification } from './thin-notification';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { sendNotification } from './webhook-sender';

/** How one attempt ended, for its caller to turn into a retry, a hand-off or a final status. */
export type AttemptOutcome =
  /**
   * `eventCreatedAt`: when the notified event happened, for the delivery lag metric; absent for a
   * delivery its owner asked for (a manual retry, a test event), whose lag is the owner's doing.
   */
  | { kind: 'acknowledged'; eventCreatedAt?: string }
  | { kind: 'failed'; reason: string }
  /** 410: the endpoint is deactivated and the delivery failed. */
  | { kind: 'gone' }
  /** The endpoint was deleted or deactivated: the delivery is abandoned. */
  | { kind: 'abandoned' }
  /** Nothing was sent: the delivery is finished, or no longer this caller's to attempt. */
  | { kind: 'skipped' };

export interface AttemptOptions {
  /** The attempt's number in the delivery log. */
  attempt: number;
  /** The receiver's time limit. */
  timeoutMs: number;
  /** When the next attempt will be made if this one fails; null when none will be. */
  nextAttemptAt: () => string | null;
  /** A first attempt sends only while it still owns the delivery for a whole receiver time limit. */
  asFirstAttempt?: boolean;
}

export interface DeliveryAttemptDependencies {
  endpoints: WebhookEndpointsRepository;
  deliveries: WebhookDeliveriesRepository;
  policy: WebhookTargetPolicy;
  settings: WebhookSettings;
}

/**
 * One delivery attempt, whoever makes it (the first attempt at once, or the delivery workflow's
 * activity). Everything is read at attempt time (the endpoint's URL, its secret, its status), so
 * neither the secret nor the notification's PHI ever enters workflow history, and a rotated secret,
 * a deactivation or a switch to thin notifications applies from the next attempt on. Every attempt that sends is logged.
 */
export class DeliveryAttempts {
  constructor(private readonly deps: DeliveryAttemptDependencies) {}

  async attempt(deliveryId: string, options: AttemptOptions): Promise<AttemptOutcome> {
    const { deliveries, endpoints, settings } = this.deps;
    const target = await deliveries.findTarget(deliveryId);
    if (!target || target.status !== 'pending') return { kind: 'skipped' };
    if (
      options.asFirstAttempt &&
      (target.firstAttemptRemainingMs === null || target.firstAttemptRemainingMs < options.timeoutMs)
    ) {
      return { kind: 'skipped' };
    }
    if (target.endpointDeleted || (target.endpointStatus !== 'active' && !target.requestedByOwner)) {
      await deliveries.complete(deliveryId, 'abandoned');
      return { kind: 'abandoned' };
    }
    const secret = (await endpoints.readSecret(target.endpointId))!;
    const notification = target.endpointThin ? thinNotification(target.notification) : target.notification;
    const body = JSON.stringify(notification);
    const startedAt = new Date();
    const result = await sendNotification(
      target.endpointUrl,
      body,
      signedHeaders(body, notification, { id: target.endpointId, secret }, settings.issuer),
      { policy: this.deps.policy, timeoutMs: options.timeoutMs },
    );
    const status = result.httpStatus;
    const acknowledged = status !== undefined && status >= 200 && status < 300;
    const gone = status === 410;
    const failure = acknowledged
      ? null
      : (result.error ??
        `answered HTTP ${status}${status && status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`);
    await deliveries.recordAttempt(deliveryId, {
      attempt: options.attempt,
      started_at: startedAt.toISOString(),
      duration_ms: result.durationMs,
      http_status: status ?? null,
      error: failure,
      next_attempt_at: acknowledged || gone ? null : options.nextAttemptAt(),
    });
    if (acknowledged) {
      await deliveries.complete(deliveryId, 'succeeded');
      return {
        kind: 'acknowledged',
        ...(!target.requestedByOwner && { eventCreatedAt: target.notification.created_at }),
      };
    }
    if (gone) {
      await endpoints.setStatus(target.endpointId, 'inactive', 'the receiver answered 410 Gone');
      await deliveries.complete(deliveryId, 'failed');
      return { kind: 'gone' };
    }
    return { kind: 'failed', reason: failure! };
  }
}
