import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';

import type { AppConfig } from '../../infrastructure/config/config';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { AccountSettingsRepository } from '../../infrastructure/provider-authorizations/account-settings.repository';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import { SigningLinksRepository } from '../../infrastructure/provider-authorizations/signing-links.repository';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { NpiRegistries } from '../../infrastructure/providers/npi-registries';
import type { Database } from '../../infrastructure/storage/database';
import { providedByClass } from '../common/feature-modules';
import {
  AccountSettingsController,
  ProviderAuthorizationsController,
} from './provider-authorizations.controller';
import { type RegistriesByMode, ProviderAuthorizationsService } from './provider-authorizations.service';

// What the composition root and the console's Providers pages (the signing pages among them) use.
export { CreateProviderAuthorizationDto } from './provider-authorizations.dto';
export { providerAuthorizationAdmission } from './provider-authorization-admission';
export { requestOrigin } from './request-origin';
export type { ScopedAuthorization } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
export type { LinkPurpose } from '../../infrastructure/provider-authorizations/signing-links.repository';
export { ProviderAuthorizationsService };

/** Prescribers' authorizations of the account (docs/providers.md): the API, the signing pages and the service the console shares. */
@Module({})
export class ProviderAuthorizationsModule {
  static forRoot(deps: {
    config: AppConfig;
    db: Database;
    temporalClient: Client;
    secrets: SecretBox;
    /** The registry of each mode; NPPES and the sandbox registry by default. */
    registries?: RegistriesByMode;
  }): DynamicModule {
    const authorizations = new ProviderAuthorizationsRepository(deps.db);
    const links = new SigningLinksRepository(deps.db);
    const connectors = new ConnectorSettingsRepository(deps.db, deps.secrets);
    const service = new ProviderAuthorizationsService(
      deps.temporalClient,
      deps.config.temporal,
      deps.config.providers,
      deps.registries ?? new NpiRegistries(deps.config.providers),
      authorizations,
      new AccountSettingsRepository(deps.db),
      links,
      async (accountId) => deps.config.mode === 'local' || (await connectors.isConfigured(accountId, 'mail')),
      deps.config.cases.patientRefKey!,
    );
    return {
      module: ProviderAuthorizationsModule,
      controllers: [ProviderAuthorizationsController, AccountSettingsController],
      providers: providedByClass(service),
      exports: [ProviderAuthorizationsService],
    };
  }
}
