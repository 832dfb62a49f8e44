export interface Patience {
  /** How long to keep trying, from the first attempt; the attempt that would start after it is not made. */
  forMs: number;
  /** The wait after the first failure, doubled after each further one up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/**
 * Runs `attempt` until it succeeds or `patience` runs out, then throws the last failure. For a start-up
 * step a server that is itself still starting may refuse for a while, where a crash would only restart
 * the process into the same refusal. `isFinal` names failures that no wait can cure.
 */
export async function keepTrying<T>(
  attempt: () => Promise<T>,
  patience: Patience,
  {
    isFinal = () => false,
    onRetry,
  }: { isFinal?: (error: unknown) => boolean; onRetry?: (error: unknown, delayMs: number) => void } = {},
): Promise<T> {
  const giveUpAt = Date.now() + patience.forMs;
  for (let delayMs = patience.firstDelayMs; ; delayMs = Math.min(delayMs * 2, patience.maxDelayMs)) {
    try {
      return await attempt();
    } catch (error) {
      if (isFinal(error) || Date.now() + delayMs > giveUpAt) throw error;
      onRetry?.(error, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
