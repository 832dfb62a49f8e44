import type { Worker } from '@temporalio/worker';

import type { AppConfig } from '../../infrastructure/config/config';
import {
  connectClient,
  connectWorkerConnection,
  registerSearchAttributes,
} from '../../infrastructure/temporal/temporal-connection';
import { installTemporalRuntime, openStorage } from '../bootstrap';
import { createLogger } from '../common/logger';
import { ensureCaseRetention } from './case-retention-schedule';
import { backfillCaseReadModelInBackground } from './read-model-backfill';
import { createWorker, workerMetricsExporter } from './worker';

export interface WorkerProcessOptions {
  /** Whether the cluster may lack the search attributes; a dev server registers them when it starts. */
  registerSearchAttributes: boolean;
  /** Called once the worker runs, for what the process does around it (tell its launcher it is ready). */
  onceRunning?(worker: Worker): void;
}

/**
 * A worker process, in local and scale mode alike: it opens storage and its Temporal connections,
 * makes sure of case retention, runs the worker until the Temporal runtime stops it (SIGINT,
 * SIGTERM: running activities finish first), and closes what it opened.
 */
export async function runWorkerProcess(config: AppConfig, options: WorkerProcessOptions): Promise<void> {
  const logger = createLogger(config.logLevel, { process: 'worker' });
  installTemporalRuntime(logger, workerMetricsExporter(config.metrics));
  const db = await openStorage(config, logger);
  const client = await connectClient(config.temporal, config.encryption!);
  if (options.registerSearchAttributes) await registerSearchAttributes(client, logger);
  await ensureCaseRetention(
    client,
    { ...config.temporal, retentionDays: config.cases.retentionDays },
    logger,
  );
  const connection = await connectWorkerConnection(config.temporal);
  const worker = await createWorker({ config, connection, db, temporalClient: client, logger });
  backfillCaseReadModelInBackground({ client, db, config }, logger);
  const running = worker.run();
  options.onceRunning?.(worker);
  try {
    await running;
  } finally {
    await connection.close();
    await client.connection.close();
    await db.close();
  }
}
