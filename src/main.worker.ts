import { loadConfig } from '../infrastructure/config/config';
import { runWorkerProcess } from './worker/worker-process';

/** Scale mode worker process; run as many as the load needs. */
async function main(): Promise<void> {
  await runWorkerProcess(loadConfig('worker'), { registerSearchAttributes: true });
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
