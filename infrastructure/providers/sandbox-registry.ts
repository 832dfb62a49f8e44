import {
  type NpiRegistry,
  type RegistryProvider,
  RegistryUnavailableError,
} from '../../domain/providers/npi-registry';
import {
  type NppesAnswer,
  type NppesQuery,
  type NppesRecord,
  registryProviderOf,
  searchRecords,
} from './nppes-answer';
import { DEFAULT_NAME_SEARCH_LIMIT } from './nppes-registry';
import fixture from './sandbox-registry.json';

/**
 * The sandbox registry's fictional providers, one per case worth testing (docs/providers.md,
 * "The sandbox registry"). Their NPIs pass the check digit; none is a real prescriber's.
 */
export const SANDBOX_NPIS = {
  /** Active individual: AMADOU REVIEWSWORTH, the NPI of the README, the examples and the tests. */
  active: '1234567893',
  /** Active individual with an accented, hyphenated name: ELODIE M D'ARCY-NGUYEN. */
  activeHyphenated: '1000000012',
  /** An NPI with a valid check digit that the registry does not return. */
  notReturned: '1999999992',
  /** An organization (NPI-2): SANDBOX RIVERSIDE FAMILY PRACTICE. */
  organization: '1000000020',
  /** A deactivated individual: CASSIUS VANTERPOOL. */
  deactivated: '1000000038',
  /** Active individual MORGAN ELSEWHERE: a request naming anyone else is a name mismatch. */
  nameMismatch: '1000000046',
  /** The registry is down whenever it is asked about this NPI. */
  registryDown: '1888888884',
} as const;

/** The registry is down whenever it is asked for individuals of this last name, in any state. */
export const SANDBOX_REGISTRY_DOWN_LAST_NAME = 'UNAVAILABLE';

/** The fixture's records, in NPPES's own answer shape. */
export function sandboxRegistryRecords(): readonly NppesRecord[] {
  return (fixture as NppesAnswer).results ?? [];
}

/** Whether the sandbox plays an outage for this query: the loopback registry of the tests reads it too. */
export function sandboxRegistryIsDownFor(query: NppesQuery): boolean {
  return 'number' in query
    ? query.number === SANDBOX_NPIS.registryDown
    : query.last_name.toUpperCase() === SANDBOX_REGISTRY_DOWN_LAST_NAME;
}

/**
 * Test mode's registry, in-process: it answers from the fixture through the mapper the NPPES client
 * uses, so the sandbox and live mode answer in one shape.
 */
export class SandboxRegistry implements NpiRegistry {
  async byNpi(npi: string): Promise<RegistryProvider | undefined> {
    return this.search({ number: npi })[0];
  }

  async byName(
    lastName: string,
    state: string,
    limit = DEFAULT_NAME_SEARCH_LIMIT,
  ): Promise<RegistryProvider[]> {
    return this.search({ last_name: lastName, state, enumeration_type: 'NPI-1', limit });
  }

  private search(query: NppesQuery): RegistryProvider[] {
    if (sandboxRegistryIsDownFor(query)) {
      throw new RegistryUnavailableError('the sandbox registry plays an outage for this query');
    }
    return searchRecords(sandboxRegistryRecords(), query).map(registryProviderOf);
  }
}
