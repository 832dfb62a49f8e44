import { DynamicModule, Module } from '@nestjs/common';

import type { AppConfig } from '../../infrastructure/config/config';

/** The NPI registry's lookup (docs/providers.md). */
@Module({})
export class ProvidersModule {
  static forRoot(_deps: { config: AppConfig }): DynamicModule {
    return { module: ProvidersModule };
  }
}
