import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import type { TemporalSettings } from '../../infrastructure/config/config';
import { type Database, pingDatabase } from '../../infrastructure/storage/database';
import { ApiError } from '../common/errors';

type ComponentHealth = { status: 'ok' | 'degraded' | 'down'; latency_ms?: number; detail?: string };

/** A poller silent for longer than this is treated as gone (workers long-poll for about a minute). */
const POLLER_FRESHNESS_MS = 90_000;
const CHECK_TIMEOUT_MS = 3_000;

/** The API, the database, Temporal and the workers as the status endpoint reports them. */
export class StatusService {
  constructor(
    private readonly temporalSettings: Pick<TemporalSettings, 'namespace' | 'taskQueue'>,
    private readonly db: Database,
    private readonly temporalClient: Client,
  ) {}

  /** Throws `service_unavailable` when the database or Temporal is down: the service cannot accept work. */
  async current(): Promise<{ message: string; components: Record<string, ComponentHealth> }> {
    const [database, temporalHealth, worker] = await Promise.all([
      timed(() => pingDatabase(this.db)),
      timed(() => this.temporalClient.workflowService.getSystemInfo({})),
      this.workerHealth(),
    ]);
    const components: Record<string, ComponentHealth> = {
      api: { status: 'ok' },
      database,
      temporal: temporalHealth,
      worker,
    };
    if (database.status === 'down' || temporalHealth.status === 'down') {
      throw new ApiError(
        'service_unavailable',
        'The service cannot accept work right now.',
        Object.entries(components)
          .filter(([, health]) => health.status !== 'ok')
          .map(([name, health]) => ({ field: name, issue: health.detail ?? health.status })),
      );
    }
    const message =
      worker.status === 'ok'
        ? 'All systems operational.'
        : 'Accepting requests; no worker is polling, so cases wait until one starts.';
    return { message, components };
  }

  private async workerHealth(): Promise<ComponentHealth & { pollers?: number }> {
    try {
      const response = await withTimeout(
        this.temporalClient.workflowService.describeTaskQueue({
          namespace: this.temporalSettings.namespace,
          taskQueue: { name: this.temporalSettings.taskQueue },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        }),
      );
      const freshAfter = Date.now() - POLLER_FRESHNESS_MS;
      const pollers = (response.pollers ?? []).filter(
        (poller) => Number(poller.lastAccessTime?.seconds ?? 0) * 1000 >= freshAfter,
      ).length;
      return pollers > 0
        ? { status: 'ok', pollers }
        : { status: 'degraded', pollers, detail: 'no worker is polling the task queue' };
    } catch {
      return { status: 'down', detail: 'task queue could not be described' };
    }
  }
}

async function timed(check: () => Promise<unknown>): Promise<ComponentHealth> {
  const startedAt = performance.now();
  try {
    await withTimeout(check());
    return { status: 'ok', latency_ms: Math.round((performance.now() - startedAt) * 10) / 10 };
  } catch {
    return { status: 'down', detail: 'unreachable' };
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
