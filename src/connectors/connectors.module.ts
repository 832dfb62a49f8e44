import { DynamicModule, Module } from '@nestjs/common';

import type { AppConfig } from '../../infrastructure/config/config';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { providedByClass } from '../common/feature-modules';
import { ConnectorsController } from './connectors.controller';
import { ConnectorsService } from './connectors.service';
import { JwksController } from './jwks.controller';

// What case creation and the console's connectors page use of connectors.
export { requireConnectorFor } from './connector-requirement';
export { connectorSettingsDtoFor } from './connectors.dto';
export { connectorKindOf } from './connectors.service';
export { ConnectorsService };

/**
 * Per-account connector settings: their API, the JWKS URLs of their signing keys, and the service
 * the console and case creation use.
 */
@Module({})
export class ConnectorsModule {
  static forRoot(deps: { config: AppConfig; db: Database; secrets: SecretBox }): DynamicModule {
    const settings = new ConnectorSettingsRepository(deps.db, deps.secrets, deps.config.publicApiUrl);
    const policy = new WebhookTargetPolicy(deps.config.webhooks.allowedTargets);
    return {
      module: ConnectorsModule,
      controllers: [ConnectorsController, JwksController],
      providers: providedByClass(settings, policy, new ConnectorsService(settings, policy)),
      exports: [ConnectorsService, ConnectorSettingsRepository],
    };
  }
}
