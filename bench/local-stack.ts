import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { projectRoot } from '../infrastructure/project-root';
import { servedDatabaseUrl } from '../src/local/data-folder';
import { loadConfig } from '../infrastructure/config/config';
import { freePortRun } from '../infrastructure/temporal/dev-server';
import { processTreeMemory, stopProcess } from './process-tree';
import {
  BenchStack,
  benchApiKey,
  benchEnvironment,
  folderBytes,
  roundRobinApi,
  stackClient,
  waitForOutput,
} from './stack';

/** `npm start`'s process on free ports, a throwaway data folder and a rate limit out of the way. */
export async function startLocalStack(): Promise<BenchStack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-bench-local-'));
  // One run of free ports, so that none of the five can be another's.
  const first = await freePortRun(5);
  const ports = { api: first, temporal: first + 1, ui: first + 2, metrics: first + 3 };
  const apiKey = benchApiKey();
  const local = spawn(process.execPath, [path.join(projectRoot(), 'dist', 'src', 'main.local.js')], {
    env: {
      ...benchEnvironment(dataDir, apiKey),
      PORT: String(ports.api),
      TEMPORAL_DEV_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      // The worker serves its metrics on METRICS_PORT, the API on the next (src/main.local.ts).
      METRICS_PORT: String(ports.metrics),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForOutput(local, 'Dev API key', 'local mode');
  const { namespace } = loadConfig('local', { DATA_DIR: dataDir }).temporal;
  const { client, connection } = await stackClient(`127.0.0.1:${ports.temporal}`, namespace, dataDir);
  return {
    api: roundRobinApi([`http://127.0.0.1:${ports.api}`], apiKey),
    temporal: client,
    namespace,
    processMemory: () => processTreeMemory([{ pid: local.pid!, label: 'launcher (database)' }]),
    metricsUrls: [
      { name: 'worker', url: `http://127.0.0.1:${ports.metrics}/metrics` },
      { name: 'api', url: `http://127.0.0.1:${ports.metrics + 1}/metrics` },
    ],
    // The launcher's PGlite, the Temporal dev server's SQLite and every other file of local mode.
    storedBytes: async () => [{ store: 'data folder', bytes: folderBytes(dataDir) }],
    databaseUrl: () => servedDatabaseUrl(dataDir),
    async stop({ keepData = false } = {}) {
      await connection.close();
      await stopProcess(local);
      if (keepData) console.log(`  data folder kept for tracing: ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
