import { loadConfig } from '../../infrastructure/config/config';
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
