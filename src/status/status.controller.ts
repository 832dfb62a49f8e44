import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import type { AppConfig } from '../../infrastructure/config/config';
import type { Database } from '../../infrastructure/storage/database';
import { APP_CONFIG, DATABASE, TEMPORAL_CLIENT } from '../app/tokens';
import { success } from '../common/envelope';
import { ApiError } from '../common/errors';
import { Answers } from '../contract/answers';

type ComponentHealth = { status: 'ok' | 'degraded' | 'down'; latency_ms?: number; detail?: string };

/** A poller silent for longer than this is treated as gone (workers long-poll for about a minute). */
const POLLER_FRESHNESS_MS = 90_000;
const CHECK_TIMEOUT_MS = 3_000;

@ApiTags('status')
@ApiBearerAuth()
@Controller('status')
export class StatusController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(TEMPORAL_CLIENT) private readonly temporalClient: Client,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Operational check of the API, the database, Temporal and the workers' })
  @Answers('ServiceStatus')
  async status() {
    const [database, temporalHealth, worker] = await Promise.all([
      timed(() => this.db.query('SELECT 1')),
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
    return success({ message, components });
  }

  private async workerHealth(): Promise<ComponentHealth & { pollers?: number }> {
    try {
      const response = await withTimeout(
        this.temporalClient.workflowService.describeTaskQueue({
          namespace: this.config.temporal.namespace,
          taskQueue: { name: this.config.temporal.taskQueue },
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
