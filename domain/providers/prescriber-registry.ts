import type { Address, Provider } from '../cases/case-model';
import type { RegistryAddress, RegistryProvider } from './npi-registry';

/**
 * What the NPI registry said of a case's prescriber (docs/providers.md): only a `matched` answer
 * lends the case its practice address and taxonomy, where the request leaves them out. Any other
 * outcome is the reason the case went on without them; none of them stops a case.
 */
export type PrescriberRegistryOutcome =
  'matched' | 'name_mismatch' | 'inactive' | 'organization' | 'not_found' | 'registry_unavailable';

export interface PrescriberRegistryCheck {
  outcome: PrescriberRegistryOutcome;
  checked_at: string;
  /** The registry's practice location, kept only when `matched`. */
  practice_address: Address | null;
  /** The registry's primary taxonomy (NUCC), kept only when `matched`. */
  taxonomy: { code: string; description: string } | null;
}

/** The outcome of one registry record against the name the request gives its prescriber. */
export function prescriberOutcome(
  record: RegistryProvider | undefined,
  nameMatches: boolean,
): PrescriberRegistryOutcome {
  if (!record) return 'not_found';
  if (record.type === 'organization') return 'organization';
  if (!record.active) return 'inactive';
  return nameMatches ? 'matched' : 'name_mismatch';
}

export function caseAddressOf(address: RegistryAddress): Address {
  return {
    street: address.line1,
    ...(address.line2 && { street_line_2: address.line2 }),
    city: address.city,
    state_province: address.state,
    zip_postal_code: zipCode(address.postal_code),
    country: 'US',
  };
}

/**
 * The prescriber as the payer is told of them: the request's own details first, the registry's
 * practice address and taxonomy where the request leaves them out.
 */
export function prescriberForPayer(
  provider: Provider,
  check: PrescriberRegistryCheck | null | undefined,
): Provider & { taxonomy?: { code: string; description: string } } {
  return {
    ...provider,
    ...(!provider.address && check?.practice_address && { address: check.practice_address }),
    ...(check?.taxonomy && { taxonomy: check.taxonomy }),
  };
}

/** NPPES writes a ZIP+4 as nine digits; payers and the request's own addresses write `#####-####`. */
function zipCode(postalCode: string): string {
  return /^\d{9}$/.test(postalCode) ? `${postalCode.slice(0, 5)}-${postalCode.slice(5)}` : postalCode;
}

/**
 * A NUCC taxonomy code as payers take it (ten characters ending in X). A registry record with any
 * other lends no taxonomy: a code the 270 refuses would otherwise stop the case it only informs.
 */
export const NUCC_TAXONOMY_CODE = /^[0-9]{3}[0-9A-Z]{6}X$/;
