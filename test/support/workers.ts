import { randomUUID } from 'node:crypto';

import { Worker } from '@temporalio/worker';
import pino from 'pino';

import type { AppConfig } from '../../src/config/config';
import { connectWorkerConnection } from '../../src/temporal/temporal-connection';
import { createWorker } from '../../src/worker/worker';

export const FIXTURE_WORKFLOWS = require.resolve('../fixtures/workflows');

/** A task queue of its own per test, named after it, so tests never steal each other's tasks. */
export function taskQueueFor(testName: string): string {
  return `test-${testName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)}-${randomUUID().slice(0, 8)}`;
}

/** A real worker built by the production factory, polling the given task queue. */
export async function startTestWorker(
  config: AppConfig,
  taskQueue: string,
  workflowsPath = FIXTURE_WORKFLOWS,
): Promise<{ worker: Worker; stop(): Promise<void> }> {
  const connection = await connectWorkerConnection(config.temporal);
  const worker = await createWorker({
    config,
    connection,
    logger: pino({ level: 'silent' }),
    taskQueue,
    workflowsPath,
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
