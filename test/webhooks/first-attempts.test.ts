import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import { loadConfig } from '../../infrastructure/config/config';
import { CommittedMoves, MAX_COMMIT_READS_IN_FLIGHT } from '../../infrastructure/webhooks/committed-moves';
import type { DeliveryAttempts } from '../../infrastructure/webhooks/delivery-attempt';
import type { DurableDeliveries } from '../../infrastructure/webhooks/durable-deliveries';
import { FirstAttempts, MAX_FIRST_ATTEMPTS_IN_FLIGHT } from '../../infrastructure/webhooks/first-attempts';

const { webhooks } = loadConfig('worker', {
  NODE_ENV: 'test',
  PAYLOAD_ENCRYPTION_KEYS: `k:${'A'.repeat(43)}=`,
});

/** First attempts whose receiver never answers, noting what they attempted and what they handed on. */
function towardsAHangingReceiver() {
  const attempted: string[] = [];
  const handedOn: string[] = [];
  const hangingReceiver = {
    attempt: (deliveryId: string) => {
      attempted.push(deliveryId);
      return new Promise(() => undefined);
    },
  } as unknown as DeliveryAttempts;
  const durable = {
    start: async (deliveryId: string) => void handedOn.push(deliveryId),
  } as unknown as DurableDeliveries;
  return { attempted, handedOn, firstAttempts: new FirstAttempts(hangingReceiver, durable, webhooks) };
}

describe('first webhook attempts in one worker', () => {
  it('lets the attempts in flight finish before the worker stops', async () => {
    let acknowledge: () => void = () => undefined;
    const slowReceiver = {
      attempt: () => new Promise((resolve) => (acknowledge = () => resolve({ kind: 'acknowledged' }))),
    } as unknown as DeliveryAttempts;
    const firstAttempts = new FirstAttempts(slowReceiver, {} as DurableDeliveries, webhooks);
    firstAttempts.start(['whd_slow']);

    let settled = false;
    const settling = firstAttempts.settle().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    acknowledge();
    await settling;
    expect(settled).toBe(true);
  });

  it('hands deliveries beyond the in-flight limit straight to Temporal while a receiver hangs', async () => {
    const { attempted, handedOn, firstAttempts } = towardsAHangingReceiver();

    const deliveryIds = Array.from(
      { length: MAX_FIRST_ATTEMPTS_IN_FLIGHT + 3 },
      (_, index) => `whd_${index}`,
    );
    firstAttempts.start(deliveryIds);
    await new Promise((resolve) => setImmediate(resolve));

    expect(attempted).toEqual(deliveryIds.slice(0, MAX_FIRST_ATTEMPTS_IN_FLIGHT));
    expect(handedOn).toEqual(deliveryIds.slice(MAX_FIRST_ATTEMPTS_IN_FLIGHT));
  });

  it('counts only sending attempts against the limit: those waiting for their case to commit hold no slot', async () => {
    const { attempted, handedOn, firstAttempts } = towardsAHangingReceiver();

    const neverCommitted = new Promise<void>(() => undefined);
    for (let index = 0; index < MAX_FIRST_ATTEMPTS_IN_FLIGHT + 3; index += 1)
      firstAttempts.start([`whd_waiting_${index}`], neverCommitted);
    firstAttempts.start(['whd_ready']);
    await new Promise((resolve) => setImmediate(resolve));

    expect(attempted).toEqual(['whd_ready']);
    expect(handedOn).toEqual([]);
  });
});

describe("a case event's wait for its move to commit", () => {
  it('has at most a fixed number of reads open against Temporal, however many cases wait at once', async () => {
    let open = 0;
    let mostOpen = 0;
    const closedCase = {
      status: temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED,
    };
    const slowTemporal = {
      options: { namespace: 'default' },
      withDeadline: <T>(_deadline: number, read: () => Promise<T>) => read(),
      workflowService: {
        describeWorkflowExecution: async () => {
          mostOpen = Math.max(mostOpen, ++open);
          await new Promise((resolve) => setTimeout(resolve, 20));
          open -= 1;
          return { workflowExecutionInfo: closedCase };
        },
      },
    } as unknown as Client;
    const moves = new CommittedMoves(slowTemporal, 5_000);

    await Promise.all(
      Array.from({ length: 5 * MAX_COMMIT_READS_IN_FLIGHT }, (_, index) =>
        moves.reached(`pa_${index}`, '2026-11-30T00:00:00.000Z'),
      ),
    );

    expect(mostOpen).toBe(MAX_COMMIT_READS_IN_FLIGHT);
  });
});
