import { keepTrying } from '../../src/worker/keep-trying';

const SHORT = { forMs: 1_000, firstDelayMs: 1, maxDelayMs: 4 };

/** A step that is refused `refusals` times, then answers. */
function refusedAtFirst(refusals: number) {
  const step = {
    attempts: 0,
    run: async () => {
      step.attempts += 1;
      if (step.attempts <= refusals) throw new Error(`refusal ${step.attempts}`);
      return 'ensured';
    },
  };
  return step;
}

describe('keeping a start-up step trying', () => {
  it('answers once the refusals have passed, waiting twice as long after each up to the longest wait', async () => {
    const step = refusedAtFirst(4);
    const waits: number[] = [];

    const answer = await keepTrying(step.run, SHORT, { onRetry: (_error, delayMs) => waits.push(delayMs) });

    expect(answer).toBe('ensured');
    expect(waits).toEqual([1, 2, 4, 4]);
  });

  it('throws the last refusal once its patience has run out', async () => {
    const step = refusedAtFirst(Number.POSITIVE_INFINITY);

    const refusal = await keepTrying(step.run, { forMs: 30, firstDelayMs: 5, maxDelayMs: 5 }).catch(
      (error: Error) => error,
    );

    expect(step.attempts).toBeGreaterThan(1);
    expect(refusal).toEqual(new Error(`refusal ${step.attempts}`));
  });

  it('throws a final refusal at once, without waiting', async () => {
    const step = refusedAtFirst(1);

    await expect(keepTrying(step.run, SHORT, { isFinal: () => true })).rejects.toThrow('refusal 1');
    expect(step.attempts).toBe(1);
  });
});
