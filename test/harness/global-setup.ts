import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startDevServerOnFreePorts } from '../../infrastructure/temporal/dev-server';
import { bundleProductionWorkflows } from '../../src/worker/worker';
import { writeMigratedDump } from '../support/migrated-database';
import { onServer } from './database-server';
import { databaseOfWorker, ENVIRONMENT_FILE, namespaceOfWorker, TestEnvironmentInfo } from './environment';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureTemporalCli } = require('../../scripts/ensure-temporal.js') as {
  ensureTemporalCli(): Promise<string>;
};

/**
 * What every suite of a run shares, made once: one real Temporal dev server (a namespace per jest
 * worker, on free ports, with a throwaway SQLite file), the production workflows bundled once, a
 * migrated PGlite database dumped once for the suites' in-memory databases, and, when CI names a
 * PostgreSQL server, an empty database per jest worker.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  const workers = Array.from({ length: Math.max(globalConfig.maxWorkers, 1) }, (_, index) => index + 1);
  const runId = randomBytes(4).toString('hex');
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-test-'));
  const workflowBundlePath = path.join(workDir, 'workflow-bundle.js');
  const [binary] = await Promise.all([
    ensureTemporalCli(),
    bundleProductionWorkflows().then((code) => writeFileSync(workflowBundlePath, code)),
    writeMigratedDump(workDir),
  ]);
  const dbFile = path.join(workDir, 'temporal.db');
  const [server] = await Promise.all([
    startDevServerOnFreePorts({
      binary,
      dbFile,
      namespace: 'default',
      moreNamespaces: workers.map(namespaceOfWorker),
      logFile: path.join(workDir, 'temporal-server.log'),
      readyTimeoutMs: 120_000,
    }),
    createWorkerDatabases(process.env.TEST_DATABASE_URL, runId, workers),
  ]);
  const info: TestEnvironmentInfo = {
    temporalAddress: server.address,
    temporalDbFile: dbFile,
    temporalBinary: binary,
    workDir,
    workflowBundlePath,
    runId,
    workers: workers.length,
    ...(process.env.TEST_DATABASE_URL && { sharedDatabaseUrl: process.env.TEST_DATABASE_URL }),
  };
  writeFileSync(ENVIRONMENT_FILE, JSON.stringify(info));
  process.env.HAA_TEST_ENVIRONMENT_FILE = ENVIRONMENT_FILE;
  (globalThis as { __temporalDevServer?: typeof server }).__temporalDevServer = server;
}

/** A fresh, empty database per jest worker on the server CI started; suites migrate it as they do today. */
async function createWorkerDatabases(serverUrl: string | undefined, runId: string, workers: number[]) {
  await onServer(serverUrl, async (client) => {
    for (const worker of workers) await client.query(`CREATE DATABASE ${databaseOfWorker(runId, worker)}`);
  });
}
