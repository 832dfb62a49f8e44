import type {
  RegistryAddress,
  RegistryPersonName,
  RegistryProvider,
} from '../../domain/providers/npi-registry';

/**
 * The NPPES NPI Registry API's answer (version 2.1), as much of it as the service reads. The
 * registry answers HTTP 200 both ways: `results` for a search it ran, `Errors` for a query it would
 * not run. test/providers/npi-registry.test.ts holds the documented shape as a JSON
 * schema and checks the sandbox fixture against it.
 */
export interface NppesAnswer {
  result_count?: number;
  results?: NppesRecord[];
  Errors?: NppesError[];
}

export interface NppesError {
  description?: string;
  field?: string;
  number?: string;
}

export interface NppesRecord {
  /** The NPI; older answers carry it as a number. */
  number: string | number;
  enumeration_type: 'NPI-1' | 'NPI-2';
  basic: NppesBasic;
  addresses?: NppesAddress[];
  taxonomies?: NppesTaxonomy[];
  other_names?: NppesOtherName[];
}

export interface NppesBasic {
  first_name?: string;
  last_name?: string;
  middle_name?: string;
  credential?: string;
  organization_name?: string;
  /** `A` while the NPI is active. */
  status?: string;
  deactivation_date?: string;
  deactivation_reason_code?: string;
  [field: string]: unknown;
}

export interface NppesAddress {
  address_purpose: 'LOCATION' | 'MAILING' | string;
  address_1: string;
  address_2?: string;
  city: string;
  state: string;
  postal_code: string;
  telephone_number?: string;
  [field: string]: unknown;
}

export interface NppesTaxonomy {
  code: string;
  desc: string;
  primary: boolean;
  [field: string]: unknown;
}

export interface NppesOtherName {
  type?: string;
  code?: string;
  first_name?: string;
  middle_name?: string;
  last_name?: string;
  organization_name?: string;
  [field: string]: unknown;
}

/** One NPPES record in our shape: the LOCATION address, the primary taxonomy, active from `basic.status`. */
export function registryProviderOf(record: NppesRecord): RegistryProvider {
  const basic = record.basic;
  const individual = record.enumeration_type === 'NPI-1';
  const location = record.addresses?.find((address) => address.address_purpose === 'LOCATION');
  const taxonomies = record.taxonomies ?? [];
  const primary = taxonomies.find((taxonomy) => taxonomy.primary) ?? taxonomies[0];
  return {
    npi: String(record.number),
    type: individual ? 'individual' : 'organization',
    name: individual
      ? [basic.first_name, basic.middle_name, basic.last_name].filter(present).join(' ')
      : (basic.organization_name ?? ''),
    first_name: individual ? (basic.first_name ?? null) : null,
    last_name: individual ? (basic.last_name ?? null) : null,
    ...(individual && present(basic.middle_name) && { middle_name: basic.middle_name }),
    ...(individual && { other_names: personNamesOf(record.other_names ?? []) }),
    credential: present(basic.credential) ? basic.credential : null,
    taxonomy: primary ? { code: primary.code, description: primary.desc } : null,
    practice_address: location ? addressOf(location) : null,
    active: basic.status === 'A',
  };
}

function personNamesOf(names: NppesOtherName[]): RegistryPersonName[] {
  return names.flatMap((name) =>
    present(name.first_name) && present(name.last_name)
      ? [
          {
            first_name: name.first_name,
            last_name: name.last_name,
            ...(present(name.middle_name) && { middle_name: name.middle_name }),
          },
        ]
      : [],
  );
}

function addressOf(address: NppesAddress): RegistryAddress {
  return {
    line1: address.address_1,
    line2: present(address.address_2) ? address.address_2 : null,
    city: address.city,
    state: address.state,
    postal_code: address.postal_code,
    phone: present(address.telephone_number) ? address.telephone_number : null,
  };
}

function present(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** What a lookup asks the registry: one NPI, or individuals by last name in a state. */
export type NppesQuery =
  { number: string } | { last_name: string; state: string; enumeration_type: 'NPI-1'; limit: number };

/** The query string of the NPPES API for a lookup, version 2.1 named first as the API asks. */
export function nppesSearchParameters(query: NppesQuery): URLSearchParams {
  return new URLSearchParams({
    version: '2.1',
    ...Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
  });
}

/**
 * Runs a query over registry records as NPPES does for the questions the service asks: an NPI
 * exactly; a last name whole and in any case, the person's own or one of their other names, with a
 * practice location in the state. The sandbox registry and the loopback registry of the tests both
 * answer from the fixture through this, so they cannot disagree.
 */
export function searchRecords(records: readonly NppesRecord[], query: NppesQuery): NppesRecord[] {
  if ('number' in query) return records.filter((record) => String(record.number) === query.number);
  const lastName = query.last_name.toUpperCase();
  const state = query.state.toUpperCase();
  return records
    .filter(
      (record) =>
        record.enumeration_type === query.enumeration_type &&
        [record.basic.last_name, ...(record.other_names ?? []).map((name) => name.last_name)].some(
          (name) => name?.toUpperCase() === lastName,
        ) &&
        record.addresses?.some(
          (address) => address.address_purpose === 'LOCATION' && address.state.toUpperCase() === state,
        ),
    )
    .slice(0, query.limit);
}
