import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import { ApplicationFailure } from '@temporalio/common';

import type { ClinicalEvaluationSettings } from '../config/config';
import { projectRoot } from '../config/project-root';
import { CLINICAL_EVALUATION_TIMED_OUT } from './clinical-model';
import type { EvaluationResult, EvaluationTask } from './evaluation-tasks';
import { runEvaluationTask } from './evaluation-tasks';

/**
 * The compiled thread entry. Production runs from dist/; tests run TypeScript through ts-jest, which
 * a worker thread cannot load, so they use the same compiled file (`npm test` builds first).
 */
export const EVALUATION_THREAD_ENTRY = path.join(
  projectRoot(),
  'dist',
  'src',
  'clinical',
  'evaluation-thread.js',
);

/** Where the CPU-heavy clinical text work runs: a pool of threads, or inline (unit tests, the bench). */
export interface ClinicalEvaluator {
  run<Task extends EvaluationTask>(task: Task): Promise<EvaluationResult<Task>>;
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

function formatLimit(limitMs: number): string {
  return limitMs % 1000 === 0 ? `${limitMs / 1000}-second` : `${limitMs}-millisecond`;
}

interface Pending {
  id: number;
  task: EvaluationTask;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  thread: Worker;
  current?: Pending & { timer: NodeJS.Timeout };
}

/**
 * A few worker threads for clinical text, so one pathological record never stalls the worker's event
 * loop (workflow tasks, heartbeats and every other activity). Each task has a hard time limit: the
 * thread running it is terminated and replaced, and the task fails with `ClinicalEvaluationTimedOut`.
 * Threads start on first use and are unref'd, so an idle pool never keeps a process alive.
 */
export class EvaluationPool implements ClinicalEvaluator {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly settings: ClinicalEvaluationSettings,
    private readonly entry: string = EVALUATION_THREAD_ENTRY,
  ) {}

  run<Task extends EvaluationTask>(task: Task): Promise<EvaluationResult<Task>> {
    if (this.closed) return Promise.reject(new Error('The clinical evaluation pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve: resolve as (result: unknown) => void, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0))
      pending.reject(new Error('The clinical evaluation pool closed'));
    await Promise.all(
      this.slots.splice(0).map((slot) => this.stop(slot, new Error('The clinical evaluation pool closed'))),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((candidate) => !candidate.current) ?? this.spawn();
      if (!slot) return;
      const pending = this.queue.shift() as Pending;
      const timer = setTimeout(() => void this.overrun(slot), this.settings.taskTimeoutMs);
      slot.current = { ...pending, timer };
      slot.thread.ref();
      slot.thread.postMessage({ id: pending.id, task: pending.task });
    }
  }

  private spawn(): Slot | undefined {
    if (this.slots.length >= this.settings.threads) return undefined;
    const slot: Slot = { thread: new Worker(this.entry) };
    slot.thread.unref();
    slot.thread.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const current = slot.current;
      if (!current || current.id !== message.id) return;
      this.finish(slot);
      if (message.error === undefined) current.resolve(message.result);
      else current.reject(new Error(`The clinical evaluation failed (${message.error})`));
    });
    slot.thread.on('error', () => this.replace(slot, new Error('A clinical evaluation thread crashed')));
    slot.thread.on('exit', () => this.replace(slot, new Error('A clinical evaluation thread exited')));
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.current) clearTimeout(slot.current.timer);
    slot.current = undefined;
    slot.thread.unref();
    this.dispatch();
  }

  private async overrun(slot: Slot): Promise<void> {
    await this.stop(slot, evaluationTimedOut(this.settings.taskTimeoutMs));
    this.dispatch();
  }

  /** Removes a thread that died on its own; its task, if any, fails and may be retried. */
  private replace(slot: Slot, error: Error): void {
    if (!this.slots.includes(slot)) return;
    void this.stop(slot, error).then(() => this.dispatch());
  }

  private async stop(slot: Slot, error: Error): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
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
