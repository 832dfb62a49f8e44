import { registryLastName } from '../../domain/providers/name-match';
import type { ProviderRegistryRecord } from '../../domain/providers/registry-record';
import { registryRecordOf } from '../../domain/providers/registry-record';
import type { NpiRegistries } from '../../infrastructure/providers/npi-registries';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import type { ListObject } from '../common/envelope';
import { ApiError } from '../common/errors';
import { registryRefusalOf } from './registry-refusals';

/** The most records a search by name answers; `has_more` says when the registry holds more. */
export const MAX_LOOKUP_RESULTS = 20;

/**
 * Looks prescribers up in the registry of the caller's mode (docs/providers.md): NPPES for a live
 * key, the sandbox registry for a test key. Answers are the registry's public directory data.
 */
export class ProviderLookupService {
  constructor(private readonly registries: NpiRegistries) {}

  async byNpi(principal: Principal, npi: string): Promise<ProviderRegistryRecord> {
    const record = await this.asking(() => this.registries.forMode(principal.livemode).byNpi(npi));
    if (!record) throw ApiError.notFound('The NPI registry does not return this NPI.');
    return registryRecordOf(record);
  }

  async byName(
    principal: Principal,
    lastName: string,
    state: string,
  ): Promise<ListObject<ProviderRegistryRecord>> {
    // One more than a page: whether it came back says if there are more.
    const found = await this.asking(() =>
      this.registries
        .forMode(principal.livemode)
        .byName(registryLastName(lastName), state.toUpperCase(), MAX_LOOKUP_RESULTS + 1),
    );
    return {
      object: 'list',
      data: found.slice(0, MAX_LOOKUP_RESULTS).map(registryRecordOf),
      has_more: found.length > MAX_LOOKUP_RESULTS,
      next_cursor: null,
    };
  }

  private async asking<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch (error) {
      throw registryRefusalOf(error) ?? error;
    }
  }
}
