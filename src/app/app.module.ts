import { DynamicModule, Global, Module } from '@nestjs/common';
import { Client } from '@temporalio/client';
import type { Logger } from 'pino';

import type { AppConfig } from '../../infrastructure/config/config';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { IdempotencyRepository } from '../../infrastructure/idempotency/idempotency.repository';
import { NpiRegistries } from '../../infrastructure/providers/npi-registries';
import type { Database } from '../../infrastructure/storage/database';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CasesModule, feedbackAnnotations } from '../cases/cases.module';

import { CodecModule } from '../codec/codec.module';
import { APP_CONFIG, DATABASE, LOGGER, TEMPORAL_CLIENT } from '../common/tokens';
import { ConnectorsModule } from '../connectors/connectors.module';
import { ConsoleModule } from '../console/console.module';
import { EventsModule } from '../events/events.module';
import { FormulariesModule } from '../formularies/formularies.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PatientsModule } from '../patients/patients.module';
import { ProgramsModule } from '../programs/programs.module';
import {
  providerAuthorizationAdmission,
  ProviderAuthorizationsModule,
} from '../provider-authorizations/provider-authorizations.module';
import { ProvidersModule } from '../providers/providers.module';
import { StatusModule } from '../status/status.module';
import { WebhooksModule } from '../webhooks/webhooks.module';

/** What the composition root opens before Nest starts; Nest never owns their lifecycle. */
export interface AppDependencies {
  config: AppConfig;
  db: Database;
  temporalClient: Client;
  logger: Logger;
}

/** The process's own resources under the tokens any feature may inject. */
@Global()
@Module({})
class ProcessResourcesModule {
  static forRoot(deps: AppDependencies): DynamicModule {
    const resources = [
      { provide: APP_CONFIG, useValue: deps.config },
      { provide: DATABASE, useValue: deps.db },
      { provide: TEMPORAL_CLIENT, useValue: deps.temporalClient },
      { provide: LOGGER, useValue: deps.logger },
    ];
    return { module: ProcessResourcesModule, providers: resources, exports: resources.map((r) => r.provide) };
  }
}

/**
 * The composition root: it builds each feature's module once, from the process's resources, and
 * hands the console the very modules whose services its pages call. The order is the API
 * document's: Nest lists each module's routes in the order it meets the modules.
 */
@Module({})
export class AppModule {
  static forRoot(deps: AppDependencies): DynamicModule {
    const withSecrets = { ...deps, secrets: new SecretBox(deps.config.encryption!) };
    const idempotencyKeys = new IdempotencyRepository(deps.db, withSecrets.secrets);
    const auth = AuthModule.forRoot(deps);
    const cases = CasesModule.forRoot({
      ...withSecrets,
      idempotencyKeys,
      extensions: {
        admission: providerAuthorizationAdmission(withSecrets),
        annotations: feedbackAnnotations(withSecrets),
      },
    });
    const webhooks = WebhooksModule.forRoot(withSecrets);
    const connectors = ConnectorsModule.forRoot(withSecrets);
    // One registry cache for the lookup, the console and authorizations alike.
    const registries = new NpiRegistries(deps.config.providers);
    const providers = ProvidersModule.forRoot({ ...deps, registries });
    const providerAuthorizations = ProviderAuthorizationsModule.forRoot({ ...withSecrets, registries });
    return {
      module: AppModule,
      imports: [
        ProcessResourcesModule.forRoot(deps),
        IdempotencyModule.forRoot(idempotencyKeys),
        StatusModule.forRoot(deps),
        CodecModule,
        auth,
        webhooks,
        EventsModule.forRoot(withSecrets),
        cases,
        ProgramsModule,
        providers,
        providerAuthorizations,
        AuditModule.forRoot(deps),
        FormulariesModule.forRoot(deps),
        connectors,
        PatientsModule.forRoot(deps),
        ConsoleModule.forRoot(withSecrets, [
          auth,
          cases,
          webhooks,
          connectors,
          providers,
          providerAuthorizations,
        ]),
      ],
    };
  }
}
