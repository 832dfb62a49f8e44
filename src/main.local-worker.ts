import { loadConfig } from '../infrastructure/config/config';
import {
  connectClient,
  connectWorkerConnection,
  registerSearchAttributes,
} from '../infrastructure/temporal/temporal-connection';
import { installTemporalRuntime, localRuntimeConfig, openStorage } from './bootstrap';
import { createLogger } from './common/logger';
import { reportReady } from './local/child-processes';
import { ensureCaseRetention } from './worker/case-retention-schedule';
import { backfillCaseReadModelInBackground } from './worker/read-model-backfill';
import { createWorker, workerMetricsExporter } from './worker/worker';

/**
 * Local mode's worker process, started by the launcher (main.local.ts) with the database it serves in
 * DATABASE_URL. The Temporal runtime stops the worker gracefully on SIGINT and SIGTERM.
 */
async function main(): Promise<void> {
  const config = localRuntimeConfig(loadConfig('local'));
  const logger = createLogger(config.logLevel, { process: 'worker' });
  installTemporalRuntime(logger, workerMetricsExporter(config.metrics));
  const db = await openStorage(config, logger);
  const client = await connectClient(config.temporal, config.encryption);
  // The embedded dev server registers them at start; an external cluster may not have them yet.
  if (process.env.TEMPORAL_ADDRESS) await registerSearchAttributes(client, logger);
  await ensureCaseRetention(
    client,
    { ...config.temporal, retentionDays: config.cases.retentionDays },
    logger,
  );
  const connection = await connectWorkerConnection(config.temporal);
  const worker = await createWorker({ config, connection, db, temporalClient: client, logger });
  backfillCaseReadModelInBackground({ client, db, config }, logger);
  // The launcher is gone (killed outright): nothing would ever stop this process otherwise.
  process.once('disconnect', () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
  });
  const running = worker.run();
  reportReady();
  try {
    await running;
  } finally {
    await connection.close();
    await client.connection.close();
    await db.close();
  }
}

// The launcher's IPC channel would otherwise keep a stopped worker's process alive.
main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
