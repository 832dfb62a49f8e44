import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { Client } from '@temporalio/client';

import { createApp } from './app/create-app';
import {
  ensureDevAccount,
  installTemporalRuntime,
  localEncryption,
  localPatientRefKey,
  openStorage,
} from './bootstrap';
import { loadConfig } from './config/config';
import { projectRoot } from './config/project-root';
import { createLogger } from './common/logger';
import { DevServer, startDevServer } from './temporal/dev-server';
import {
  connectClient,
  connectWorkerConnection,
  registerSearchAttributes,
} from './temporal/temporal-connection';
import { createWorker } from './worker/worker';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureTemporalCli } = require(path.join(projectRoot(), 'scripts', 'ensure-temporal.js')) as {
  ensureTemporalCli(log?: (line: string) => void): Promise<string>;
};

/**
 * Local mode: the Temporal dev server (unless TEMPORAL_ADDRESS names a cluster), one worker and the
 * API in this process, with everything persisted under DATA_DIR so a restart keeps every case.
 */
async function main(): Promise<void> {
  const config = loadConfig('local');
  const logger = createLogger(config.logLevel, { process: 'local' });
  const encryption = localEncryption(config);
  const runtimeConfig = {
    ...config,
    encryption,
    cases: { ...config.cases, patientRefKey: localPatientRefKey(config) },
  };
  const releaseLock = acquireDataDirLock(config.dataDir);
  const cleanups: Array<() => Promise<unknown>> = [async () => releaseLock()];

  const shutdown = async (exitCode: number) => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    process.exit(exitCode);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));

  try {
    let devServer: DevServer | undefined;
    if (!process.env.TEMPORAL_ADDRESS) {
      const binary = await ensureTemporalCli((line) => process.stderr.write(`${line}\n`));
      devServer = await startDevServer({
        binary,
        port: config.localTemporal.port,
        ui: {
          port: config.localTemporal.uiPort,
          codecEndpoint: `http://localhost:${config.http.port}/codec`,
        },
        dbFile: path.join(config.dataDir, 'temporal.db'),
        namespace: config.temporal.namespace,
        logFile: path.join(config.dataDir, 'temporal-server.log'),
      });
      cleanups.push(() => devServer!.stop());
    }

    const db = await openStorage(runtimeConfig, logger);
    cleanups.push(() => db.close());
    const devAccount = await ensureDevAccount(db, runtimeConfig);

    installTemporalRuntime(logger);
    const temporalClient: Client = await connectClient(runtimeConfig.temporal, encryption);
    cleanups.push(() => temporalClient.connection.close());
    if (!devServer) await registerSearchAttributes(temporalClient, logger);

    const workerConnection = await connectWorkerConnection(runtimeConfig.temporal);
    cleanups.push(() => workerConnection.close());
    const worker = await createWorker({
      config: runtimeConfig,
      connection: workerConnection,
      db,
      temporalClient,
      logger,
    });
    const workerRun = worker.run();
    cleanups.push(async () => {
      // The Temporal runtime may already be stopping the worker on the same signal.
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await workerRun;
    });

    const app = await createApp({ config: runtimeConfig, db, temporalClient, logger });
    cleanups.push(() => app.close());
    await app.listen(config.http.port, config.http.host);

    printBanner({
      apiUrl: `http://localhost:${config.http.port}`,
      temporalWebUrl: devServer?.uiUrl ?? `(external cluster at ${config.temporal.address})`,
      apiKey: devAccount.apiKey,
      dataDir: config.dataDir,
    });
    workerRun.catch((error) => {
      logger.error(
        { err_name: (error as Error).name, stack: (error as Error).stack },
        'worker stopped unexpectedly',
      );
      void shutdown(1);
    });
  } catch (error) {
    logger.fatal(
      { err_name: (error as Error).name, message: (error as Error).message },
      'local start failed',
    );
    await shutdown(1);
  }
}

/** PGlite and the SQLite file allow one process at a time; a second start would corrupt them. */
function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'local.pid');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (pid && isAlive(pid)) {
      throw new Error(`The local service is already running (pid ${pid}) on ${dataDir}; stop it first.`);
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function printBanner(info: {
  apiUrl: string;
  temporalWebUrl: string;
  apiKey: string;
  dataDir: string;
}): void {
  process.stdout.write(
    [
      '',
      'Healthcare Access API is running (local mode)',
      `  API:           ${info.apiUrl}   (docs: ${info.apiUrl}/docs)`,
      `  Temporal Web:  ${info.temporalWebUrl}`,
      `  Dev API key:   ${info.apiKey}`,
      `  Data folder:   ${info.dataDir}`,
      '',
      `  Try: curl -H "Authorization: Bearer ${info.apiKey}" ${info.apiUrl}/status`,
      '  Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
