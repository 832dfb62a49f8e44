import { registryNameMatches } from '../domain/providers/name-match';
import { type NpiRegistry, RegistryUnavailableError } from '../domain/providers/npi-registry';
import {
  caseAddressOf,
  NUCC_TAXONOMY_CODE,
  prescriberOutcome,
  type PrescriberRegistryCheck,
} from '../domain/providers/prescriber-registry';

export interface PrescriberQuery {
  npi: string;
  first_name: string;
  last_name: string;
  livemode: boolean;
}

/**
 * Asks the NPI registry of the case's mode about its prescriber (docs/providers.md). The registry
 * never stops a case: down, or disagreeing with the request, it answers why the case goes on without
 * the registry's practice address and taxonomy.
 */
export function createPrescriberRegistryActivities(registries: { forMode(livemode: boolean): NpiRegistry }) {
  return {
    async checkPrescriberInRegistry(query: PrescriberQuery): Promise<PrescriberRegistryCheck> {
      const checkedAt = new Date().toISOString();
      let record;
      try {
        record = await registries.forMode(query.livemode).byNpi(query.npi);
      } catch (error) {
        if (!(error instanceof RegistryUnavailableError)) throw error;
        return {
          outcome: 'registry_unavailable',
          checked_at: checkedAt,
          practice_address: null,
          taxonomy: null,
        };
      }
      const outcome = prescriberOutcome(
        record,
        record !== undefined && registryNameMatches(record, query.first_name, query.last_name),
      );
      const matched = outcome === 'matched' ? record : undefined;
      return {
        outcome,
        checked_at: checkedAt,
        practice_address: matched?.practice_address ? caseAddressOf(matched.practice_address) : null,
        taxonomy:
          matched?.taxonomy && NUCC_TAXONOMY_CODE.test(matched.taxonomy.code) ? matched.taxonomy : null,
      };
    },
  };
}
