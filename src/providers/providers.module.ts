import { DynamicModule, Module } from '@nestjs/common';

import type { AppConfig } from '../../infrastructure/config/config';
import { NpiRegistries } from '../../infrastructure/providers/npi-registries';
import { providedByClass } from '../common/feature-modules';
import { ProviderLookupService } from './provider-lookup.service';
import { ProvidersController } from './providers.controller';

export { ProviderLookupService } from './provider-lookup.service';
export { RegistryLookupQueryDto } from './registry-lookup.dto';

/**
 * The NPI registry's lookup (docs/providers.md). The API and the console share its registries, so
 * one cache serves both; they are exported for the features that ask the registry too.
 */
@Module({})
export class ProvidersModule {
  /** `registries`: the process's own, when the composition root shares one cache among features. */
  static forRoot(deps: { config: AppConfig; registries?: NpiRegistries }): DynamicModule {
    const registries = deps.registries ?? new NpiRegistries(deps.config.providers);
    const lookups = new ProviderLookupService(registries);
    return {
      module: ProvidersModule,
      controllers: [ProvidersController],
      providers: providedByClass(registries, lookups),
      exports: [NpiRegistries, ProviderLookupService],
    };
  }
}
