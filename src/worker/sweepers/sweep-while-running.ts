import type { Logger } from 'pino';

/** The parts of a Temporal worker a sweep watches: it sweeps while the worker runs. */
export interface WorkerLifecycle {
  getState(): string;
}

/** At most this many rows per pass, so one pass stays short however much has piled up. */
export const SWEEP_BATCH = 100;

/** How often a sweeper runs, and what its log lines say. */
export interface SweepRoutine {
  intervalMs: number;
  /** Logged when a pass acted on something, with the count under `count`. */
  acted: string;
  /** Logged when a pass failed, with the error's name only (never its message, which may quote data). */
  failed: string;
}

/** A periodic clean-up: its routine, and one pass. */
export interface Sweeper {
  readonly routine: SweepRoutine;
  /** One pass; returns how many things it acted on. */
  sweep(): Promise<number>;
}

/**
 * A clean-up whose pass deletes or clears rows batch after batch, each in its own short transaction,
 * until a batch comes back short, so one pass clears whatever has piled up without holding rows for long.
 */
export abstract class BatchSweeper implements Sweeper {
  abstract readonly routine: SweepRoutine;

  constructor(private readonly batchSize = SWEEP_BATCH) {}

  /** One pass; returns how many rows it deleted or cleared. */
  async sweep(): Promise<number> {
    const sweepBatch = this.startPass();
    let deleted = 0;
    for (;;) {
      const batch = await sweepBatch(this.batchSize);
      deleted += batch;
      if (batch < this.batchSize) return deleted;
    }
  }

  /** What this pass deletes, at most `batchSize` rows a call: made once a pass, so a cutoff holds for all of it. */
  protected abstract startPass(): (batchSize: number) => Promise<number>;
}

/**
 * Runs `sweeper` every interval while `worker` runs, never two passes at once, and stops for good once
 * the worker stops. The timer never keeps the process alive on its own.
 */
export function sweepWhileRunning(worker: WorkerLifecycle, sweeper: Sweeper, logger: Logger): void {
  const { intervalMs, acted, failed } = sweeper.routine;
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
        if (count > 0) logger.info({ count }, acted);
      })
      .catch((error: Error) => logger.warn({ error: error.name }, failed))
      .finally(() => (sweeping = false));
  }, intervalMs);
  timer.unref();
}
