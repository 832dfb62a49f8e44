/**
 * A prescriber's authorization of an account (contract section 13, docs/providers.md): the record
 * that the prescriber agreed to let this clinic submit benefit verifications and prior
 * authorizations in their name through the service. One durable workflow per authorization moves
 * its status; the API reads the copy it writes to the database.
 */

import { comparableName } from './name-match';

export const PROVIDER_AUTHORIZATION_STATUSES = ['pending', 'signed', 'expired', 'revoked'] as const;
export type ProviderAuthorizationStatus = (typeof PROVIDER_AUTHORIZATION_STATUSES)[number];

/** A provider authorization as the API answers it (contract section 13). */
export interface ProviderAuthorization {
  id: string;
  object: 'provider_authorization';
  npi: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  practice: string | null;
  status: ProviderAuthorizationStatus;
  /** When the signing link lapses while unsigned; null once signed, lapsed or revoked. */
  link_expires_at: string | null;
  signed_at: string | null;
  /** When a signed authorization lapses (the account's period after `signed_at`). */
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What the prescriber's signature records, besides its time (which the workflow takes). */
export interface ProviderSignature {
  /** The full name as typed. */
  typed_name: string;
  client_address: string;
  user_agent: string;
  /** SHA-256 (hex) of the exact authorization text the signing page showed. */
  text_sha256: string;
  /**
   * Whether it came from a network the account asked for one of its authorizations from, so that the
   * clinic, which can read the link, may have signed (docs/providers.md); marked, never refused.
   */
  from_requester_network: boolean;
}

/** Who moved an authorization, as the audit trail names them: the API key or console user, the prescriber, or the clock. */
export interface AuthorizationActor {
  type: 'api_key' | 'user' | 'operator' | 'prescriber' | 'system';
  id: string;
}

/** The audit actions of an authorization's life. */
export type ProviderAuthorizationAuditAction =
  | 'provider_authorization.created'
  | 'provider_authorization.signed'
  | 'provider_authorization.reminded'
  | 'provider_authorization.expired'
  | 'provider_authorization.revoked';

/** Why an authorization's mail was sent, as the outbox lists it. */
export const AUTHORIZATION_MAIL_PURPOSES = [
  'provider_authorization.signing_link',
  'provider_authorization.signing_reminder',
  'provider_authorization.confirmation',
  'provider_authorization.renewal_reminder',
] as const;
export type AuthorizationMailPurpose = (typeof AUTHORIZATION_MAIL_PURPOSES)[number];

export const DEFAULT_AUTHORIZATION_PERIOD_DAYS = 365;

/** The account setting of both modes and the period a signature lasts. */
export interface ProviderAuthorizationSettings {
  require_provider_authorization: { test: boolean; live: boolean };
  provider_authorization_period_days: number;
}

export const DEFAULT_PROVIDER_AUTHORIZATION_SETTINGS: ProviderAuthorizationSettings = {
  require_provider_authorization: { test: false, live: true },
  provider_authorization_period_days: DEFAULT_AUTHORIZATION_PERIOD_DAYS,
};

/**
 * Whether the full name the prescriber typed is the authorization's first and last name, folded as
 * the registry's match folds names, so a name the registry check took is one the prescriber can sign.
 */
export function typedNameMatches(typed: string, firstName: string, lastName: string): boolean {
  const signed = comparableName(typed);
  return signed !== '' && signed === comparableName(`${firstName}${lastName}`);
}

/**
 * The text a prescriber signs, exactly as the signing page shows it; its SHA-256 is recorded with the
 * signature, so the record proves what was agreed to.
 */
export function authorizationText(input: {
  accountName: string;
  firstName: string;
  lastName: string;
  npi: string;
  periodDays: number;
}): string[] {
  return [
    `I, ${input.firstName} ${input.lastName} (NPI ${input.npi}), authorize ${input.accountName} to submit ` +
      'benefit verifications and prior authorizations in my name through this service.',
    `This authorization lasts ${input.periodDays === 1 ? '1 day' : `${input.periodDays} days`} from the time I sign it.`,
    'I may revoke it at any time, through the link in the confirmation email or by asking the clinic; ' +
      'revoking it stops new requests in my name.',
  ];
}
