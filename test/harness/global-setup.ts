import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startDevServerOnFreePorts } from '../../infrastructure/temporal/dev-server';
import { ENVIRONMENT_FILE, TestEnvironmentInfo } from './environment';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureTemporalCli } = require('../../scripts/ensure-temporal.js') as {
  ensureTemporalCli(): Promise<string>;
};

/** One real Temporal dev server per test run, on free ports with a throwaway SQLite file. */
export default async function globalSetup(): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-test-'));
  const binary = await ensureTemporalCli();
  const namespace = 'default';
  const dbFile = path.join(workDir, 'temporal.db');
  const server = await startDevServerOnFreePorts({
    binary,
    dbFile,
    namespace,
    logFile: path.join(workDir, 'temporal-server.log'),
    readyTimeoutMs: 120_000,
  });
  const info: TestEnvironmentInfo = {
    temporalAddress: server.address,
    namespace,
    temporalDbFile: dbFile,
    temporalBinary: binary,
    workDir,
  };
  writeFileSync(ENVIRONMENT_FILE, JSON.stringify(info));
  process.env.HAA_TEST_ENVIRONMENT_FILE = ENVIRONMENT_FILE;
  (globalThis as { __temporalDevServer?: typeof server }).__temporalDevServer = server;
}
