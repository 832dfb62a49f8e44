import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client, Connection } from '@temporalio/client';

import { projectRoot } from '../domain/project-root';
import { loadConfig } from '../infrastructure/config/config';
import { freePort } from '../infrastructure/temporal/dev-server';
import { dataConverter } from '../infrastructure/temporal/temporal-connection';
import { localEncryption } from '../src/bootstrap';

export type Api = (route: string, init?: RequestInit) => Promise<Response>;

export interface LocalStack {
  api: Api;
  /** A Temporal client on the stack's dev server, with the stack's own payload key. */
  temporal: Client;
  namespace: string;
  /** RSS of every process of the stack (launcher and its descendants), labelled by what it runs. */
  processMemory(): ProcessMemory[];
  stop(): Promise<void>;
}

export interface ProcessMemory {
  pid: number;
  label: string;
  rssMb: number;
  /** User and system CPU time the process has used so far. */
  cpuSeconds: number;
}

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every common build). */
const CLOCK_TICKS_PER_SECOND = 100;

/** `npm start`'s process on free ports, a throwaway data folder and a rate limit out of the way. */
export async function startLocalStack(): Promise<LocalStack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-bench-local-'));
  const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort() };
  const apiKey = `hak_bench_${randomUUID().replace(/-/g, '')}`;
  const local = spawn(process.execPath, [path.join(projectRoot(), 'dist', 'src', 'main.local.js')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(ports.api),
      TEMPORAL_DEV_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      DEV_API_KEY: apiKey,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    local.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Dev API key') && resolve());
    local.once('exit', () => reject(new Error('local mode exited during start-up')));
  });
  const config = loadConfig('local', { DATA_DIR: dataDir });
  const connection = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
  const temporal = new Client({
    connection,
    namespace: config.temporal.namespace,
    dataConverter: dataConverter(localEncryption(config)),
  });
  const api: Api = (route, init = {}) =>
    fetch(`http://127.0.0.1:${ports.api}${route}`, {
      ...init,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    });
  return {
    api,
    temporal,
    namespace: config.temporal.namespace,
    processMemory: () => processTreeMemory(local.pid!),
    async stop() {
      await connection.close();
      await stopProcess(local);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** Walks /proc for the process and its descendants: Linux only, like the rest of the bench. */
function processTreeMemory(rootPid: number): ProcessMemory[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses; the parent pid follows its closing one.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), parent);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [rootPid];
  for (let index = 0; index < tree.length; index += 1) {
    for (const [pid, parent] of parents) if (parent === tree[index]) tree.push(pid);
  }
  return tree.flatMap((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [utime, stime] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(11, 13)
        .map(Number);
      return [
        {
          pid,
          label: labelOf(command, pid === rootPid),
          rssMb: rssKb / 1024,
          cpuSeconds: (utime! + stime!) / CLOCK_TICKS_PER_SECOND,
        },
      ];
    } catch {
      return [];
    }
  });
}

function labelOf(command: string[], isRoot: boolean): string {
  const joined = command.join(' ');
  if (/temporal(\s|$)/.test(path.basename(command[0] ?? '')) || joined.includes('start-dev'))
    return 'temporal';
  if (/main\.(local-)?worker/.test(joined)) return 'worker';
  if (/main\.(local-)?api/.test(joined)) return 'API';
  if (isRoot) return 'launcher (database)';
  return path.basename(command[command.length - 1] ?? `pid`);
}
