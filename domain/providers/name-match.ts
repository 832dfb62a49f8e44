import type { RegistryPersonName, RegistryProvider } from './npi-registry';

/**
 * Whether a request's prescriber is the person the registry lists under the NPI (contract section
 * 13): case- and accent-insensitive, a first initial standing for the first name, last names
 * compared whole. The registry prints names in capitals without accents (`DARCY-NGUYEN`), where a
 * clinic types `Élodie d'Arcy Nguyen`; both must read as one name. Clinics also write the middle
 * name into the first (`Mary Ann`) and a suffix or degree into the last (`Smith Jr.`, `Smith, MD`),
 * which NPPES keeps in fields of their own. An organization has no person to match, so it never matches.
 */
export function registryNameMatches(record: RegistryProvider, firstName: string, lastName: string): boolean {
  if (record.type !== 'individual' || record.first_name === null || record.last_name === null) return false;
  const names: RegistryPersonName[] = [
    { first_name: record.first_name, last_name: record.last_name, middle_name: record.middle_name },
    ...(record.other_names ?? []),
  ];
  return names.some((name) => personMatches(name, firstName, lastName));
}

function personMatches(registered: RegistryPersonName, firstName: string, lastName: string): boolean {
  const registeredLast = comparableName(registryLastName(registered.last_name));
  if (registeredLast === '' || registeredLast !== comparableName(registryLastName(lastName))) return false;
  const registeredFirst = comparableName(registered.first_name);
  const requestedFirst = comparableName(firstName);
  if (firstNamesAgree(registeredFirst, requestedFirst)) return true;
  const withMiddle = registeredFirst + comparableName(registered.middle_name ?? '');
  // `Mary Ann` for MARY with middle name ANN, or for a MARY whose middle name the registry lacks.
  return (
    (withMiddle !== registeredFirst && withMiddle === requestedFirst) ||
    (registeredFirst !== '' && comparableName(firstWordOf(firstName)) === registeredFirst)
  );
}

/** Equal, or one of them is the other's initial (`J` or `J.` for `JANE`). */
function firstNamesAgree(registered: string, requested: string): boolean {
  if (registered === '' || requested === '') return false;
  if (registered === requested) return true;
  const initial = registered.length === 1 ? registered : requested.length === 1 ? requested : undefined;
  return initial !== undefined && registered[0] === requested[0];
}

function firstWordOf(name: string): string {
  return name.trim().split(/\s+/u)[0] ?? '';
}

/**
 * What clinics write after a last name that NPPES keeps in fields of their own: a generational
 * suffix (`name_suffix`) or a prescriber's degree (`credential`).
 */
export const NAME_SUFFIXES = [
  'JR',
  'SR',
  'II',
  'III',
  'IV',
  'MD',
  'DO',
  'DDS',
  'DMD',
  'DPM',
  'NP',
  'PA',
  'PA-C',
  'PHD',
];

/** Each suffix with or without periods (`M.D.`, `Ph.D.`). */
const SUFFIX_PATTERN = NAME_SUFFIXES.map((suffix) => [...suffix].join('\\.?')).join('|');

/**
 * The words after a last name, each apart from it by a space or comma, that are all suffixes
 * (`SMITH JR.`, `SMITH, III`, `SMITH JR., MD`). A name that merely ends in these letters (`SMITHJR`,
 * `OSTRII`) or is only a suffix (`DO`) is left whole.
 */
const SUFFIXES_AFTER_LAST_NAME = new RegExp(`^(.*?\\S)(?:[\\s,]+(?:${SUFFIX_PATTERN})\\.?)+,?\\s*$`, 'u');

/**
 * A last name as the registry keeps it, to compare or to ask for: spelt as the registry spells
 * names, without the suffixes written after it (`Smith Jr.` and `Smith, M.D.` are `SMITH`). NPPES
 * matches a last name whole, so it finds nobody named `SMITH JR.`.
 */
export function registryLastName(lastName: string): string {
  return registrySpelling(lastName).trim().replace(SUFFIXES_AFTER_LAST_NAME, '$1');
}

/** Letters Unicode does not split into a base letter and a mark, as the registry spells them. */
const UNSPLIT_LETTERS: Readonly<Record<string, string>> = {
  Ø: 'O',
  Ł: 'L',
  Đ: 'D',
  Æ: 'AE',
  Œ: 'OE',
  Þ: 'TH',
};

/**
 * A name as the registry spells names: capitals without accents (NFKD splits `É` into `E` and its
 * mark, and reads the full-width `Ｊ` or the ligature `ﬁ` some keyboards and PDFs give as `J` and
 * `FI`), so `Núñez` is asked for and compared as `NUNEZ`, with the plain apostrophe for the
 * typographic one phones and word processors type: NPPES finds nobody named `O’BRIEN`.
 */
export function registrySpelling(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[ØŁĐÆŒÞ]/gu, (letter) => UNSPLIT_LETTERS[letter]!)
    .replace(/[’ʼ]/gu, "'");
}

/**
 * A name reduced to its letters and digits as the registry spells them, without the separators
 * people write differently (`D'Arcy`, `Darcy`, `Mary-Ann`, `Mary Ann`, `J.`): the one folding of
 * names, for the registry's match and for the name a prescriber types to sign alike.
 */
export function comparableName(name: string): string {
  return registrySpelling(name).replace(/[^\p{L}\p{N}]/gu, '');
}
