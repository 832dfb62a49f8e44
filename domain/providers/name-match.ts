import type { RegistryPersonName, RegistryProvider } from './npi-registry';

/**
 * Whether a request's prescriber is the person the registry lists under the NPI (contract section
 * 13): case- and accent-insensitive, a first initial standing for the first name, last names
 * compared whole. The registry prints names in capitals without accents (`DARCY-NGUYEN`), where a
 * clinic types `Élodie d'Arcy Nguyen`; both must read as one name. An organization has no person to
 * match, so it never matches.
 */
export function registryNameMatches(record: RegistryProvider, firstName: string, lastName: string): boolean {
  if (record.type !== 'individual' || record.first_name === null || record.last_name === null) return false;
  const names: RegistryPersonName[] = [
    { first_name: record.first_name, last_name: record.last_name },
    ...(record.other_names ?? []),
  ];
  return names.some((name) => personMatches(name, firstName, lastName));
}

function personMatches(registered: RegistryPersonName, firstName: string, lastName: string): boolean {
  const registeredLast = comparable(registered.last_name);
  if (registeredLast === '' || registeredLast !== comparable(lastName)) return false;
  return firstNamesAgree(comparable(registered.first_name), comparable(firstName));
}

/** Equal, or one of them is the other's initial (`J` or `J.` for `JANE`). */
function firstNamesAgree(registered: string, requested: string): boolean {
  if (registered === '' || requested === '') return false;
  if (registered === requested) return true;
  const initial = registered.length === 1 ? registered : requested.length === 1 ? requested : undefined;
  return initial !== undefined && registered[0] === requested[0];
}

/**
 * A name reduced to its letters and digits in capitals: accents dropped (NFD splits `É` into `E` and
 * its mark), and the separators people write differently (`D'Arcy`, `Darcy`, `Mary-Ann`, `Mary Ann`,
 * `J.`) removed.
 */
function comparable(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}
