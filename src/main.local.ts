import * as path from 'node:path';

import { projectRoot } from '../infrastructure/project-root';
import { loadConfig } from '../infrastructure/config/config';
import { PgliteServer } from '../infrastructure/storage/pglite-server';
import { DevServer, startDevServer } from '../infrastructure/temporal/dev-server';
import { ensureDevCredentials, localRuntimeConfig, openEmbeddedStorage, openStorage } from './bootstrap';
import { createLogger } from './common/logger';
import { ChildProcesses } from './local/child-processes';
import { acquireDataFolder, servedDatabaseDir } from './local/data-folder';
import { LauncherShutdown } from './local/launcher-shutdown';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureTemporalCli } = require(path.join(projectRoot(), 'scripts', 'ensure-temporal.js')) as {
  ensureTemporalCli(log?: (line: string) => void): Promise<string>;
};

/**
 * Local mode's launcher: holds the data folder, runs the Temporal dev server (unless
 * TEMPORAL_ADDRESS names a cluster), owns the embedded database and serves it on a Unix socket,
 * and supervises the API and the worker as two separate processes. Everything is persisted under
 * DATA_DIR, so a restart keeps every case.
 */
async function main(): Promise<void> {
  const config = loadConfig('local');
  const logger = createLogger(config.logLevel, { process: 'local' });
  const releaseDataFolder = acquireDataFolder(config.dataDir, 'local');
  const runtimeConfig = localRuntimeConfig(config);
  const shutdown = new LauncherShutdown();
  shutdown.add(releaseDataFolder);

  try {
    // The launcher uses the database in-process only here, before any other process can connect.
    let databaseUrl = config.databaseUrl;
    let devAccount: Awaited<ReturnType<typeof ensureDevCredentials>>;
    if (databaseUrl) {
      const db = await openStorage(runtimeConfig, logger);
      devAccount = await ensureDevCredentials(db, runtimeConfig).finally(() => db.close());
    } else {
      const { db, pglite } = await openEmbeddedStorage(runtimeConfig, logger);
      shutdown.add(() => db.close());
      devAccount = await ensureDevCredentials(db, runtimeConfig);
      const server = await PgliteServer.listen(pglite, servedDatabaseDir(config.dataDir));
      shutdown.add(() => server.close());
      databaseUrl = server.databaseUrl;
    }

    // Each child serves its metrics on a port of its own: the worker on METRICS_PORT, the API on the next.
    const metricsPort = config.metrics.port;
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
        reservedPorts: [config.http.port, ...(metricsPort ? [metricsPort, metricsPort + 1] : [])],
      });
      shutdown.add(() => devServer!.stop());
    }

    const children = new ChildProcesses({
      env: { ...process.env, DATABASE_URL: databaseUrl },
      logger,
      onGiveUp: () => void shutdown.exit(1),
    });
    shutdown.add(() => children.stop());
    const [apiPid, workerPid] = await Promise.all([
      children.start({
        name: 'api',
        entry: path.join(__dirname, 'main.local-api.js'),
        env: metricsPort ? { METRICS_PORT: String(metricsPort + 1) } : {},
      }),
      children.start({ name: 'worker', entry: path.join(__dirname, 'main.local-worker.js') }),
    ]);

    printBanner({
      apiUrl: `http://localhost:${config.http.port}`,
      temporalWebUrl: devServer?.uiUrl ?? `(external cluster at ${config.temporal.address})`,
      apiKey: devAccount.apiKey,
      consoleUser: devAccount.consoleUser,
      dataDir: config.dataDir,
      pids: { launcher: process.pid, api: apiPid, worker: workerPid },
    });
  } catch (error) {
    logger.fatal(
      { err_name: (error as Error).name, message: (error as Error).message },
      'local start failed',
    );
    await shutdown.exit(1);
  }
}

function printBanner(info: {
  apiUrl: string;
  temporalWebUrl: string;
  apiKey: string;
  consoleUser: { email: string; password: string };
  dataDir: string;
  pids: { launcher: number; api: number; worker: number };
}): void {
  process.stdout.write(
    [
      '',
      'Healthcare Access API is running (local mode)',
      `  API:           ${info.apiUrl}   (docs: ${info.apiUrl}/docs)`,
      `  Temporal Web:  ${info.temporalWebUrl}`,
      `  Console:       ${info.apiUrl}/console  (sign in: ${info.consoleUser.email} / ${info.consoleUser.password}; code: npm run admin -- dev:totp-code)`,
      `  Dev API key:   ${info.apiKey}`,
      `  Data folder:   ${info.dataDir}`,
      `  Processes:     launcher ${info.pids.launcher}, api ${info.pids.api}, worker ${info.pids.worker}`,
      '',
      `  Try: curl -H "Authorization: Bearer ${info.apiKey}" ${info.apiUrl}/status`,
      '  Admin CLI:     npm run admin -- --help   (works while this runs)',
      '  Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
