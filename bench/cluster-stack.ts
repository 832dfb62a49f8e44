import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client as PgClient } from 'pg';

import { projectRoot } from '../infrastructure/project-root';
import { freePort } from '../infrastructure/temporal/dev-server';
import { CASES_NAMESPACE } from '../infrastructure/temporal/production-server';
import { processTreeMemory, stopProcess } from './process-tree';
import {
  BenchStack,
  benchApiKey,
  benchEnvironment,
  freePortRun,
  roundRobinApi,
  stackClient,
  waitForOutput,
} from './stack';

export interface ClusterStack extends BenchStack {
  /** Client connections open on the cluster's PostgreSQL now, by database. */
  databaseConnections(): Promise<Map<string, number>>;
}

/** The launcher starts this many APIs and workers, and numbers one metrics port per process and Temporal. */
const API_PROCESSES = 2;
const METRICS_PORTS = 5;

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
  const launcher = spawn(process.execPath, [path.join(projectRoot(), 'dist', 'src', 'main.cluster.js')], {
    env: {
      ...benchEnvironment(dataDir, apiKey),
      PORT: String(await freePortRun(API_PROCESSES)),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      METRICS_PORT: String(await freePortRun(METRICS_PORTS)),
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
    async databaseConnections() {
      const pg = new PgClient({ connectionString: databaseUrl });
      await pg.connect();
      try {
        const { rows } = await pg.query<{ database: string; connections: string }>(
          `SELECT datname AS database, count(*) AS connections FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY datname ORDER BY datname`,
        );
        return new Map(rows.map((row) => [row.database, Number(row.connections)]));
      } finally {
        await pg.end();
      }
    },
    async stop() {
      await connection.close();
      await stopProcess(launcher);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function bannerValue(banner: string, label: string): string {
  const match = new RegExp(`^ {2}${label}:\\s+(\\S+)`, 'm').exec(banner);
  if (!match) throw new Error(`The cluster launcher's banner has no "${label}" line`);
  return match[1]!;
}
