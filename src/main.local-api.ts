import { CaseSummariesRepository } from '../infrastructure/cases/case-summaries.repository';
import { loadConfig } from '../infrastructure/config/config';
import { connectClient } from '../infrastructure/temporal/temporal-connection';
import { createApp } from './app/create-app';
import { localRuntimeConfig, openStorage } from './bootstrap';
import { createLogger } from './common/logger';
import { stopOnSignals } from './common/stop-on-signals';
import { reportReady } from './local/child-processes';
import { startApiMetrics } from './metrics/metrics-server';

/**
 * Local mode's API process, started by the launcher (main.local.ts) with the database it serves in
 * DATABASE_URL. It runs no workflow or activity, so a busy worker never slows its answers.
 */
async function main(): Promise<void> {
  const config = localRuntimeConfig(loadConfig('local'));
  const logger = createLogger(config.logLevel, { process: 'api' });
  const db = await openStorage(config, logger);
  const temporalClient = await connectClient(config.temporal, config.encryption);
  const summaries = new CaseSummariesRepository(db);
  const metrics = await startApiMetrics(config.metrics, () => summaries.countByObjectAndStatus(), logger);
  const app = await createApp({ config, db, temporalClient, logger, observeRequest: metrics.observeRequest });
  await app.listen(config.http.port, config.http.host);

  stopOnSignals(
    [() => app.close(), () => metrics.close(), () => temporalClient.connection.close(), () => db.close()],
    { withLauncher: true },
  );
  reportReady();
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
