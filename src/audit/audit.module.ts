import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';

import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import type { Database } from '../../infrastructure/storage/database';
import { AuditEventsController } from './audit-events.controller';
import { AuditEventsService } from './audit-events.service';
import { AuditRetention } from './audit-retention';
import { AuditInterceptor } from './audit.interceptor';
import { CodecAudit } from './codec-audit';

// The codec records each use of the remote codec through it.
export { CodecAudit };

/**
 * The audit trail: its table, the interceptor that fills it, its reader and its retention. Global,
 * because every feature's routes are audited and the codec and the console record into it.
 */
@Module({})
export class AuditModule {
  static forRoot(deps: {
    config: AppConfig;
    db: Database;
    temporalClient: Client;
    logger: Logger;
  }): DynamicModule {
    const audit = new AuditRepository(deps.db);
    return {
      module: AuditModule,
      global: true,
      controllers: [AuditEventsController],
      providers: [
        { provide: AuditRepository, useValue: audit },
        { provide: AuditEventsService, useValue: new AuditEventsService(audit) },
        { provide: CodecAudit, useValue: new CodecAudit(audit, deps.temporalClient) },
        {
          provide: AuditRetention,
          useValue: new AuditRetention(audit, deps.config.audit.retentionDays, deps.logger),
        },
        { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
      ],
      exports: [AuditRepository, CodecAudit, AuditRetention],
    };
  }
}
