import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import type { AppConfig } from '../../infrastructure/config/config';
import { testEnvironment } from '../harness/environment';

export const DIST = path.join(projectRoot(), 'dist', 'src');

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  /** Resolves with the exit code of a process expected to end by itself (killed if it does not). */
  waitForExit(timeoutMs?: number): Promise<number | null>;
}

/** Starts one of the service's compiled entry points, as an operator would. */
/**
 * The environment of a production worker process that shares a test app's Temporal task queue,
 * PostgreSQL database and payload keys, so it runs the cases the app creates.
 */
export function workerEnvFor(
  config: AppConfig,
  databaseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    TEMPORAL_ADDRESS: config.temporal.address,
    TEMPORAL_NAMESPACE: config.temporal.namespace,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
    DATABASE_URL: databaseUrl,
    PAYLOAD_ENCRYPTION_KEYS: [...config.encryption!.keys]
      .map(([id, key]) => `${id}:${key.toString('base64')}`)
      .join(','),
    WEBHOOK_ALLOWED_TARGETS: '127.0.0.0/8',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * The environment of local mode (`npm start`) as a developer runs it, on the ports given, with the
 * dev key pinned: in the default namespace rather than this jest worker's, on its own data folder.
 */
export function localModeEnv(options: {
  dataDir: string;
  ports: { api: number; temporal: number; ui: number };
  devApiKey: string;
}): Record<string, string> {
  return {
    DATA_DIR: options.dataDir,
    PORT: String(options.ports.api),
    TEMPORAL_DEV_PORT: String(options.ports.temporal),
    TEMPORAL_UI_PORT: String(options.ports.ui),
    TEMPORAL_CLI_PATH: testEnvironment().temporalBinary,
    DEV_API_KEY: options.devApiKey,
    LOG_LEVEL: 'warn',
    TEMPORAL_ADDRESS: '',
    TEMPORAL_NAMESPACE: '',
    DATABASE_URL: '',
    PAYLOAD_ENCRYPTION_KEYS: '',
  };
}

export function startProcess(entry: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [path.join(DIST, entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    async waitForOutput(pattern, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null)
          throw new Error(`${entry} exited (${child.exitCode}) before ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${entry} did not print ${pattern} within ${timeoutMs} ms:\n${output}`);
    },
    async stop(signal = 'SIGINT', timeoutMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return this.waitForExit(timeoutMs);
    },
    async waitForExit(timeoutMs = 120_000) {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Runs a compiled command to completion (the admin CLI). */
export function runCommand(
  entry: string,
  args: string[],
  env: Record<string, string>,
  options: { input?: string } = {},
) {
  const result = spawnSync(process.execPath, [path.join(DIST, entry), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
    input: options.input,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Tests read response bodies as loosely as supertest does: assertions check their shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = Record<string, any>;

export async function readJson(response: Response): Promise<JsonBody> {
  return (await response.json()) as JsonBody;
}

/** Whether a process of that pid still exists (signal 0 only checks). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
