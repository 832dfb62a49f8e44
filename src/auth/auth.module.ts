import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { SqlRateLimiter } from '../../infrastructure/rate-limits/sql-rate-limiter';
import type { Database } from '../../infrastructure/storage/database';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { AuthGuard } from './auth.guard';
import { RateLimiter } from './rate-limiter';

// What the console's API keys page and the composition root's edge use of auth.
export { CreateApiKeyDto } from './api-keys.controller';

export { authenticateBeforeBody } from './authentication.middleware';
export { ApiKeyAuthenticator, ApiKeysService, RateLimiter };

/**
 * API keys and who may call what: the keys' API, the authenticator the edge runs before any body
 * is read, the per-key and keyless rate limits, and the guard that checks each route's role.
 */
@Module({})
export class AuthModule {
  static forRoot(deps: { config: AppConfig; db: Database }): DynamicModule {
    const accounts = new AccountsRepository(deps.db);
    const authenticator = new ApiKeyAuthenticator(accounts, deps.config.apiKeyCacheTtlMs);
    const { rateLimit } = deps.config;
    return {
      module: AuthModule,
      controllers: [ApiKeysController],
      providers: [
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
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [ApiKeysService],
    };
  }
}
