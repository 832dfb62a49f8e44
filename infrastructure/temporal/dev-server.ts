import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import { Connection } from '@temporalio/client';

import { CUSTOM_SEARCH_ATTRIBUTES } from '../../domain/temporal/search-attributes';

import { TEMPORAL_MEMORY } from './temporal-memory';

export interface DevServerOptions {
  binary: string;
  port: number;
  /** Omit for a headless server (tests). */
  ui?: { port: number; codecEndpoint: string };
  dbFile: string;
  namespace: string;
  /** Namespaces created beside `namespace`, each with the same search attributes (a test run's workers). */
  moreNamespaces?: string[];
  logFile: string;
  readyTimeoutMs?: number;
  /**
   * Ports the launch's other processes will listen on once the server is up (the API's, the metrics
   * endpoints'): never chosen for the server's HTTP and metrics endpoints, which would take them first.
   */
  reservedPorts?: number[];
}

export interface DevServer {
  address: string;
  uiUrl?: string;
  stop(): Promise<void>;
}

/**
 * Settings measured with `npm run bench` (docs/performance.md keeps the figures):
 * - the WAL journal, as Temporal's own SQLite file configuration has it (development-sqlite-file.yaml),
 *   so readers (visibility, describe) stop waiting on writers;
 * - eager activities: a workflow task's first activity runs on the worker that scheduled it, with no
 *   round trip through matching (workflows ask for it by default);
 * - one task-queue partition: one dev server has nothing to spread, and with four a poller can wait on
 *   one partition while a task sits in another;
 * - the transfer queue's progress saved every second, not every 30: a deletion waits until the queue
 *   has recorded the workflow's close task as done (transferProcessorUpdateAckInterval, in Temporal's
 *   transfer_queue_task_executor_base.go), so a purge or an erasure took about 30 s per case;
 * - the history cache bounded to the workflows in use, as the scale shape's server has it
 *   (TEMPORAL_MEMORY in ./temporal-memory.ts);
 * - timers fired within 10 ms of when they are due, not within the timer queue's default second
 *   (timerProcessorMaxTimeShift): a retry or timer of a few hundred milliseconds took about one
 *   second, in local mode and in every test that waits on one.
 */
const DEV_SERVER_TUNING = [
  '--sqlite-pragma',
  'journal_mode=wal',
  '--sqlite-pragma',
  'synchronous=2',
  '--dynamic-config-value',
  'system.enableActivityEagerExecution=true',
  '--dynamic-config-value',
  'matching.numTaskqueueReadPartitions=1',
  '--dynamic-config-value',
  'matching.numTaskqueueWritePartitions=1',
  '--dynamic-config-value',
  'history.transferProcessorUpdateAckInterval="1s"',
  '--dynamic-config-value',
  `history.hostLevelCacheMaxSize=${TEMPORAL_MEMORY.historyCacheEntries}`,
  '--dynamic-config-value',
  'history.timerProcessorMaxTimeShift="10ms"',
];

/**
 * Starts `temporal server start-dev` with our search attributes registered and waits until its
 * namespace answers. We poll instead of trusting a fixed start-up delay: on two busy cores the
 * server can take well over the few seconds the SDK's test helper allows.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  for (const port of [options.port, options.ui?.port]) {
    // Otherwise we would quietly talk to whatever already listens there, with another database.
    if (port !== undefined && !(await isPortFree(port))) {
      throw new Error(
        `Port ${port} is already in use; stop what holds it or choose other ports (TEMPORAL_DEV_PORT, TEMPORAL_UI_PORT).`,
      );
    }
  }
  mkdirSync(path.dirname(options.dbFile), { recursive: true });
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const reserved = [options.port, ...(options.ui ? [options.ui.port] : []), ...(options.reservedPorts ?? [])];
  const httpPort = await freePort(reserved);
  const metricsPort = await freePort([...reserved, httpPort]);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--http-port',
    String(httpPort),
    '--metrics-port',
    String(metricsPort),
    '--db-filename',
    options.dbFile,
    ...[options.namespace, ...(options.moreNamespaces ?? [])].flatMap((namespace) => [
      '--namespace',
      namespace,
    ]),
    '--log-format',
    'json',
    '--log-level',
    'warn',
    ...DEV_SERVER_TUNING,
    ...Object.entries(CUSTOM_SEARCH_ATTRIBUTES).flatMap(([name, type]) => [
      '--search-attribute',
      `${name}=${type}`,
    ]),
    ...(options.ui
      ? ['--ui-port', String(options.ui.port), '--ui-codec-endpoint', options.ui.codecEndpoint]
      : ['--headless']),
  ];
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(options.binary, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GOMEMLIMIT: TEMPORAL_MEMORY.goMemoryLimit },
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);

  const address = `127.0.0.1:${options.port}`;
  try {
    await waitUntilReady(child, address, options.namespace, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    await stopProcess(child);
    throw new Error(`${(error as Error).message} (server log: ${options.logFile})`);
  }
  return {
    address,
    uiUrl: options.ui ? `http://localhost:${options.ui.port}` : undefined,
    stop: () => stopProcess(child).finally(() => log.end()),
  };
}

async function waitUntilReady(child: ChildProcess, address: string, namespace: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error('The Temporal dev server exited during start-up');
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`The Temporal dev server did not answer on ${address} within ${timeoutMs} ms`);
}

/** Sends the signal, then SIGKILL if the process is still there after the grace period. */
export function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const forceKill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(forceKill);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * Starts a dev server on fresh free ports, trying again on a collision: the server also binds
 * internal service ports beside its frontend port, which another process may hold.
 */
export async function startDevServerOnFreePorts(
  options: Omit<DevServerOptions, 'port'>,
  attempts = 3,
): Promise<DevServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startDevServer({ ...options, port: await freePort() });
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

/**
 * A free port below the range the OS takes outgoing connections' local ports from (Linux's
 * `ip_local_port_range`, 32768–60999 by default). A port the OS hands out for `listen(0)` lies inside
 * that range, so between this call and its use a connection the service itself opens (its workers to
 * Temporal) could take it; one below the range only another listener can. `reserved` ports are free
 * now but promised to a process about to start, so they are never chosen.
 */
export async function freePort(reserved: readonly number[] = []): Promise<number> {
  const below = firstEphemeralPort();
  if (below - LOWEST_CHOSEN_PORT >= 1000) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const port = LOWEST_CHOSEN_PORT + Math.floor(Math.random() * (below - LOWEST_CHOSEN_PORT));
      if (!reserved.includes(port) && (await isPortFree(port))) return port;
    }
  }
  for (;;) {
    const port = await portTheOsHandsOut();
    if (!reserved.includes(port)) return port;
  }
}

/**
 * `length` consecutive free ports, the first returned, below the outgoing connections' range as
 * `freePort` chooses: the cluster launcher numbers its APIs and metrics endpoints up from one port.
 */
export async function freePortRun(length: number): Promise<number> {
  const ephemeral = firstEphemeralPort();
  const starts = ephemeral - length - LOWEST_CHOSEN_PORT + 1;
  for (let attempt = 0; starts >= MIN_PORT_RUN_STARTS && attempt < PORT_RUN_ATTEMPTS; attempt += 1) {
    const first = LOWEST_CHOSEN_PORT + Math.floor(Math.random() * starts);
    const ports = Array.from({ length }, (_, index) => first + index);
    if ((await Promise.all(ports.map(isPortFree))).every(Boolean)) return first;
  }
  throw new Error(
    `No run of ${length} free ports between ${LOWEST_CHOSEN_PORT} and the outgoing connections' range ` +
      `(from ${ephemeral}, /proc/sys/net/ipv4/ip_local_port_range)`,
  );
}

/** Below this many places a run could start, its ports would clash with other tests' too often. */
const MIN_PORT_RUN_STARTS = 1000;
const PORT_RUN_ATTEMPTS = 200;

/** Below the well-known and registered ports most services are configured on. */
const LOWEST_CHOSEN_PORT = 20_000;

function firstEphemeralPort(): number {
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(first) || 32_768;
  } catch {
    // Not Linux: the IANA range starts at 49152.
    return 49_152;
  }
}

function portTheOsHandsOut(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Whether nothing listens on the port, on any IPv4 address: the API binds 0.0.0.0 by default, which a
 * listener on one address (loopback or another) refuses.
 */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}
