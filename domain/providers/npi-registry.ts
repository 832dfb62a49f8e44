/**
 * The NPI registry as the service sees it (docs/providers.md): NPPES in live mode, the sandbox
 * registry in test mode. Its answers are public directory data, not PHI, but are never echoed back
 * in a refusal (contract section 13).
 */

export type RegistryProviderType = 'individual' | 'organization';

export interface RegistryAddress {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postal_code: string;
  phone: string | null;
}

export interface RegistryPersonName {
  first_name: string;
  last_name: string;
  /** Kept for matching a first name typed with it (`Mary Ann`); absent when the registry has none. */
  middle_name?: string;
}

/** One registry record in the shape `GET /providers/lookup` answers (contract section 13). */
export interface RegistryProvider {
  npi: string;
  type: RegistryProviderType;
  /** An individual's name as printed (`JANE A SMITH`), or the organization's. */
  name: string;
  /** An individual's first and last names, for matching; absent for an organization. */
  first_name: string | null;
  last_name: string | null;
  /** An individual's middle name, when the registry has one: for matching only, as the names above. */
  middle_name?: string;
  /**
   * The other names the registry lists for an individual (a former or professional name); a request
   * naming the prescriber by one of them names the same person.
   */
  other_names?: RegistryPersonName[];
  credential: string | null;
  /** The primary taxonomy. */
  taxonomy: { code: string; description: string } | null;
  practice_address: RegistryAddress | null;
  active: boolean;
}

/** The registry could not be asked (down, timed out, or answered something unreadable). */
export class RegistryUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`The NPI registry is unavailable: ${reason}`);
    this.name = 'RegistryUnavailableError';
  }
}

/**
 * The registry refused the question itself (its `Errors` answer): a caller's query it cannot search
 * by, not an outage. `fields` names our query's fields it concerns; the registry's wording stays here.
 */
export class RegistryQueryError extends Error {
  constructor(readonly fields: string[]) {
    super(`The NPI registry refused the query (${fields.join(', ') || 'no field named'})`);
    this.name = 'RegistryQueryError';
  }
}

export interface NpiRegistry {
  /** The record of one NPI, or undefined when the registry does not return it. */
  byNpi(npi: string): Promise<RegistryProvider | undefined>;
  /** Individuals by last name in a state (two-letter code), at most `limit` of them. */
  byName(lastName: string, state: string, limit?: number): Promise<RegistryProvider[]>;
}
