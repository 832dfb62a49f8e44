import type { Logger } from 'pino';

/** The parts of a Temporal worker a sweep watches: it sweeps while the worker runs. */
export interface WorkerLifecycle {
  getState(): string;
}

/** At most this many rows per pass, so one pass stays short however much has piled up. */
export const SWEEP_BATCH = 100;

/** A periodic clean-up: how often it runs, one pass, and what its log lines say. */
export interface Sweeper {
  readonly intervalMs: number;
  /** One pass; returns how many things it acted on. */
  sweep(): Promise<number>;
  /** Logged when a pass acted on something, with the count under `count`. */
  readonly acted: string;
  /** Logged when a pass failed, with the error's name only (never its message, which may quote data). */
  readonly failed: string;
}

/**
 * Runs `sweeper` every interval while `worker` runs, never two passes at once, and stops for good once
 * the worker stops. The timer never keeps the process alive on its own.
 */
export function sweepWhileRunning(worker: WorkerLifecycle, sweeper: Sweeper, logger: Logger): void {
  let sweeping = false;
  const timer = setInterval(() => {
    const state = worker.getState();
    if (state === 'INITIALIZED' || sweeping) return;
    if (state !== 'RUNNING') {
      clearInterval(timer);
      return;
    }
    sweeping = true;
    sweeper
      .sweep()
      .then((count) => {
        if (count > 0) logger.info({ count }, sweeper.acted);
      })
      .catch((error: Error) => logger.warn({ error: error.name }, sweeper.failed))
      .finally(() => (sweeping = false));
  }, sweeper.intervalMs);
  timer.unref();
}
