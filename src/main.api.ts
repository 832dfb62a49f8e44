import { CaseSummariesRepository } from '../infrastructure/cases/case-summaries.repository';
import { loadConfig } from '../infrastructure/config/config';
import { connectClient } from '../infrastructure/temporal/temporal-connection';
import { createApp } from './app/create-app';
import { ensureDevAccount, openStorage, revokeDevelopmentCredentials } from './bootstrap';
import { createLogger } from './common/logger';
import { stopOnSignals } from './common/stop-on-signals';
import { startApiMetrics } from './metrics/metrics-server';

/** Scale mode API process: stateless, any number of replicas behind a load balancer. */
async function main(): Promise<void> {
  const config = loadConfig('api');
  const logger = createLogger(config.logLevel, { process: 'api' });
  const db = await openStorage(config, logger);
  if (config.production) await revokeDevelopmentCredentials(db, logger);
  else if (config.devApiKey) await ensureDevAccount(db, config);
  const temporalClient = await connectClient(config.temporal, config.encryption!);
  const summaries = new CaseSummariesRepository(db);
  const metrics = await startApiMetrics(config.metrics, () => summaries.countByObjectAndStatus(), logger);
  const app = await createApp({ config, db, temporalClient, logger, observeRequest: metrics.observeRequest });
  await app.listen(config.http.port, config.http.host);
  logger.info({ port: config.http.port, temporal: config.temporal.address }, 'API listening');

  stopOnSignals([
    () => app.close(),
    () => metrics.close(),
    () => temporalClient.connection.close(),
    () => db.close(),
  ]);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
