import { rmSync } from 'node:fs';

import type { DevServer } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from './environment';
import { onServer } from './database-server';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __temporalDevServer?: DevServer }).__temporalDevServer;
  await server?.stop();
  const { workDir, sharedDatabaseUrl, runId } = testEnvironment();
  // A server a developer keeps between runs is left as it was found: every database this run made
  // (the workers', the migrated template, and any test's copy a failed suite left) goes.
  await onServer(sharedDatabaseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [`haa_test_${runId}_`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
  rmSync(workDir, { recursive: true, force: true });
  rmSync(process.env.HAA_TEST_ENVIRONMENT_FILE!, { force: true });
}
