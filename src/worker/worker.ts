import { existsSync } from 'node:fs';
import * as path from 'node:path';

import type { Client } from '@temporalio/client';
import {
  bundleWorkflowCode,
  MetricsExporterConfig,
  NativeConnection,
  Runtime,
  Worker,
} from '@temporalio/worker';
import type { Logger } from 'pino';

import { createActivities, type Connectors } from '../../activities';
import {
  WEBHOOK_DELIVERY_LAG_BUCKETS,
  WEBHOOK_DELIVERY_LAG_METRIC,
} from '../../infrastructure/webhooks/delivery-metrics';
import { projectRoot } from '../../infrastructure/project-root';
import type { AppConfig, MetricsSettings } from '../../infrastructure/config/config';
import type { Database } from '../../infrastructure/storage/database';
import { workerDataConverter } from '../../infrastructure/temporal/temporal-connection';
import { sweepWhileWorkerRuns } from './sweepers';

/** Built by `npm run build`; the production worker loads it instead of bundling at every start. */
export const WORKFLOW_BUNDLE_PATH = path.join(projectRoot(), 'dist', 'workflow-bundle.js');

/** Bundled with every workflow: refuses inputs, signals and updates that were not encrypted. */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('../../workflows/refuse-unencrypted.interceptors'),
];

/**
 * The production workflows, their interceptors and failure converter as one bundle: what `npm run build`
 * writes to WORKFLOW_BUNDLE_PATH, and what a test run writes once for all of its workers.
 */
export async function bundleProductionWorkflows(): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    failureConverterPath: require.resolve('../../infrastructure/temporal/failure-converter'),
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
  });
  return code;
}

/**
 * The worker's Prometheus exporter on METRICS_PORT (for installTemporalRuntime): the SDK core's
 * worker metrics and the webhook metrics the activities record, on one port; none without a port.
 */
export function workerMetricsExporter(settings: MetricsSettings): MetricsExporterConfig | undefined {
  if (settings.port === undefined) return undefined;
  // A socket address needs an IPv6 host in brackets.
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return {
    prometheus: {
      bindAddress: `${host}:${settings.port}`,
      // Prometheus's convention, and the unit of the alert thresholds in docs/operations.md.
      useSecondsForDurations: true,
      histogramBucketOverrides: { [WEBHOOK_DELIVERY_LAG_METRIC]: WEBHOOK_DELIVERY_LAG_BUCKETS },
    },
  };
}

export interface WorkerOptions {
  config: AppConfig;
  connection: NativeConnection;
  db: Database;
  /** For activities that start workflows of their own (webhook deliveries). */
  temporalClient: Client;
  logger: Logger;
  /** Overrides the task queue (tests give each suite its own). */
  taskQueue?: string;
  /** Overrides the workflow code with sources to bundle (tests of workflow changes). */
  workflowsPath?: string;
  /** A bundle `bundleProductionWorkflows` wrote; by default the build's if there is one, else the sources. */
  workflowBundlePath?: string;
  /** The payer and program hub the activities call; the local simulators by default. */
  connectors?: Connectors;
}

export async function createWorker(options: WorkerOptions): Promise<Worker> {
  const { config, connection } = options;
  const taskQueue = options.taskQueue ?? config.temporal.taskQueue;
  const workflowSource = options.workflowsPath
    ? { workflowsPath: options.workflowsPath }
    : options.workflowBundlePath
      ? { workflowBundle: { codePath: options.workflowBundlePath } }
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
    metricMeter: Runtime.instance().metricMeter,
  });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    ...workflowSource,
    activities,
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
    stickyQueueScheduleToStartTimeout: config.temporal.stickyQueueTimeoutMs,
    dataConverter: workerDataConverter(config.encryption!),
    // A prebuilt bundle already holds them (bundle-workflows.ts).
    interceptors:
      'workflowBundle' in workflowSource ? undefined : { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
  });
  sweepWhileWorkerRuns(worker, { ...options, taskQueue });
  // The activities' threads close once the worker has stopped and no activity can still use them.
  const run = worker.run.bind(worker);
  return Object.assign(worker, { run: () => run().finally(close) });
}
