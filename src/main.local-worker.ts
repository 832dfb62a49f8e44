import { loadConfig } from '../infrastructure/config/config';
import { localRuntimeConfig } from './bootstrap';
import { reportReady } from './local/child-processes';
import { runWorkerProcess } from './worker/worker-process';

/**
 * Local mode's worker process, started by the launcher (main.local.ts) with the database it serves in
 * DATABASE_URL.
 */
async function main(): Promise<void> {
  await runWorkerProcess(localRuntimeConfig(loadConfig('local')), {
    // The embedded dev server registers them at start; an external cluster may not have them yet.
    registerSearchAttributes: Boolean(process.env.TEMPORAL_ADDRESS),
    onceRunning: (worker) => {
      // The launcher is gone (killed outright): nothing would ever stop this process otherwise.
      process.once('disconnect', () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
      });
      reportReady();
    },
  });
}

// The launcher's IPC channel would otherwise keep a stopped worker's process alive.
main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
