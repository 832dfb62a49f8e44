import type { Logger } from 'pino';

/** The parts of a Temporal worker a sweep watches: it sweeps while the worker runs. */
export interface WorkerLifecycle {
  getState(): string;
}

export interface Sweep {
  intervalMs: number;
  /** One pass; returns how many things it acted on. */
  run(): Promise<number>;
  /** Logged when a pass acted on something, with the count under `count`. */
  acted: string;
  /** Logged when a pass failed, with the error's name only (never its message, which may quote data). */
  failed: string;
}

/**
 * Runs `sweep` every interval while `worker` runs, never two passes at once, and stops for good once
 * the worker stops. The timer never keeps the process alive on its own.
 */
export function sweepWhileRunning(worker: WorkerLifecycle, sweep: Sweep, logger: Logger): void {
  let sweeping = false;
  const timer = setInterval(() => {
    const state = worker.getState();
    if (state === 'INITIALIZED' || sweeping) return;
    if (state !== 'RUNNING') {
      clearInterval(timer);
      return;
    }
    sweeping = true;
    sweep
      .run()
      .then((count) => {
        if (count > 0) logger.info({ count }, sweep.acted);
      })
      .catch((error: Error) => logger.warn({ error: error.name }, sweep.failed))
      .finally(() => (sweeping = false));
  }, sweep.intervalMs);
  timer.unref();
}
