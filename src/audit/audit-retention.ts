import { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import { DAY_MS } from '../../domain/durations';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';

const PURGE_INTERVAL_MS = 3_600_000;

/**
 * Enforces AUDIT_RETENTION_DAYS in the API process: a purge at start, then hourly. Every API
 * replica runs it; the purge deletes by age only, so replicas racing each other delete nothing twice
 * and disagree about nothing.
 */
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly audit: AuditRepository,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  /** Deletes the events older than the retention at `now`; returns how many went. */
  async purge(now = new Date()): Promise<number> {
    return this.audit.purgeBefore(new Date(now.getTime() - this.retentionDays * DAY_MS));
  }

  onApplicationBootstrap(): void {
    this.schedulePurge();
    this.timer = setInterval(() => this.schedulePurge(), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private schedulePurge(): void {
    this.running = this.running.then(async () => {
      try {
        const purged = await this.purge();
        if (purged > 0) {
          this.logger.info({ purged, retention_days: this.retentionDays }, 'audit events purged');
        }
      } catch (error) {
        // The next hour tries again; a purge that failed loses nothing.
        this.logger.error(
          // Names and codes only: a database error's message may quote what the statement touched.
          { err_name: (error as Error).name, err_code: (error as { code?: string }).code },
          'audit event purge failed',
        );
      }
    });
  }
}
