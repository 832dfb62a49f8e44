import type { RetrySchedule } from '../../domain/webhooks/webhook-delivery';
import { intervalAfter, remainingSchedule } from '../../infrastructure/webhooks/durable-deliveries';

const PUBLISHED: RetrySchedule = {
  initialIntervalMs: 5_000,
  backoffCoefficient: 6,
  maximumIntervalMs: 10 * 3_600_000,
  expireAfterMs: 3 * 24 * 3_600_000,
};
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The waits before attempts 2…8 when attempt 1 is made outside Temporal and fails. */
function waitsAfterAFailedFirstAttempt(retry: RetrySchedule): number[] {
  const startDelay = intervalAfter(retry, 1);
  const workflowSchedule = remainingSchedule(retry, { attemptsMade: 1, delayMs: startDelay });
  // Temporal's activity retry: attempt k of the workflow waits initial × coefficient^(k-2), capped.
  const activityRetries = [2, 3, 4, 5, 6, 7].map((attempt) =>
    Math.min(
      workflowSchedule.initialIntervalMs * workflowSchedule.backoffCoefficient ** (attempt - 2),
      workflowSchedule.maximumIntervalMs,
    ),
  );
  return [startDelay, ...activityRetries];
}

describe('the published retry schedule across the first attempt and the delivery workflow', () => {
  it('waits 5 s, 30 s, 3 min, 18 min, 1 h 48 min, then 10 h between attempts, as published', () => {
    expect(waitsAfterAFailedFirstAttempt(PUBLISHED)).toEqual([
      5_000,
      30_000,
      3 * MINUTE,
      18 * MINUTE,
      108 * MINUTE,
      10 * HOUR,
      10 * HOUR,
    ]);
  });

  it('still ends the retries 3 days after the first attempt', () => {
    const startDelay = intervalAfter(PUBLISHED, 1);
    const { expireAfterMs } = remainingSchedule(PUBLISHED, { attemptsMade: 1, delayMs: startDelay });
    expect(startDelay + expireAfterMs).toBe(PUBLISHED.expireAfterMs);
  });

  it('leaves the schedule of a delivery without earlier attempts as published', () => {
    expect(remainingSchedule(PUBLISHED, { attemptsMade: 0, delayMs: 0 })).toEqual(PUBLISHED);
  });
});
