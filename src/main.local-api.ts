import { loadConfig } from '../infrastructure/config/config';
import { connectClient } from '../infrastructure/temporal/temporal-connection';
import { createApp } from './app/create-app';
import { localRuntimeConfig, openStorage } from './bootstrap';
import { createLogger } from './common/logger';
import { reportReady } from './local/child-processes';

/**
 * Local mode's API process, started by the launcher (main.local.ts) with the database it serves in
 * DATABASE_URL. It runs no workflow or activity, so a busy worker never slows its answers.
 */
async function main(): Promise<void> {
  const config = localRuntimeConfig(loadConfig('local'));
  const logger = createLogger(config.logLevel, { process: 'api' });
  const db = await openStorage(config, logger);
  const temporalClient = await connectClient(config.temporal, config.encryption);
  const app = await createApp({ config, db, temporalClient, logger });
  await app.listen(config.http.port, config.http.host);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
      await temporalClient.connection.close();
      await db.close();
      process.exit(0);
    })());
  // Ctrl-C reaches the whole process group, so the launcher's SIGTERM may follow the terminal's SIGINT.
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // The launcher is gone (killed outright): nothing would ever stop this process otherwise.
  process.on('disconnect', () => void stop());
  reportReady();
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
