import { ConnectorError } from '../../domain/failures';

/**
 * How long a simulated connector asks to wait between attempts during a sandbox outage: short, so an
 * integrator sees the activity's retries run out, and the case show `attention`, within seconds.
 */
const SANDBOX_RETRY_AFTER_MS = 200;

/**
 * Plays a connector outage a test-mode request asked for (`mock_result.outage`): unavailable, as a
 * real connector says it (transient, with a Retry-After), until `until`; a no-op once it passed.
 */
export function playSandboxOutage(connector: string, until: string | undefined, now: Date): void {
  if (until === undefined || now.getTime() >= Date.parse(until)) return;
  throw new ConnectorError(`The sandbox ${connector} is playing the outage the request asked for.`, {
    transient: true,
    retryAfterMs: SANDBOX_RETRY_AFTER_MS,
  });
}
