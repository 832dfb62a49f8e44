import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Client } from '@temporalio/client';
import type { Logger } from 'pino';

import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { CaseBindingEpoch } from '../../infrastructure/cases/case-binding-epoch';
import { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import { CaseSummariesRepository } from '../../infrastructure/cases/case-summaries.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { IdempotencyRepository } from '../../infrastructure/idempotency/idempotency.repository';
import { SqlRateLimiter } from '../../infrastructure/rate-limits/sql-rate-limiter';
import type { Database } from '../../infrastructure/storage/database';
import { EventsRepository } from '../../infrastructure/webhooks/events.repository';
import { WebhookDeliveriesRepository } from '../../infrastructure/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../../infrastructure/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
import { AuditModule } from '../audit/audit.module';
import { ApiKeyAuthenticator } from '../auth/api-key-authenticator';
import { ApiKeysController } from '../auth/api-keys.controller';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuthGuard } from '../auth/auth.guard';
import { RateLimiter } from '../auth/rate-limiter';
import { caseController } from '../cases/case-controller';
import { CaseWorkflows } from '../cases/case-workflows';
import { CasesService } from '../cases/cases.service';
import { ListCursors } from '../cases/list-cursor';
import { CASE_TYPES } from '../cases/types';
import { CodecController } from '../codec/codec.controller';
import { ConnectorsModule } from '../connectors/connectors.module';
import { CONSOLE_CONTROLLERS, consoleProviders } from '../console';
import { EventsController } from '../events/events.controller';
import { EventsService } from '../events/events.service';
import { FormulariesModule } from '../formularies/formularies.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PatientsModule } from '../patients/patients.module';
import { SupportProgramsController } from '../programs/support-programs.controller';
import { StatusController } from '../status/status.controller';
import { StatusService } from '../status/status.service';
import { WebhooksController } from '../webhooks/webhooks.controller';
import { WebhooksService } from '../webhooks/webhooks.service';
import { APP_CONFIG, DATABASE, LOGGER, TEMPORAL_CLIENT } from './tokens';

/** What the composition root opens before Nest starts; Nest never owns their lifecycle. */
export interface AppDependencies {
  config: AppConfig;
  db: Database;
  temporalClient: Client;
  logger: Logger;
}

@Module({})
export class AppModule {
  static forRoot(deps: AppDependencies): DynamicModule {
    const secrets = new SecretBox(deps.config.encryption!);
    const deliveries = new WebhookDeliveriesRepository(deps.db, secrets);
    const accounts = new AccountsRepository(deps.db);
    const authenticator = new ApiKeyAuthenticator(accounts, deps.config.apiKeyCacheTtlMs);
    const caseDocuments = new CaseDocumentsRepository(deps.db, secrets);
    const connectorSettings = new ConnectorSettingsRepository(deps.db, secrets);
    const idempotencyKeys = new IdempotencyRepository(deps.db, secrets);
    const { rateLimit } = deps.config;
    return {
      module: AppModule,
      imports: [
        AuditModule.forRoot(deps),
        IdempotencyModule.forRoot(idempotencyKeys),
        FormulariesModule.forRoot(deps),
        ConnectorsModule.forRoot(deps),
        PatientsModule.forRoot(deps),
      ],
      controllers: [
        StatusController,
        CodecController,
        ApiKeysController,
        WebhooksController,
        EventsController,
        ...CASE_TYPES.map(caseController),
        SupportProgramsController,
        ...CONSOLE_CONTROLLERS,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: deps.config },
        { provide: DATABASE, useValue: deps.db },
        { provide: TEMPORAL_CLIENT, useValue: deps.temporalClient },
        { provide: LOGGER, useValue: deps.logger },
        {
          provide: StatusService,
          useValue: new StatusService(deps.config.temporal, deps.db, deps.temporalClient),
        },
        { provide: ApiKeyAuthenticator, useValue: authenticator },
        { provide: ApiKeysService, useValue: new ApiKeysService(accounts, authenticator) },
        {
          provide: SqlRateLimiter,
          useValue: new SqlRateLimiter(deps.db, rateLimit.perSecond, rateLimit.burst),
        },
        {
          provide: RateLimiter,
          useValue: new RateLimiter(rateLimit.keyless.perSecond, rateLimit.keyless.burst),
        },
        { provide: WebhookEndpointsRepository, useValue: new WebhookEndpointsRepository(deps.db, secrets) },
        { provide: WebhookDeliveriesRepository, useValue: deliveries },
        {
          provide: WebhookPublisher,
          useValue: new WebhookPublisher(deliveries, deps.temporalClient, {
            taskQueue: deps.config.temporal.taskQueue,
            webhooks: deps.config.webhooks,
          }),
        },
        WebhooksService,
        {
          provide: EventsService,
          useValue: new EventsService(
            new EventsRepository(deps.db, secrets),
            new ListCursors(deps.config.cases.patientRefKey!),
          ),
        },
        { provide: CaseDocumentsRepository, useValue: caseDocuments },
        {
          provide: CasesService,
          useValue: new CasesService(
            deps.config,
            new CaseWorkflows(deps.temporalClient, deps.config.temporal),
            caseDocuments,
            idempotencyKeys,
            new CaseBindingEpoch(deps.db),
            connectorSettings,
            new CaseSummariesRepository(deps.db),
          ),
        },
        ...consoleProviders({ ...deps, secrets }),
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    };
  }
}
