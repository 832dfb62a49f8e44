import { rmSync } from 'node:fs';

import type { DevServer } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from './environment';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __temporalDevServer?: DevServer }).__temporalDevServer;
  await server?.stop();
  const { workDir } = testEnvironment();
  rmSync(workDir, { recursive: true, force: true });
  rmSync(process.env.HAA_TEST_ENVIRONMENT_FILE!, { force: true });
}
