import { ChildProcess, fork } from 'node:child_process';

import type { Logger } from 'pino';

/** The message a local child sends its launcher once it serves (API) or polls (worker). */
export const READY_MESSAGE = { type: 'ready' } as const;

/** Tells the launcher this process is ready; a no-op when started on its own, without a launcher. */
export function reportReady(): void {
  process.send?.(READY_MESSAGE);
}

/** A crash loop is not worth restarting: this many unexpected exits within the window stop local mode. */
const MAX_CRASHES = 3;
const CRASH_WINDOW_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

/**
 * Memory settings for every child of local mode's and the cluster launcher's (and the image's, which a
 * unit test holds to these); an operator's own wins.
 * - glibc gives every thread that allocates its own heap arena, up to eight per core, and returns little
 *   of a freed arena to the system. A worker's reading thread, its Tesseract engines and ONNX Runtime
 *   each allocate from their own, so its RSS kept about 75 MB it no longer used. Two arenas cost
 *   nothing measurable in reading time.
 * - glibc also raises its mmap threshold (from 128 KB up to 32 MB) each time a large block is freed, so
 *   a reading thread's image and tensor buffers came to be carved from those arenas, where what is freed
 *   between live blocks stays resident: a worker's RSS rose by up to about 110 MB after a replacement
 *   of its reading thread. Fixed at 1 MB, blocks that large are mapped and unmapped whole. In soaks
 *   replacing the thread every 40 pages, the workers ended at 661–739 MB rather than 876–893 MB, for
 *   about 7 % more reading time (docs/performance.md, "The reading thread's replacement and glibc's mmap
 *   threshold").
 * - Node 24's V8 sizes the young generation by the machine's memory: 64 MB semi-spaces on a 24 GiB
 *   machine, where Node 20 had 16 MB. Every isolate (the worker's workflow and reading threads too) may
 *   then keep up to 192 MB of young objects; at 16 MB the worker's PSS after a 200-case burst fell
 *   from about 300 to 250 MB, and the API's from 170 to 145 MB, at the same throughput.
 * The first and the last are measured in docs/performance.md ("Issue 41: memory and the fax (third
 * stop)").
 */
export const CHILD_DEFAULT_ENV: NodeJS.ProcessEnv = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '1048576',
  NODE_OPTIONS: '--max-semi-space-size=16',
};

export interface ChildSpec {
  /** Unique among the launcher's children, e.g. `api` or `worker-2`. */
  name: string;
  entry: string;
  /** Added to the launcher's environment for this child alone. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs local mode's API and worker (or the cluster launcher's APIs and workers) as separate OS processes, so no workflow or activity ever
 * shares the API's event loop. A child that exits unexpectedly is restarted: the other keeps
 * serving meanwhile, as in scale mode. A child that dies before it was ever ready, or crashes
 * repeatedly, is a fault a restart will not fix, so `onGiveUp` stops local mode instead.
 */
export class ChildProcesses {
  private readonly running = new Map<ChildSpec['name'], ChildProcess>();
  private readonly crashes = new Map<ChildSpec['name'], number[]>();
  private stopping = false;

  constructor(
    private readonly options: {
      env: NodeJS.ProcessEnv;
      logger: Logger;
      onGiveUp: (name: ChildSpec['name']) => void;
    },
  ) {}

  /** Starts the child and resolves with its pid once it reports ready. */
  async start(spec: ChildSpec): Promise<number> {
    const child = fork(spec.entry, [], {
      env: { ...CHILD_DEFAULT_ENV, ...this.options.env, ...spec.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.running.set(spec.name, child);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if ((message as { type?: string })?.type !== READY_MESSAGE.type) return;
        child.off('exit', onEarlyExit);
        resolve();
      };
      const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) => {
        child.off('message', onMessage);
        reject(new Error(`The ${spec.name} process exited (${code ?? signal}) before it was ready.`));
      };
      child.on('message', onMessage);
      child.once('exit', onEarlyExit);
    });
    child.once('exit', (code, signal) => this.exited(spec, code, signal));
    return child.pid!;
  }

  pid(name: ChildSpec['name']): number | undefined {
    return this.running.get(name)?.pid;
  }

  /** Asks every child to stop gracefully (the worker lets running activities finish), then waits. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.running].map(async ([name, child]) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const forceKill = setTimeout(() => {
          this.options.logger.warn(
            { child: name, pid: child.pid },
            `the ${name} process did not stop within ${STOP_TIMEOUT_MS / 1000} s; killing it`,
          );
          child.kill('SIGKILL');
        }, STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(forceKill);
      }),
    );
  }

  private exited(spec: ChildSpec, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping) return;
    const now = Date.now();
    const recent = [...(this.crashes.get(spec.name) ?? []), now].filter((at) => now - at < CRASH_WINDOW_MS);
    this.crashes.set(spec.name, recent);
    const exit = { child: spec.name, exit_code: code, signal };
    if (recent.length >= MAX_CRASHES) {
      this.options.logger.error(
        exit,
        `the ${spec.name} process exited ${recent.length} times within a minute; stopping local mode`,
      );
      this.options.onGiveUp(spec.name);
      return;
    }
    this.options.logger.error(exit, `the ${spec.name} process exited unexpectedly; restarting it`);
    this.start(spec).then(
      (pid) => this.options.logger.warn({ child: spec.name, pid }, `the ${spec.name} process restarted`),
      (error: Error) => {
        this.options.logger.error({ child: spec.name, err_name: error.name }, error.message);
        if (!this.stopping) this.options.onGiveUp(spec.name);
      },
    );
  }
}
