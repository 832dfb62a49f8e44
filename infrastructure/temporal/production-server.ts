import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, WriteStream } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { Client as PgClient } from 'pg';

import { projectRoot } from '../project-root';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../domain/temporal/search-attributes';
import { isPortFree, stopProcess } from './dev-server';
import { addMissingSearchAttributes, MistypedSearchAttributesError } from './temporal-connection';
import { TEMPORAL_MEMORY } from './temporal-memory';

/** The server configuration every run of the scale shape uses (docs/operations.md explains it). */
export const TEMPORAL_CONFIG_DIR = path.join(projectRoot(), 'deploy', 'temporal');
export const TEMPORAL_CONFIG_ENVIRONMENT = 'production';
export const TEMPORAL_UI_CONFIG_DIR = path.join(TEMPORAL_CONFIG_DIR, 'ui');

/** Must equal `numHistoryShards` in production.yaml; the server keeps the count a database was made with. */
export const HISTORY_SHARDS = 16;

/** The namespace of the scale shape and how long Temporal keeps a closed case's history. */
export const CASES_NAMESPACE = 'healthcare-access';
export const CASES_NAMESPACE_RETENTION_DAYS = 30;

/** Temporal's two databases, created and migrated by its SQL schema tool. */
export const TEMPORAL_DATABASE = 'temporal';
export const TEMPORAL_VISIBILITY_DATABASE = 'temporal_visibility';
export const EMBEDDED_SCHEMAS: Record<string, string> = {
  [TEMPORAL_DATABASE]: 'postgresql/v12/temporal',
  [TEMPORAL_VISIBILITY_DATABASE]: 'postgresql/v12/visibility',
};

export interface TemporalBinaries {
  server: string;
  sqlTool: string;
  uiServer: string;
}

/** A PostgreSQL server Temporal may create its databases on (the role needs CREATEDB). */
export interface PostgresEndpoint {
  host: string;
  port: number;
  user: string;
  password: string;
}

/**
 * Temporal and its schema tool take a host, port, user and password; connection options in the URL
 * (TLS, a Unix socket) would be dropped silently, so they are refused instead.
 */
export function postgresEndpoint(databaseUrl: string): PostgresEndpoint {
  const url = new URL(databaseUrl);
  if (!url.hostname || url.search) {
    throw new Error(
      'The Temporal server reaches PostgreSQL by host and port with a user and password only: ' +
        'DATABASE_URL must be postgres://user:password@host:port/database, without options such as sslmode or a socket host.',
    );
  }
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

export interface ProductionTemporalOptions {
  binaries: TemporalBinaries;
  postgres: PostgresEndpoint;
  /** Logs and rendered state go here. */
  workDir: string;
  /** Temporal Web, served by ui-server; omitted for a headless server. */
  ui?: { port: number; codecEndpoint?: string; corsOrigins?: string[] };
  /** The frontend's port on 127.0.0.1 (a free one unless given). */
  frontendPort?: number;
  /** The port of the server's Prometheus endpoint (a free one unless given). */
  metricsPort?: number;
  /**
   * Ports the caller will bind after the server is up (its APIs, metrics): free now, so the server's
   * own ports must be chosen around them.
   */
  reservedPorts?: number[];
  readyTimeoutMs?: number;
  /**
   * Receives the way to stop what was spawned as soon as it is spawned, so a launcher interrupted
   * during start-up leaves no server behind.
   */
  onSpawned?: (stop: () => Promise<void>) => void;
}

export interface ProductionTemporal {
  /** host:port of the frontend, for clients and workers. */
  address: string;
  namespace: string;
  uiUrl?: string;
  /** The server's own Prometheus endpoint. */
  metricsUrl: string;
  /** Stops the server and starts it again on the same ports and databases, as a deploy would. */
  restart(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Creates Temporal's databases when missing and brings both schemas to the version this server
 * needs, with the schema tool as an operator would. Safe to run on every start.
 */
export async function setUpTemporalDatabases(sqlTool: string, postgres: PostgresEndpoint): Promise<void> {
  const run = promisify(execFile);
  const toolArgs = (database: string) => [
    '--plugin',
    'postgres12',
    '--endpoint',
    postgres.host,
    '--port',
    String(postgres.port),
    '--user',
    postgres.user,
    '--database',
    database,
  ];
  const toolEnv = { ...process.env, SQL_PASSWORD: postgres.password };
  for (const database of [TEMPORAL_DATABASE, TEMPORAL_VISIBILITY_DATABASE]) {
    if (!(await databaseExists(postgres, database))) {
      await run(sqlTool, [...toolArgs(database), 'create-database'], { env: toolEnv });
    }
    if (!(await hasSchemaVersionTable(postgres, database))) {
      await run(sqlTool, [...toolArgs(database), 'setup-schema', '--version', '0.0'], { env: toolEnv });
    }
    await run(
      sqlTool,
      [...toolArgs(database), 'update-schema', '--schema-name', EMBEDDED_SCHEMAS[database]!],
      {
        env: toolEnv,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  }
}

async function withPostgres<T>(
  postgres: PostgresEndpoint,
  database: string,
  use: (client: PgClient) => Promise<T>,
): Promise<T> {
  const client = new PgClient({ ...postgres, database });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Temporal's own cut-off: a host whose last heartbeat is older is taken for gone (servers beat every 10–15 s). */
const LIVE_HOST_HEARTBEAT_SECONDS = 20;

/** A server of the cluster still writes its heartbeat: its membership rows must not be forgotten. */
export class LiveClusterError extends Error {
  constructor() {
    super(
      "A Temporal server still heartbeats into this database's membership table: stop every server of " +
        'this cluster first (the table is forgotten only on a restored copy nothing runs on yet)',
    );
    this.name = 'LiveClusterError';
  }
}

/**
 * Empties the membership table of a Temporal database restored from a backup, so that its server starts
 * as a new cluster. The table lists the hosts of the cluster that wrote the backup; a server started
 * within 20 seconds of their last heartbeat tries to join them first, and spent 36 s of a restore
 * drill's start failing to (docs/operations.md, "Restore drill"). Each server writes its own row again
 * as it starts. While any row is younger than the cut-off, the table is watched: a heartbeat that moves
 * is a running server's, and the database is refused (LiveClusterError) rather than its members
 * forgotten. Answers the rows removed.
 */
export function forgetBackedUpClusterHosts(
  postgres: PostgresEndpoint,
  options: { pollMs?: number } = {},
): Promise<number> {
  return withPostgres(postgres, TEMPORAL_DATABASE, async (client) => {
    const heartbeats = async () =>
      (
        await client.query<{ host_id: string; last_heartbeat: string; age: number }>(
          `SELECT encode(host_id, 'hex') AS host_id, last_heartbeat::text AS last_heartbeat,
                  EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - last_heartbeat)::float8 AS age
           FROM cluster_membership`,
        )
      ).rows;
    const first = new Map((await heartbeats()).map((row) => [row.host_id, row.last_heartbeat]));
    for (;;) {
      const now = await heartbeats();
      if (now.some((row) => first.get(row.host_id) !== row.last_heartbeat)) throw new LiveClusterError();
      if (now.every((row) => row.age >= LIVE_HOST_HEARTBEAT_SECONDS)) break;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
    }
    const result = await client.query('DELETE FROM cluster_membership');
    return result.rowCount ?? 0;
  });
}

function databaseExists(postgres: PostgresEndpoint, database: string): Promise<boolean> {
  return withPostgres(postgres, 'postgres', async (client) => {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    return (result.rowCount ?? 0) > 0;
  });
}

function hasSchemaVersionTable(postgres: PostgresEndpoint, database: string): Promise<boolean> {
  return withPostgres(postgres, database, async (client) => {
    const result = await client.query(`SELECT to_regclass('schema_version') IS NOT NULL AS present`);
    return result.rows[0]?.present === true;
  });
}

/**
 * Starts the production Temporal server (all four services in one process) with the repo's
 * configuration, registers the cases namespace with its retention and our search attributes, and
 * starts Temporal Web when asked. Resolves once a workflow could be started in the namespace.
 */
export async function startProductionTemporal(
  options: ProductionTemporalOptions,
): Promise<ProductionTemporal> {
  mkdirSync(options.workDir, { recursive: true });
  await setUpTemporalDatabases(options.binaries.sqlTool, options.postgres);
  // Ports given for the frontend, metrics and Temporal Web are not bound yet either.
  const reserved = [
    options.frontendPort,
    options.metricsPort,
    options.ui?.port,
    ...(options.reservedPorts ?? []),
  ];
  const ports = await serverPorts(
    options.frontendPort,
    options.metricsPort,
    reserved.filter((port): port is number => port !== undefined),
  );
  const address = `127.0.0.1:${ports.TEMPORAL_FRONTEND_GRPC_PORT}`;
  const serverEnv = {
    ...minimalEnvironment(),
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${ports.metrics}`,
    TEMPORAL_DB_HOST: options.postgres.host,
    TEMPORAL_DB_PORT: String(options.postgres.port),
    TEMPORAL_DB_USER: options.postgres.user,
    TEMPORAL_DB_PASSWORD: options.postgres.password,
    TEMPORAL_DYNAMIC_CONFIG_FILE: path.join(TEMPORAL_CONFIG_DIR, 'dynamicconfig.yaml'),
    GOMEMLIMIT: TEMPORAL_MEMORY.goMemoryLimit,
  };
  const serverLogPath = path.join(options.workDir, 'temporal-server.log');
  const serverLog = openLog(serverLogPath);
  const startServer = () =>
    spawnLogged(
      options.binaries.server,
      [
        '--root',
        '/',
        '--config',
        TEMPORAL_CONFIG_DIR.slice(1),
        '--env',
        TEMPORAL_CONFIG_ENVIRONMENT,
        'start',
      ],
      serverEnv,
      serverLog,
    );
  let server = startServer();
  let ui: ChildProcess | undefined;
  let stopped = false;
  let restarting: Promise<void> = Promise.resolve();
  const stop = async () => {
    stopped = true;
    // A restart under way would start a server after this one stopped; it ends first.
    await restarting.catch(() => undefined);
    if (ui) await stopChild(ui);
    await stopChild(server);
    serverLog.end();
  };
  options.onSpawned?.(stop);
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  try {
    await waitForFrontend(server, address, readyTimeoutMs, serverLogPath);
    await refuseAnotherShardCount(address);
    await ensureCasesNamespace(address, readyTimeoutMs);
    if (options.ui) ui = await startTemporalWeb(options, address, (child) => (ui = child));
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    address,
    namespace: CASES_NAMESPACE,
    uiUrl: options.ui ? `http://localhost:${options.ui.port}` : undefined,
    metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics`,
    restart(signal = 'SIGTERM') {
      if (stopped) return Promise.reject(new Error('The Temporal server was stopped; it does not restart'));
      restarting = (async () => {
        await stopChild(server, signal);
        if (stopped) return;
        server = startServer();
        await waitForFrontend(server, address, readyTimeoutMs, serverLogPath);
        await waitForNamespace(address, readyTimeoutMs);
      })();
      return restarting;
    },
    stop,
  };
}

/**
 * The Temporal binaries get what they need and nothing else: the launcher's environment holds the
 * payload keys and database passwords of the application.
 */
function minimalEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TZ: process.env.TZ };
}

/**
 * A database made with another shard count keeps it, and the server only logs a warning; a cluster
 * then runs with a count nobody chose. Started by us, it refuses instead.
 */
async function refuseAnotherShardCount(address: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const { historyShardCount } = await connection.workflowService.getClusterInfo({});
    if (historyShardCount !== HISTORY_SHARDS) {
      throw new Error(
        `This Temporal database was created with ${historyShardCount} history shards, the configuration ` +
          `asks for ${HISTORY_SHARDS}: the count cannot change for a database (docs/operations.md, "History shards").`,
      );
    }
  } finally {
    await connection.close();
  }
}

/**
 * The server binds a gRPC and a membership port per service, and binds them again on a restart.
 * Every port is taken below 32768: membership ports are stored in a SMALLINT column, and above that
 * begins the range the OS hands out for outgoing connections, which reconnecting clients could take
 * during a restart.
 */
async function serverPorts(
  frontendPort: number | undefined,
  metricsPort: number | undefined,
  reserved: number[],
) {
  const freeLowPort = () => freeLowPortAvoiding(reserved);
  return {
    TEMPORAL_FRONTEND_GRPC_PORT: frontendPort ?? (await freeLowPort()),
    TEMPORAL_FRONTEND_HTTP_PORT: await freeLowPort(),
    TEMPORAL_HISTORY_GRPC_PORT: await freeLowPort(),
    TEMPORAL_MATCHING_GRPC_PORT: await freeLowPort(),
    TEMPORAL_WORKER_GRPC_PORT: await freeLowPort(),
    TEMPORAL_FRONTEND_MEMBERSHIP_PORT: await freeLowPort(),
    TEMPORAL_HISTORY_MEMBERSHIP_PORT: await freeLowPort(),
    TEMPORAL_MATCHING_MEMBERSHIP_PORT: await freeLowPort(),
    TEMPORAL_WORKER_MEMBERSHIP_PORT: await freeLowPort(),
    metrics: metricsPort ?? (await freeLowPort()),
  };
}

const takenLowPorts = new Set<number>();

async function freeLowPortAvoiding(reserved: number[]): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    if (takenLowPorts.has(candidate) || reserved.includes(candidate) || !(await isPortFree(candidate)))
      continue;
    takenLowPorts.add(candidate);
    return candidate;
  }
  throw new Error('No free port between 20000 and 32000 for the Temporal server');
}

function spawnLogged(binary: string, args: string[], env: NodeJS.ProcessEnv, log: WriteStream): ChildProcess {
  const child = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  // A binary that cannot be run (ENOENT, EACCES) is reported by the start-up wait, not thrown here.
  child.once('error', (error) => (spawnErrors.set(child, error), undefined));
  return child;
}

const spawnErrors = new WeakMap<ChildProcess, Error>();

/**
 * A process can still flush output after it exited and its log was ended; those last lines are
 * dropped rather than crashing the launcher with a write-after-end error.
 */
function openLog(file: string): WriteStream {
  const log = createWriteStream(file, { flags: 'a' });
  log.on('error', () => undefined);
  return log;
}

/** Why the process is no longer there, or undefined while it runs. */
function endedBecause(child: ChildProcess): string | undefined {
  const spawnError = spawnErrors.get(child);
  if (spawnError) return `could not run (${spawnError.message})`;
  if (child.exitCode !== null) return `exited (${child.exitCode})`;
  if (child.signalCode !== null) return `was killed (${child.signalCode})`;
  return undefined;
}

async function waitForFrontend(child: ChildProcess, address: string, timeoutMs: number, logPath: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ended = endedBecause(child);
    if (ended) throw new Error(`The Temporal server ${ended} during start-up; see ${logPath}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`The Temporal server did not answer on ${address} within ${timeoutMs} ms; see ${logPath}`);
}

async function ensureCasesNamespace(address: string, timeoutMs: number): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    try {
      await connection.workflowService.describeNamespace({ namespace: CASES_NAMESPACE });
    } catch (error) {
      if ((error as { code?: number }).code !== 5) throw error;
      await connection.workflowService.registerNamespace({
        namespace: CASES_NAMESPACE,
        description: 'Cases of the healthcare access API',
        workflowExecutionRetentionPeriod: msToTs(`${CASES_NAMESPACE_RETENTION_DAYS} days`),
      });
    }
  } finally {
    await connection.close();
  }
  await waitForNamespace(address, timeoutMs);
}

const EVERY_SEARCH_ATTRIBUTE_QUERY = Object.keys(CUSTOM_SEARCH_ATTRIBUTES)
  .map((name) => `${name} = 'readiness-probe'`)
  .join(' AND ');

/**
 * A new namespace reaches the frontend's cache some seconds after registration, search attributes
 * can only be added once it has, and the frontend maps them some seconds after they were added; all
 * are retried until they hold.
 */
async function waitForNamespace(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connection = await Connection.connect({ address });
  try {
    for (;;) {
      try {
        await addMissingSearchAttributes(connection, CASES_NAMESPACE);
        // A query naming every attribute is refused until the frontend maps them all, as a start
        // that sets them would be: ready means a case could start now.
        await connection.workflowService.listWorkflowExecutions({
          namespace: CASES_NAMESPACE,
          pageSize: 1,
          query: EVERY_SEARCH_ATTRIBUTE_QUERY,
        });
        return;
      } catch (error) {
        if (error instanceof MistypedSearchAttributesError || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  } finally {
    await connection.close();
  }
}

async function startTemporalWeb(
  options: ProductionTemporalOptions,
  address: string,
  onSpawned: (child: ChildProcess) => void,
): Promise<ChildProcess> {
  const ui = options.ui!;
  const log = openLog(path.join(options.workDir, 'temporal-web.log'));
  const child = spawnLogged(
    options.binaries.uiServer,
    [
      '--root',
      '/',
      '--config',
      TEMPORAL_UI_CONFIG_DIR.slice(1),
      '--env',
      TEMPORAL_CONFIG_ENVIRONMENT,
      'start',
    ],
    {
      ...minimalEnvironment(),
      TEMPORAL_ADDRESS: address,
      TEMPORAL_UI_PORT: String(ui.port),
      TEMPORAL_DEFAULT_NAMESPACE: CASES_NAMESPACE,
      TEMPORAL_CODEC_ENDPOINT: ui.codecEndpoint ?? '',
      TEMPORAL_CORS_ORIGINS: (ui.corsOrigins ?? [`http://localhost:${ui.port}`]).join(','),
      // Served over plain HTTP on this machine; behind TLS the cookie keeps its Secure flag.
      TEMPORAL_CSRF_COOKIE_INSECURE: 'true',
    },
    log,
  );
  onSpawned(child);
  child.once('close', () => log.end());
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    const ended = endedBecause(child);
    if (ended) throw new Error(`Temporal Web ${ended} during start-up`);
    try {
      const response = await fetch(`http://127.0.0.1:${ui.port}/api/v1/settings`);
      if (response.ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stopChild(child);
  throw new Error(`Temporal Web did not answer on port ${ui.port}`);
}

/** The server finishes its shard handoffs on SIGTERM; on a loaded machine that takes some seconds. */
function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return stopProcess(child, signal, 20_000);
}
