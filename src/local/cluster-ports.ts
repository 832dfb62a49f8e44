import type { AppConfig } from '../../infrastructure/config/config';

/** The cluster launcher's API and worker processes. */
export const API_PROCESSES = 2;
export const WORKER_PROCESSES = 2;
const DEFAULT_FIRST_METRICS_PORT = 9464;

/** Temporal's port and Temporal Web's. */
const TEMPORAL_PORTS = 2;
/** A metrics endpoint for each API, each worker and the Temporal server. */
const METRICS_PORTS = API_PROCESSES + WORKER_PROCESSES + 1;

export interface PortPlan {
  apis: number[];
  apiMetrics: number[];
  workerMetrics: number[];
  temporalMetrics: number;
  temporal: number;
  temporalWeb: number;
}

/** Every port of a plan, each process's and each server's. */
export function portsOf(plan: PortPlan): number[] {
  return [
    ...plan.apis,
    ...plan.apiMetrics,
    ...plan.workerMetrics,
    plan.temporalMetrics,
    plan.temporal,
    plan.temporalWeb,
  ];
}

/**
 * APIs on PORT, PORT+1…; metrics for each API, each worker, then the Temporal server from
 * METRICS_PORT up; Temporal and Temporal Web on their own settings. Every port is checked before
 * anything starts, so a clash is one clear message rather than a process failing to bind half-way
 * through.
 */
export function portPlan(config: AppConfig): PortPlan {
  const metricsBase = config.metrics.port ?? DEFAULT_FIRST_METRICS_PORT;
  const run = (first: number, length: number) => Array.from({ length }, (_, index) => first + index);
  const plan = {
    apis: run(config.http.port, API_PROCESSES),
    apiMetrics: run(metricsBase, API_PROCESSES),
    workerMetrics: run(metricsBase + API_PROCESSES, WORKER_PROCESSES),
    temporalMetrics: metricsBase + API_PROCESSES + WORKER_PROCESSES,
    temporal: config.localTemporal.port,
    temporalWeb: config.localTemporal.uiPort,
  };
  const all = portsOf(plan);
  if (all.some((port) => port > 65535) || new Set(all).size !== all.length) {
    throw new Error(
      `The cluster's ports overlap or pass 65535: APIs on PORT (${config.http.port}) and the next, ` +
        `metrics on METRICS_PORT (${metricsBase}) and the next ${METRICS_PORTS - 1}, ` +
        `Temporal on TEMPORAL_DEV_PORT (${config.localTemporal.port}), Temporal Web on TEMPORAL_UI_PORT ` +
        `(${config.localTemporal.uiPort}); choose ports that keep these apart.`,
    );
  }
  return plan;
}

/** The ports a cluster takes: its APIs', Temporal's and Temporal Web's, then every metrics endpoint. */
export const CLUSTER_PORTS = API_PROCESSES + TEMPORAL_PORTS + METRICS_PORTS;

/**
 * The launcher's port settings laid out over CLUSTER_PORTS consecutive ports from `first`, for a
 * cluster started beside others (tests, the bench): ports drawn one setting at a time could overlap,
 * and the launcher then refuses to start.
 */
export function clusterPortSettings(
  first: number,
): Record<'PORT' | 'TEMPORAL_DEV_PORT' | 'TEMPORAL_UI_PORT' | 'METRICS_PORT', string> {
  const temporal = first + API_PROCESSES;
  return {
    PORT: String(first),
    TEMPORAL_DEV_PORT: String(temporal),
    TEMPORAL_UI_PORT: String(temporal + 1),
    METRICS_PORT: String(temporal + 2),
  };
}
