import type { RegistryAddress, RegistryProvider, RegistryProviderType } from './npi-registry';

/**
 * One registry record as `GET /providers/lookup` answers it (contract section 13): public directory
 * data about a prescriber or an organization, never PHI. What the service keeps only for matching (an
 * individual's first, last and other names) stays out.
 */
export interface ProviderRegistryRecord {
  object: 'provider_registry_record';
  npi: string;
  type: RegistryProviderType;
  /** An individual's name as the registry prints it (`ELODIE M D'ARCY-NGUYEN`), or the organization's. */
  name: string;
  credential: string | null;
  /** The primary taxonomy (NUCC code and its description). */
  taxonomy: { code: string; description: string } | null;
  /** The practice location; the registry's mailing address is left out. */
  practice_address: RegistryAddress | null;
  /** Whether the NPI is active; a deactivated NPI is still answered, as inactive. */
  active: boolean;
}

export function registryRecordOf(provider: RegistryProvider): ProviderRegistryRecord {
  return {
    object: 'provider_registry_record',
    npi: provider.npi,
    type: provider.type,
    name: provider.name,
    credential: provider.credential,
    taxonomy: provider.taxonomy,
    practice_address: provider.practice_address,
    active: provider.active,
  };
}
