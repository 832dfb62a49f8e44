import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from 'pino';

import type { EvaluationLimits } from '../../domain/clinical/clinical-model';
import {
  CLINICAL_EVALUATION_DEADLINE_PASSED,
  CLINICAL_EVALUATION_TIMED_OUT,
  CLINICAL_EVALUATION_UNAVAILABLE,
} from '../../domain/failures';
import { projectRoot } from '../project-root';
import type { ClinicalEvaluationSettings } from '../config/config';
import { runEvaluationTask } from './evaluation-tasks';
import type { EvaluationResult, EvaluationTask } from './evaluation-tasks';

/**
 * The compiled thread entry. Production runs from dist/; tests run TypeScript through ts-jest, which
 * a worker thread cannot load, so they use the same compiled file (`npm test` builds first).
 */
export const EVALUATION_THREAD_ENTRY = path.join(
  projectRoot(),
  'dist',
  'infrastructure',
  'clinical',
  'evaluation-thread.js',
);

/** Where the CPU-heavy clinical text work runs: a pool of threads, or inline (unit tests, the bench). */
export interface ClinicalEvaluator {
  run<Task extends EvaluationTask>(task: Task, limits?: EvaluationLimits): Promise<EvaluationResult<Task>>;
}

export const inlineEvaluator: ClinicalEvaluator = {
  async run(task) {
    return runEvaluationTask(task);
  },
};

export function evaluationTimedOut(limitMs: number): ApplicationFailure {
  return ApplicationFailure.create({
    type: CLINICAL_EVALUATION_TIMED_OUT,
    message:
      `Reading the clinical record took longer than the ${formatLimit(limitMs)} limit, so it was stopped. ` +
      'Shorten the visit notes or evidence text (or send the relevant excerpts) and submit again.',
    nonRetryable: true,
  });
}

/**
 * A task whose caller's deadline passed first (dropped unrun from the queue, or stopped mid-run) fails
 * retryably, unlike the time limit: the record was not shown to be too slow to read, and the next
 * attempt, with a fresh deadline, may find the pool less busy.
 */
function deadlinePassed(started: boolean): ApplicationFailure {
  return ApplicationFailure.create({
    type: CLINICAL_EVALUATION_DEADLINE_PASSED,
    message: started
      ? "The attempt's deadline passed before the clinical evaluation finished, so it was stopped."
      : "No clinical evaluation thread was free and ready before the attempt's deadline; the task was not run.",
    nonRetryable: false,
  });
}

/** Queued tasks fail so when no thread could start: the next attempt may start one. */
function threadsUnavailable(): ApplicationFailure {
  return ApplicationFailure.create({
    type: CLINICAL_EVALUATION_UNAVAILABLE,
    message: 'A clinical evaluation thread could not start; the task was not run.',
    nonRetryable: false,
  });
}

function formatLimit(limitMs: number): string {
  return limitMs % 1000 === 0 ? `${limitMs / 1000}-second` : `${limitMs}-millisecond`;
}

interface Pending {
  id: number;
  task: EvaluationTask;
  deadline?: number;
  /** Drops the task from the queue at its deadline, even while every thread stays busy. */
  expiry?: NodeJS.Timeout;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  thread: Worker;
  /** Set once the thread has loaded the engines and said so: only then does it take tasks. */
  ready: boolean;
  /** Stops a thread that never says it is ready. */
  startTimer?: NodeJS.Timeout;
  current?: Pending & { timer: NodeJS.Timeout; stoppedBy: 'time_limit' | 'deadline' };
}

export interface EvaluationPoolOptions {
  /** The thread's script; tests swap in one that stalls on purpose. */
  entry?: string;
  /** Told of timeouts, crashes and expired tasks: the error's name or code and the task's kind, never text. */
  logger?: Logger;
  /** How long a new thread may take to load the engines before it is stopped; 20 s unless a test shortens it. */
  startLimitMs?: number;
}

/**
 * Loading the engines takes well under a second; this allows for a machine stalled by other work, and
 * ends before the clinical activities' attempts (30 s), so their tasks fail retryably, not at the deadline.
 */
const THREAD_START_LIMIT_MS = 20_000;

/**
 * A few worker threads for clinical text, so one pathological record never stalls the worker's event
 * loop (workflow tasks, heartbeats and every other activity). Each task has a hard time limit, counted
 * from when a thread takes it: the thread running it is terminated and replaced, and the task fails
 * with `ClinicalEvaluationTimedOut`. A thread takes tasks only once it has loaded the engines and
 * FHIR R4's (4.0.1) model info, so a fresh thread's start-up does not count against a task: on a busy
 * machine it would otherwise cut the first case after a deploy or a replacement. A thread that exits
 * before it is ready, or is not ready within its start limit, fails the queued tasks retryably with
 * `ClinicalEvaluationUnavailable`: nothing could run them.
 * A caller may give a deadline (its activity attempt's end): a task still queued then is dropped unrun,
 * and one still running is stopped, both with a retryable failure, so no thread works for an attempt
 * that Temporal has already timed out.
 * Threads start on first use and are unref'd, so an idle pool never keeps a process alive.
 */
export class EvaluationPool implements ClinicalEvaluator {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly entry: string;
  private readonly logger?: Logger;
  private readonly startLimitMs: number;
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly settings: ClinicalEvaluationSettings,
    options: EvaluationPoolOptions = {},
  ) {
    this.entry = options.entry ?? EVALUATION_THREAD_ENTRY;
    this.logger = options.logger;
    this.startLimitMs = options.startLimitMs ?? THREAD_START_LIMIT_MS;
  }

  run<Task extends EvaluationTask>(
    task: Task,
    limits: EvaluationLimits = {},
  ): Promise<EvaluationResult<Task>> {
    if (this.closed) return Promise.reject(new Error('The clinical evaluation pool is closed'));
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        id: this.nextId++,
        task,
        deadline: limits.deadline,
        resolve: resolve as (result: unknown) => void,
        reject,
      };
      if (limits.deadline !== undefined) {
        pending.expiry = setTimeout(() => this.expire(pending), Math.max(0, limits.deadline - Date.now()));
        pending.expiry.unref();
      }
      this.queue.push(pending);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.rejectQueued(new Error('The clinical evaluation pool closed'));
    await Promise.all(
      this.slots.splice(0).map((slot) => this.stop(slot, new Error('The clinical evaluation pool closed'))),
    );
  }

  private dispatch(): void {
    try {
      this.startThreadsForQueue();
      while (this.queue.length > 0) {
        const slot = this.slots.find((candidate) => candidate.ready && !candidate.current);
        if (!slot) return;
        const pending = this.queue.shift() as Pending;
        clearTimeout(pending.expiry);
        // The expiry timer may be late when the event loop is busy; a task past its deadline never runs.
        if (pending.deadline !== undefined && Date.now() >= pending.deadline) {
          this.dropExpired(pending);
          continue;
        }
        // A task never outlives its caller's wait, so no stale run competes with the caller's retry.
        const untilDeadline = (pending.deadline ?? Infinity) - Date.now();
        const stoppedBy = untilDeadline < this.settings.taskTimeoutMs ? 'deadline' : 'time_limit';
        const timer = setTimeout(
          () => this.overrun(slot),
          Math.min(untilDeadline, this.settings.taskTimeoutMs),
        );
        slot.current = { ...pending, timer, stoppedBy };
        slot.thread.ref();
        slot.thread.postMessage({ id: pending.id, task: pending.task });
      }
    } catch (error) {
      // Only starting a thread can throw here (e.g. out of resources): nothing could run the queue.
      this.logger?.error({ err: describeError(error) }, 'A clinical evaluation thread could not start');
      this.rejectQueued(threadsUnavailable());
    }
  }

  /** Starts threads, within the pool's size, for the queued tasks no thread (ready or starting) will take. */
  private startThreadsForQueue(): void {
    const available = this.slots.filter((slot) => !slot.current).length;
    for (let wanted = this.queue.length - available; wanted > 0; wanted--) {
      if (this.slots.length >= this.settings.threads) return;
      this.spawn();
    }
  }

  private spawn(): void {
    const slot: Slot = { thread: new Worker(this.entry), ready: false };
    slot.startTimer = setTimeout(() => {
      this.logger?.error(
        { limitMs: this.startLimitMs },
        'A clinical evaluation thread did not start in time',
      );
      this.replace(slot, new Error('A clinical evaluation thread did not start in time'));
    }, this.startLimitMs);
    slot.startTimer.unref();
    slot.thread.on('message', (message: { ready?: true; id?: number; result?: unknown; error?: string }) => {
      if (message.ready) {
        clearTimeout(slot.startTimer);
        slot.ready = true;
        this.dispatch();
        if (!slot.current) slot.thread.unref();
        return;
      }
      const current = slot.current;
      if (!current || current.id !== message.id) return;
      this.finish(slot);
      if (message.error === undefined) current.resolve(message.result);
      else current.reject(new Error(`The clinical evaluation failed (${message.error})`));
    });
    slot.thread.on('error', (error) => {
      this.logger?.error(
        { err: describeError(error), kind: slot.current?.task.kind },
        'A clinical evaluation thread crashed',
      );
      this.replace(slot, new Error('A clinical evaluation thread crashed'));
    });
    slot.thread.on('exit', (exitCode) => {
      this.logger?.error({ exitCode, kind: slot.current?.task.kind }, 'A clinical evaluation thread exited');
      this.replace(slot, new Error('A clinical evaluation thread exited'));
    });
    // A starting thread stays ref'd, as the listeners leave it: it starts for queued work, which must
    // keep the process alive until answered. Once ready and idle it is unref'd.
    this.slots.push(slot);
  }

  private finish(slot: Slot): void {
    if (slot.current) clearTimeout(slot.current.timer);
    slot.current = undefined;
    slot.thread.unref();
    this.dispatch();
  }

  private expire(pending: Pending): void {
    const index = this.queue.indexOf(pending);
    if (index === -1) return;
    this.queue.splice(index, 1);
    this.dropExpired(pending);
  }

  private dropExpired(pending: Pending): void {
    this.logger?.warn({ kind: pending.task.kind }, 'A clinical evaluation expired in the queue, unrun');
    pending.reject(deadlinePassed(false));
  }

  private overrun(slot: Slot): void {
    const current = slot.current;
    if (current?.stoppedBy === 'deadline') {
      this.logger?.warn(
        { kind: current.task.kind },
        'A clinical evaluation outlasted its deadline; its thread is replaced',
      );
      this.stopThenDispatch(slot, deadlinePassed(true));
      return;
    }
    this.logger?.warn(
      { kind: current?.task.kind, limitMs: this.settings.taskTimeoutMs },
      'A clinical evaluation reached its time limit; its thread is replaced',
    );
    this.stopThenDispatch(slot, evaluationTimedOut(this.settings.taskTimeoutMs));
  }

  /**
   * Removes a thread that died on its own; its task, if any, fails and may be retried. One that died
   * before it was ready fails the queue too, rather than start another that would die the same way.
   */
  private replace(slot: Slot, error: Error): void {
    if (!this.slots.includes(slot)) return;
    if (!slot.ready) {
      this.logger?.error('A clinical evaluation thread could not start');
      this.rejectQueued(threadsUnavailable());
    }
    this.stopThenDispatch(slot, error);
  }

  private stopThenDispatch(slot: Slot, error: Error): void {
    this.stop(slot, error).then(
      () => this.dispatch(),
      (failure: unknown) => {
        this.logger?.error(
          { err: describeError(failure) },
          'A clinical evaluation thread could not be stopped',
        );
        this.dispatch();
      },
    );
  }

  private rejectQueued(error: Error): void {
    for (const pending of this.queue.splice(0)) {
      clearTimeout(pending.expiry);
      pending.reject(error);
    }
  }

  private async stop(slot: Slot, error: Error): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    clearTimeout(slot.startTimer);
    const current = slot.current;
    slot.current = undefined;
    if (current) {
      clearTimeout(current.timer);
      current.reject(error);
    }
    slot.thread.removeAllListeners('exit');
    await slot.thread.terminate();
  }
}

/** An error's name and code only: a message from a thread that read clinical text could quote it. */
function describeError(error: unknown): { name: string; code?: string } {
  if (!(error instanceof Error)) return { name: typeof error };
  const { code } = error as NodeJS.ErrnoException;
  return code === undefined ? { name: error.name } : { name: error.name, code };
}
