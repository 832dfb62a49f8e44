import type { MetricCounter, MetricHistogram, MetricMeter } from '@temporalio/common';

import { AttemptOptions, AttemptOutcome, DeliveryAttempts } from './delivery-attempt';

const WEBHOOK_DELIVERIES_METRIC = 'webhook_deliveries';
export const WEBHOOK_DELIVERY_LAG_METRIC = 'webhook_delivery_lag_seconds';

/**
 * From a second (the first attempt, at once) to three days (the end of the default retry schedule):
 * the lag of a delivery that needed retries is the schedule's, not the network's.
 */
export const WEBHOOK_DELIVERY_LAG_BUCKETS = [
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
  300,
  900,
  3_600,
  6 * 3_600,
  24 * 3_600,
  3 * 24 * 3_600,
];

/**
 * What the metrics count. Per attempt: `delivered` (acknowledged), `retrying` (the receiver failed;
 * the delivery stays pending and Temporal retries it unless the schedule has run out), `refused`
 * (the SSRF policy refused the target; retried like a failure, as DNS may change), `gone` (the
 * receiver answered 410 and its endpoint was deactivated), `abandoned` (the endpoint was deleted
 * or deactivated). Per delivery: `gave_up`, once its retry schedule ran out without an answer.
 */
export type DeliveryMetricOutcome = 'delivered' | 'retrying' | 'gave_up' | 'refused' | 'gone' | 'abandoned';

const SSRF_REFUSAL = /^refused by the SSRF policy/;

/**
 * The worker's webhook metrics, through the Temporal runtime's meter so they are served on the same
 * port as the SDK's own. No label names an account, an endpoint or a case: tenants and ids would
 * grow the series without bound.
 */
export class WebhookMetrics {
  private readonly deliveries: MetricCounter;
  private readonly lag: MetricHistogram;

  constructor(meter: MetricMeter) {
    this.deliveries = meter.createCounter(
      WEBHOOK_DELIVERIES_METRIC,
      undefined,
      'Webhook delivery attempts by outcome (delivered, retrying, refused, gone, abandoned) and deliveries whose retries ran out (gave_up).',
    );
    this.lag = meter.createHistogram(
      WEBHOOK_DELIVERY_LAG_METRIC,
      'float',
      's',
      "Seconds from an event's creation to its delivery's acknowledgement by the receiver.",
    );
  }

  record(outcome: DeliveryMetricOutcome): void {
    this.deliveries.add(1, { outcome });
  }

  /** Only deliveries of events as they happen have a lag (not manual retries or test events). */
  recordDelivered(eventCreatedAt: string | undefined, now = Date.now()): void {
    this.record('delivered');
    if (eventCreatedAt !== undefined) this.lag.record(Math.max(0, (now - Date.parse(eventCreatedAt)) / 1000));
  }
}

/**
 * Delivery attempts that count themselves, whoever makes them: the first attempt made at once by
 * the publishing worker (outside any activity) and the delivery workflow's activity alike.
 */
export class MeteredDeliveryAttempts extends DeliveryAttempts {
  constructor(
    deps: ConstructorParameters<typeof DeliveryAttempts>[0],
    private readonly metrics: WebhookMetrics,
  ) {
    super(deps);
  }

  override async attempt(deliveryId: string, options: AttemptOptions): Promise<AttemptOutcome> {
    const outcome = await super.attempt(deliveryId, options);
    switch (outcome.kind) {
      case 'acknowledged':
        this.metrics.recordDelivered(outcome.eventCreatedAt);
        break;
      case 'failed':
        this.metrics.record(SSRF_REFUSAL.test(outcome.reason) ? 'refused' : 'retrying');
        break;
      case 'gone':
      case 'abandoned':
        this.metrics.record(outcome.kind);
        break;
      case 'skipped':
        break;
    }
    return outcome;
  }
}
