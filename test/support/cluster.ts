import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client as PgClient } from 'pg';

import { projectRoot } from '../../infrastructure/project-root';
import { PostgresServer } from '../../infrastructure/storage/postgres-server';
import { freePort } from '../../infrastructure/temporal/dev-server';
import {
  CASES_NAMESPACE,
  postgresEndpoint,
  ProductionTemporal,
  startProductionTemporal,
  TemporalBinaries,
} from '../../infrastructure/temporal/production-server';
import { RunningProcess, runCommand, startProcess } from './processes';
import { randomEncryptionKeys } from './test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureTemporalCluster } = require(path.join(projectRoot(), 'scripts', 'ensure-temporal.js')) as {
  ensureTemporalCluster: () => Promise<TemporalBinaries>;
};

const APP_DATABASE = 'healthcare_access';

/** The server, schema tool and Temporal Web binaries: cached, named by environment, or built with Go. */
export function temporalClusterBinaries(): Promise<TemporalBinaries> {
  return ensureTemporalCluster();
}

export interface ApiKeys {
  provider: string;
  reviewer: string;
}

export interface Cluster {
  /** Base URLs of the two API processes, e.g. http://127.0.0.1:PORT. */
  apiUrls: [string, string];
  keys: ApiKeys;
  /** A new key of the cluster's account, through the admin CLI as an operator would create one. */
  createKey(role: 'provider' | 'reviewer' | 'admin'): string;
  /** One more API process on the same database and Temporal namespace, with extra environment. */
  startApi(env: Record<string, string>): Promise<string>;
  killWorker(index: 0 | 1, signal: NodeJS.Signals): Promise<void>;
  startWorker(index: 0 | 1): Promise<void>;
  /** Stops the Temporal server and starts it again on the same ports and databases. */
  restartTemporal(): Promise<void>;
  /** Every process's output, labelled, for failure messages. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * The scale shape on one machine: its own PostgreSQL (the database other tests share stays untouched),
 * the production Temporal server on it, and two API and two worker processes in production mode on
 * one task queue, as operators run them.
 */
export async function startCluster(
  prerequisites: { binDir: string; binaries: TemporalBinaries },
  env: Record<string, string> = {},
): Promise<Cluster> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-cluster-'));
  const postgres = await PostgresServer.create(prerequisites.binDir);
  const processes = new Map<string, RunningProcess>();
  const apiUrls: string[] = [];
  let temporal: ProductionTemporal | undefined;

  const stop = async () => {
    await Promise.all([...processes.values()].map((running) => running.stop('SIGTERM')));
    await temporal?.stop();
    postgres.destroy();
    rmSync(workDir, { recursive: true, force: true });
  };

  try {
    await createDatabase(postgres.databaseUrl, APP_DATABASE);
    temporal = await startProductionTemporal({
      binaries: prerequisites.binaries,
      postgres: postgresEndpoint(postgres.databaseUrl),
      workDir,
    });
    const sharedEnv: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: CASES_NAMESPACE,
      TEMPORAL_TASK_QUEUE: `cluster-${randomUUID()}`,
      DATABASE_URL: postgres.databaseUrl.replace(/\/postgres$/, `/${APP_DATABASE}`),
      PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
      PATIENT_REF_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.0/8',
      LOG_LEVEL: 'info',
      ...env,
    };

    const admin = (args: string[]) => {
      const result = runCommand('admin/cli.js', args, sharedEnv);
      if (result.status !== 0) throw new Error(`admin ${args[0]} failed:\n${result.stderr}`);
      return JSON.parse(result.stdout);
    };
    const account = admin(['accounts:create', '--name', 'Cluster clinic']);
    const createKey = (role: string): string =>
      admin(['keys:create', '--account', account.id, '--role', role]).secret;
    const keys = { provider: createKey('provider'), reviewer: createKey('reviewer') };

    let apisStarted = 0;
    const startApi = async (extra: Record<string, string>) => {
      const label = `api-${apisStarted++}`;
      const port = await freePort();
      const api = startProcess('main.api.js', { ...sharedEnv, ...extra, PORT: String(port) });
      processes.set(label, api);
      await api.waitForOutput(/API listening/);
      return `http://127.0.0.1:${port}`;
    };
    const startWorker = async (index: 0 | 1) => {
      const worker = startProcess('main.worker.js', sharedEnv);
      processes.set(`worker-${index}`, worker);
      await worker.waitForOutput(/starting worker/);
    };

    await Promise.all([startWorker(0), startWorker(1)]);
    apiUrls.push(...(await Promise.all([startApi({}), startApi({})])));

    const running = temporal;
    return {
      apiUrls: apiUrls as [string, string],
      keys,
      createKey,
      startApi,
      async killWorker(index, signal) {
        const worker = processes.get(`worker-${index}`);
        if (!worker || worker.child.exitCode !== null || worker.child.signalCode !== null) {
          throw new Error(`worker-${index} was not running, so killing it would test nothing`);
        }
        await worker.stop(signal);
      },
      startWorker,
      restartTemporal: () => running.restart(),
      logs: () => clusterLogs(processes, workDir),
      stop,
    };
  } catch (error) {
    const logs = clusterLogs(processes, workDir);
    await stop();
    throw new Error(`The cluster did not start: ${(error as Error).message}\n${logs}`);
  }
}

async function createDatabase(databaseUrl: string, database: string): Promise<void> {
  const client = new PgClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${database}`);
  } finally {
    await client.end();
  }
}

/** The tail of each process's output: enough to see why a case stalled, short enough to read. */
function clusterLogs(processes: Map<string, RunningProcess>, workDir: string): string {
  const tail = (text: string) => text.split('\n').slice(-15).join('\n');
  const sections = [...processes].map(([label, running]) => `--- ${label}\n${tail(running.output())}`);
  try {
    sections.push(
      `--- temporal-server\n${tail(readFileSync(path.join(workDir, 'temporal-server.log'), 'utf8'))}`,
    );
  } catch {
    // The server never started, so it wrote no log.
  }
  return sections.join('\n');
}
