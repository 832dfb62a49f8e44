import { existsSync } from 'node:fs';
import * as path from 'node:path';

import type { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from 'pino';

import { createActivities, type Connectors } from '../../activities';
import { projectRoot } from '../../domain/project-root';
import type { AppConfig } from '../../infrastructure/config/config';
import type { Database } from '../../infrastructure/storage/database';
import { workerDataConverter } from '../../infrastructure/temporal/temporal-connection';
import { sweepUnstartedDocumentsWhileRunning } from '../cases/unstarted-documents-sweeper';
import { sweepStalledDeliveriesWhileRunning } from '../webhooks/stalled-delivery-sweeper';

/** Built by `npm run build`; the production worker loads it instead of bundling at every start. */
export const WORKFLOW_BUNDLE_PATH = path.join(projectRoot(), 'dist', 'workflow-bundle.js');

/** Bundled with every workflow: refuses inputs, signals and updates that were not encrypted. */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('../../workflows/refuse-unencrypted.interceptors'),
];

export interface WorkerOptions {
  config: AppConfig;
  connection: NativeConnection;
  db: Database;
  /** For activities that start workflows of their own (webhook deliveries). */
  temporalClient: Client;
  logger: Logger;
  /** Overrides the task queue (tests give each suite its own). */
  taskQueue?: string;
  /** Overrides the workflow code (tests). */
  workflowsPath?: string;
  /** The payer and program hub the activities call; the local simulators by default. */
  connectors?: Connectors;
}

export async function createWorker(options: WorkerOptions): Promise<Worker> {
  const { config, connection } = options;
  const taskQueue = options.taskQueue ?? config.temporal.taskQueue;
  const workflowSource = options.workflowsPath
    ? { workflowsPath: options.workflowsPath }
    : existsSync(WORKFLOW_BUNDLE_PATH)
      ? { workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH } }
      : { workflowsPath: require.resolve('../../workflows') };
  options.logger.info(
    {
      task_queue: options.taskQueue ?? config.temporal.taskQueue,
      prebuilt_bundle: 'workflowBundle' in workflowSource,
    },
    'starting worker',
  );
  const { activities, close } = createActivities({
    config,
    db: options.db,
    temporalClient: options.temporalClient,
    taskQueue,
    logger: options.logger,
    connectors: options.connectors,
  });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    ...workflowSource,
    activities,
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
    dataConverter: workerDataConverter(config.encryption!),
    // A prebuilt bundle already holds them (bundle-workflows.ts).
    interceptors:
      'workflowBundle' in workflowSource ? undefined : { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
  });
  sweepStalledDeliveriesWhileRunning(worker, { ...options, taskQueue });
  sweepUnstartedDocumentsWhileRunning(worker, options);
  // The activities' threads close once the worker has stopped and no activity can still use them.
  const run = worker.run.bind(worker);
  return Object.assign(worker, { run: () => run().finally(close) });
}
