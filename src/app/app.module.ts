import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Client } from '@temporalio/client';
import type { Logger } from 'pino';

import { AccountsRepository } from '../auth/accounts.repository';
import { ApiKeysController } from '../auth/api-keys.controller';
import { AuthGuard } from '../auth/auth.guard';
import { RateLimiter } from '../auth/rate-limiter';
import { CodecController } from '../codec/codec.controller';
import type { AppConfig } from '../config/config';
import { StatusController } from '../status/status.controller';
import type { Database } from '../storage/database';
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
    return {
      module: AppModule,
      controllers: [StatusController, CodecController, ApiKeysController],
      providers: [
        { provide: APP_CONFIG, useValue: deps.config },
        { provide: DATABASE, useValue: deps.db },
        { provide: TEMPORAL_CLIENT, useValue: deps.temporalClient },
        { provide: LOGGER, useValue: deps.logger },
        { provide: AccountsRepository, useValue: new AccountsRepository(deps.db) },
        {
          provide: RateLimiter,
          useValue: new RateLimiter(deps.config.rateLimit.perSecond, deps.config.rateLimit.burst),
        },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
    };
  }
}
