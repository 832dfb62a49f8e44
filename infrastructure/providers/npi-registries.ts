import type { NpiRegistry } from '../../domain/providers/npi-registry';
import type { ProviderSettings } from '../config/config';
import { CachedRegistry } from './cached-registry';
import { NppesRegistry } from './nppes-registry';
import { SandboxRegistry } from './sandbox-registry';

export interface NpiRegistriesOptions {
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * The registry each mode asks (docs/providers.md): live mode NPPES at `registryUrl`; test mode the
 * registry at `sandboxRegistryUrl` when one is set (a loopback registry in tests), else the sandbox
 * fixture in-process. Registries that go over the network are cached; each mode's is built once, so
 * its cache serves every caller holding this object.
 */
export class NpiRegistries {
  private readonly live: NpiRegistry;
  private readonly test: NpiRegistry;

  constructor(settings: ProviderSettings, options: NpiRegistriesOptions = {}) {
    const cached = (url: string) =>
      new CachedRegistry(
        new NppesRegistry({ url, timeoutMs: settings.registryTimeoutMs, fetch: options.fetch }),
        {
          ttlMs: settings.registryCacheMs,
          now: options.now,
        },
      );
    this.live = cached(settings.registryUrl);
    this.test = settings.sandboxRegistryUrl ? cached(settings.sandboxRegistryUrl) : new SandboxRegistry();
  }

  forMode(livemode: boolean): NpiRegistry {
    return livemode ? this.live : this.test;
  }
}
