import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { projectRoot } from '../infrastructure/project-root';
import { DevServer, startDevServerOnFreePorts } from '../infrastructure/temporal/dev-server';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureTemporalCli } = require(path.join(projectRoot(), 'scripts', 'ensure-temporal.js')) as {
  ensureTemporalCli(): Promise<string>;
};

/** A private Temporal dev server for one benchmark run, removed afterwards. */
export async function benchTemporal(): Promise<{ server: DevServer; cleanup(): Promise<void> }> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-bench-'));
  const server = await startDevServerOnFreePorts({
    binary: await ensureTemporalCli(),
    dbFile: path.join(workDir, 'temporal.db'),
    namespace: 'default',
    logFile: path.join(workDir, 'temporal-server.log'),
  });
  return {
    server,
    async cleanup() {
      await server.stop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

export function randomKeys(): string {
  return `bench:${randomBytes(32).toString('base64')}`;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Runs `work` over `items` with at most `limit` at once. */
export async function withConcurrency<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
