import * as path from 'node:path';

import type { Logger } from 'pino';

import { projectRoot } from '../infrastructure/project-root';
import { AppConfig, loadConfig } from '../infrastructure/config/config';
import {
  ensureApplicationDatabase,
  postgresBinDir,
  PostgresServer,
} from '../infrastructure/storage/postgres-server';
import {
  CASES_NAMESPACE,
  postgresEndpoint,
  ProductionTemporal,
  startProductionTemporal,
  TemporalBinaries,
} from '../infrastructure/temporal/production-server';
import { ensureDevCredentials, localRuntimeConfig, openStorage } from './bootstrap';
import { createLogger } from './common/logger';
import { ChildProcesses } from './local/child-processes';
import { PortPlan, portPlan } from './local/cluster-ports';
import { acquireDataFolder } from './local/data-folder';
import { LauncherShutdown } from './local/launcher-shutdown';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureTemporalCluster } = require(path.join(projectRoot(), 'scripts', 'ensure-temporal.js')) as {
  ensureTemporalCluster(log?: (line: string) => void): Promise<TemporalBinaries>;
};

/**
 * The scale shape on one machine, without Docker: PostgreSQL (DATABASE_URL's server, or one this
 * launcher runs from Debian's packages with its files in DATA_DIR/cluster), the production Temporal
 * server with the repo's configuration and Temporal Web, then two API and two worker processes.
 * The processes run with the development credentials, as `npm start` does, so the printed key and
 * console user work; Ctrl-C stops everything, and SIGUSR2 restarts the Temporal server on the same
 * ports and databases, as a deploy of the server would (the APIs and workers ride through it).
 */
async function main(): Promise<void> {
  const baseConfig = loadConfig('local');
  const dataDir = path.join(baseConfig.dataDir, 'cluster');
  const config = localRuntimeConfig({ ...baseConfig, dataDir });
  const logger = createLogger(config.logLevel, { process: 'cluster' });
  const releaseDataFolder = acquireDataFolder(dataDir, 'local');
  const shutdown = new LauncherShutdown('Stopping the APIs, the workers, Temporal and PostgreSQL...');
  shutdown.add(releaseDataFolder);

  try {
    const ports = portPlan(config);
    const binaries = await ensureTemporalCluster((line) => process.stderr.write(`${line}\n`));
    const postgres = await postgresServerFor(config, dataDir);
    if (postgres.stop) shutdown.add(postgres.stop);
    const databaseUrl = await ensureApplicationDatabase(postgres.url);

    const temporal = await startProductionTemporal({
      binaries,
      postgres: postgresEndpoint(postgres.url),
      workDir: dataDir,
      frontendPort: config.localTemporal.port,
      metricsPort: ports.temporalMetrics,
      reservedPorts: [...ports.apis, ...ports.apiMetrics, ...ports.workerMetrics],
      ui: {
        port: config.localTemporal.uiPort,
        codecEndpoint: `http://localhost:${config.http.port}/codec`,
      },
      onSpawned: (stop) => (shutdown.stopping ? void stop() : shutdown.add(stop)),
    });
    restartTemporalOnSignal(temporal, logger, shutdown);

    const runtimeConfig = { ...config, databaseUrl };
    const db = await openStorage(runtimeConfig, logger);
    const devCredentials = await ensureDevCredentials(db, runtimeConfig).finally(() => db.close());

    const children = new ChildProcesses({
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_NAMESPACE: CASES_NAMESPACE,
        TEMPORAL_WEB_URL: temporal.uiUrl,
        // Metrics take no API key and count every account's cases: loopback unless the operator says.
        METRICS_HOST: process.env.METRICS_HOST ?? '127.0.0.1',
      },
      logger,
      onGiveUp: () => void shutdown.exit(1),
    });
    shutdown.add(() => children.stop());
    const processes = clusterProcesses(ports);
    const pids = await Promise.all(
      processes.map(async (spec) => ({ ...spec, pid: await children.start(spec) })),
    );

    printBanner(temporal, databaseUrl, devCredentials, dataDir, pids);
  } catch (error) {
    logger.fatal(
      { err_name: (error as Error).name, message: (error as Error).message },
      'cluster start failed',
    );
    await shutdown.exit(1);
  }
}

interface ClusterProcess {
  name: string;
  entry: string;
  env: Record<string, string>;
  apiUrl?: string;
  metricsUrl: string;
}

/**
 * SIGUSR2 restarts the Temporal server, one restart at a time (another SIGUSR2 meanwhile asks for the
 * same thing). Not SIGHUP: a closed terminal sends that, and it should stop the launcher, not this.
 * A server that does not come back leaves nothing to serve the cases, so the launcher stops.
 */
function restartTemporalOnSignal(
  temporal: ProductionTemporal,
  logger: Logger,
  shutdown: LauncherShutdown,
): void {
  let restarting = false;
  process.on('SIGUSR2', () => {
    if (restarting || shutdown.stopping) return;
    restarting = true;
    logger.warn('SIGUSR2: restarting the Temporal server');
    temporal
      .restart()
      .then(
        () => logger.warn('the Temporal server restarted'),
        (error: Error) => {
          logger.fatal(
            { err_name: error.name, message: error.message },
            'the Temporal server did not restart',
          );
          return shutdown.exit(1);
        },
      )
      .finally(() => (restarting = false));
  });
}

/** The APIs, then the workers, each with its ports. */
function clusterProcesses(ports: PortPlan): ClusterProcess[] {
  const processes: ClusterProcess[] = ports.apis.map((port, index) => ({
    name: `api-${index + 1}`,
    entry: path.join(__dirname, 'main.local-api.js'),
    env: { PORT: String(port), METRICS_PORT: String(ports.apiMetrics[index]) },
    apiUrl: `http://localhost:${port}`,
    metricsUrl: `http://127.0.0.1:${ports.apiMetrics[index]}/metrics`,
  }));
  for (const [index, metricsPort] of ports.workerMetrics.entries()) {
    processes.push({
      name: `worker-${index + 1}`,
      entry: path.join(__dirname, 'main.local-worker.js'),
      env: { METRICS_PORT: String(metricsPort) },
      metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    });
  }
  return processes;
}

/** DATABASE_URL's server when given; otherwise one of our own, kept in the data folder across starts. */
async function postgresServerFor(
  config: AppConfig,
  dataDir: string,
): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const binDir = postgresBinDir();
  if (!binDir) {
    throw new Error(
      'PostgreSQL is not installed: install the `postgresql` package, or name a server with ' +
        'DATABASE_URL=postgres://user:password@host:5432/database (the role needs CREATEDB for Temporal).',
    );
  }
  const server = await PostgresServer.create(binDir, {
    folder: path.join(dataDir, 'postgres'),
    durable: true,
  });
  return { url: server.databaseUrl, stop: async () => server.stop() };
}

function printBanner(
  temporal: ProductionTemporal,
  databaseUrl: string,
  credentials: { apiKey: string; consoleUser: { email: string; password: string } },
  dataDir: string,
  processes: Array<ClusterProcess & { pid: number }>,
): void {
  const firstApi = processes.find((spec) => spec.apiUrl)!.apiUrl!;
  const row = (label: string, value: string) => `  ${`${label}:`.padEnd(22)}${value}`;
  const lines = [
    '',
    'Healthcare Access API is running (scale shape: production Temporal server on PostgreSQL)',
    ...processes
      .filter((spec) => spec.apiUrl)
      .map((spec) => row(`API (${spec.name})`, `${spec.apiUrl}   (docs: ${spec.apiUrl}/docs)`)),
    row(
      'Console',
      `${firstApi}/console  (sign in: ${credentials.consoleUser.email} / ${credentials.consoleUser.password}; ` +
        `code: DATA_DIR=${dataDir} npm run admin -- dev:totp-code)`,
    ),
    row('Dev API key', credentials.apiKey),
    row('Temporal', `${temporal.address}  (namespace ${temporal.namespace})`),
    row('Temporal Web', temporal.uiUrl ?? ''),
    row('Temporal metrics', temporal.metricsUrl),
    ...processes.map((spec) => row(`Metrics (${spec.name})`, spec.metricsUrl)),
    row('PostgreSQL', redactPassword(databaseUrl)),
    row('Data folder', dataDir),
    row(
      'Processes',
      `launcher ${process.pid}, ${processes.map((spec) => `${spec.name} ${spec.pid}`).join(', ')}`,
    ),
    '',
    `  Try: curl -H "Authorization: Bearer ${credentials.apiKey}" ${firstApi}/status`,
    `  Admin CLI: DATA_DIR=${dataDir} DATABASE_URL=<PostgreSQL above> npm run admin -- --help`,
    `  Press Ctrl-C to stop everything; kill -USR2 ${process.pid} restarts the Temporal server.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

function redactPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
