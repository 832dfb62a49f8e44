import { randomUUID } from 'node:crypto';

import { importJWK, SignJWT } from 'jose';

import type { ConnectorSigningKey } from '../../../domain/connectors/connector-settings';
import { CONNECTOR_SIGNING_ALGORITHM } from '../connector-signing-keys';

/** CDS Hooks 2.0 asks for a short-lived token: it authenticates one call, and a copy is worth little. */
const LIFETIME_SECONDS = 5 * 60;

export interface CdsHooksJwtClaims {
  /** The client id the payer registered us under: both `iss` and `sub`. */
  issuer: string;
  /** The CDS service's URL the call goes to (`aud`). */
  audience: string;
  /** Where the payer fetches the public key (`jku`). */
  jwksUrl: string;
}

/**
 * The bearer token of one CDS Hooks call ("Trusting CDS Clients"): ES384-signed with the connector's
 * current key, naming its `kid` and JWKS URL, with a random `jti` the service may use to refuse a
 * replay.
 */
export async function signCdsHooksJwt(
  key: ConnectorSigningKey,
  { issuer, audience, jwksUrl }: CdsHooksJwtClaims,
): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: CONNECTOR_SIGNING_ALGORITHM, typ: 'JWT', kid: key.kid, jku: jwksUrl })
    .setIssuer(issuer)
    .setSubject(issuer)
    .setAudience(audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(await importJWK(key.privateJwk, CONNECTOR_SIGNING_ALGORITHM));
}
