import { rmSync } from 'node:fs';

import type { DevServer } from '../../infrastructure/temporal/dev-server';
import { databaseOfWorker, testEnvironment } from './environment';
import { onServer } from './database-server';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __temporalDevServer?: DevServer }).__temporalDevServer;
  await server?.stop();
  const { workDir, sharedDatabaseUrl, runId, workers } = testEnvironment();
  // A server a developer keeps between runs is left as it was found.
  await onServer(sharedDatabaseUrl, async (client) => {
    for (let worker = 1; worker <= workers; worker += 1) {
      await client.query(`DROP DATABASE IF EXISTS ${databaseOfWorker(runId, worker)} WITH (FORCE)`);
    }
  });
  rmSync(workDir, { recursive: true, force: true });
  rmSync(process.env.HAA_TEST_ENVIRONMENT_FILE!, { force: true });
}
