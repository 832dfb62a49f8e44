import { loadConfig } from '../infrastructure/config/config';
import {
  connectClient,
  connectWorkerConnection,
  registerSearchAttributes,
} from '../infrastructure/temporal/temporal-connection';
import { installTemporalRuntime, openStorage } from './bootstrap';
import { createLogger } from './common/logger';
import { ensureCaseRetention } from './worker/case-retention-schedule';
import { backfillCaseReadModelInBackground } from './worker/read-model-backfill';
import { createWorker, workerMetricsExporter } from './worker/worker';

/**
 * Scale mode worker process; run as many as the load needs. The Temporal runtime stops the worker
 * gracefully on SIGINT and SIGTERM, letting running activities finish.
 */
async function main(): Promise<void> {
  const config = loadConfig('worker');
  const logger = createLogger(config.logLevel, { process: 'worker' });
  installTemporalRuntime(logger, workerMetricsExporter(config.metrics));
  const db = await openStorage(config, logger);
  const client = await connectClient(config.temporal, config.encryption!);
  await registerSearchAttributes(client, logger);
  await ensureCaseRetention(
    client,
    { ...config.temporal, retentionDays: config.cases.retentionDays },
    logger,
  );
  const connection = await connectWorkerConnection(config.temporal);
  const worker = await createWorker({ config, connection, db, temporalClient: client, logger });
  backfillCaseReadModelInBackground({ client, db, config }, logger);
  try {
    await worker.run();
  } finally {
    await connection.close();
    await client.connection.close();
    await db.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
