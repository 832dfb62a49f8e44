import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client } from '@temporalio/client';
import { Client as PgClient } from 'pg';

import { loadConfig } from '../infrastructure/config/config';
import { projectRoot } from '../infrastructure/project-root';
import { freePortRun } from '../infrastructure/temporal/dev-server';
import { CASES_NAMESPACE } from '../infrastructure/temporal/production-server';
import { CLUSTER_PORTS, clusterPortSettings, portPlan } from '../src/local/cluster-ports';
import { processTreeMemory, stopProcess } from './process-tree';
import {
  BenchStack,
  benchApiKey,
  benchEnvironment,
  roundRobinApi,
  stackClient,
  waitForOutput,
} from './stack';

export interface ClusterStack extends BenchStack {
  /** Client connections open on the cluster's PostgreSQL now, by database. */
  databaseConnections(): Promise<Map<string, number>>;
  /**
   * Asks the launcher to restart the Temporal server (SIGUSR2), as a deploy of the server would, and
   * resolves once the server has gone and answers again.
   */
  restartTemporal(): Promise<void>;
}

/**
 * `npm run start:cluster` (PostgreSQL, the production Temporal server and Temporal Web, two APIs and
 * two workers) on free ports, a throwaway data folder and a rate limit out of the way. Requests go
 * to the two APIs in turn.
 */
export async function startClusterStack(): Promise<ClusterStack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-bench-cluster-'));
  // As root, PostgreSQL runs as its own user, who must be able to reach its folder inside this one.
  chmodSync(dataDir, 0o755);
  const apiKey = benchApiKey();
  const ports = clusterPortSettings(await freePortRun(CLUSTER_PORTS));
  // The launcher's own plan for these settings names each process's metrics port.
  const plan = portPlan(loadConfig('local', { ...ports }));
  const launcher = spawn(process.execPath, [path.join(projectRoot(), 'dist', 'src', 'main.cluster.js')], {
    env: {
      ...benchEnvironment(dataDir, apiKey),
      ...ports,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const banner = await waitForOutput(launcher, 'Press Ctrl-C to stop everything', 'the cluster launcher');
  const apiUrls = [...banner.matchAll(/^ {2}API \(api-\d+\):\s+(\S+)/gm)].map((match) => match[1]!);
  const clusterDir = path.join(dataDir, 'cluster');
  const { client, connection } = await stackClient(
    bannerValue(banner, 'Temporal'),
    CASES_NAMESPACE,
    clusterDir,
  );
  // The banner hides a password; a server named by DATABASE_URL is reached with the URL itself.
  const databaseUrl = process.env.DATABASE_URL ?? bannerValue(banner, 'PostgreSQL');
  const postmasterPidFile = path.join(clusterDir, 'postgres', 'data', 'postmaster.pid');
  // PostgreSQL detaches from the launcher (pg_ctl), so its processes are found from its pid file.
  const postmaster = existsSync(postmasterPidFile)
    ? [{ pid: Number(readFileSync(postmasterPidFile, 'utf8').split('\n')[0]), label: 'postgres' }]
    : [];
  return {
    api: roundRobinApi(apiUrls, apiKey),
    temporal: client,
    namespace: CASES_NAMESPACE,
    processMemory: () => processTreeMemory([{ pid: launcher.pid!, label: 'launcher' }, ...postmaster]),
    metricsUrls: [
      ...plan.apiMetrics.map((port, index) => ({ name: `api-${index + 1}`, port })),
      ...plan.workerMetrics.map((port, index) => ({ name: `worker-${index + 1}`, port })),
    ].map(({ name, port }) => ({ name, url: `http://127.0.0.1:${port}/metrics` })),
    async storedBytes() {
      const rows = await onDatabase(databaseUrl, (pg) =>
        pg.query<{ database: string; bytes: string }>(
          `SELECT datname AS database, pg_database_size(datname)::text AS bytes FROM pg_database
            WHERE NOT datistemplate AND datname <> 'postgres' ORDER BY datname`,
        ),
      );
      return rows.rows.map((row) => ({ store: `PostgreSQL ${row.database}`, bytes: Number(row.bytes) }));
    },
    async databaseConnections() {
      const { rows } = await onDatabase(databaseUrl, (pg) =>
        pg.query<{ database: string; connections: string }>(
          `SELECT datname AS database, count(*) AS connections FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY datname ORDER BY datname`,
        ),
      );
      return new Map(rows.map((row) => [row.database, Number(row.connections)]));
    },
    async restartTemporal() {
      const [server] = processTreeMemory([{ pid: launcher.pid!, label: 'launcher' }]).filter(
        (process) => process.label === 'temporal',
      );
      launcher.kill('SIGUSR2');
      if (server) await until(() => !isRunning(server.pid));
      await until(() => frontendAnswers(client));
    },
    async stop({ keepData = false } = {}) {
      await connection.close();
      await stopProcess(launcher);
      if (keepData) console.log(`  data folder kept for tracing: ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `condition` every 200 ms until it holds; two minutes at most. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !(await condition())) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function frontendAnswers(client: Client): Promise<boolean> {
  return client.connection
    .withDeadline(Date.now() + 1_000, () => client.workflowService.getSystemInfo({}))
    .then(
      () => true,
      () => false,
    );
}

async function onDatabase<T>(databaseUrl: string, work: (pg: PgClient) => Promise<T>): Promise<T> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    return await work(pg);
  } finally {
    await pg.end();
  }
}

function bannerValue(banner: string, label: string): string {
  const match = new RegExp(`^ {2}${label}:\\s+(\\S+)`, 'm').exec(banner);
  if (!match) throw new Error(`The cluster launcher's banner has no "${label}" line`);
  return match[1]!;
}
