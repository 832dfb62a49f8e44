import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';

import type { AppConfig } from '../../infrastructure/config/config';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';

/** Prescribers' authorizations of the account (docs/providers.md). */
@Module({})
export class ProviderAuthorizationsModule {
  static forRoot(_deps: {
    config: AppConfig;
    db: Database;
    temporalClient: Client;
    secrets: SecretBox;
  }): DynamicModule {
    return { module: ProviderAuthorizationsModule };
  }
}
