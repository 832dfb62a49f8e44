import { randomUUID } from 'node:crypto';

import type { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import pino from 'pino';

import type { Connectors } from '../../activities';
import type { AppConfig } from '../../infrastructure/config/config';
import type { Database } from '../../infrastructure/storage/database';
import { connectWorkerConnection } from '../../infrastructure/temporal/temporal-connection';
import { createWorker } from '../../src/worker/worker';
import { testEnvironment } from '../harness/environment';

export const FIXTURE_WORKFLOWS = require.resolve('../fixtures/workflows');

/** A task queue of its own per test, named after it, so tests never steal each other's tasks. */
export function taskQueueFor(testName: string): string {
  return `test-${testName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)}-${randomUUID().slice(0, 8)}`;
}

export interface TestWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** A real worker built by the production factory, polling the given task queue. */
export async function startTestWorker(options: {
  config: AppConfig;
  db: Database;
  temporalClient: Client;
  taskQueue?: string;
  workflowsPath?: string;
  /** Connector doubles that replace the simulators (test/support/connector-doubles.ts). */
  connectors?: Connectors;
}): Promise<TestWorker> {
  const connection = await connectWorkerConnection(options.config.temporal);
  const worker = await createWorker({
    ...options,
    connection,
    logger: pino({ level: 'silent' }),
    // The run's one bundle of the production workflows, unless the test brings workflows of its own.
    ...(options.workflowsPath
      ? { workflowsPath: options.workflowsPath }
      : { workflowBundlePath: testEnvironment().workflowBundlePath }),
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
