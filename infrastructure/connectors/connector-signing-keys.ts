import { randomBytes } from 'node:crypto';

import { exportJWK, generateKeyPair } from 'jose';

import type { PrivateJwk } from '../../domain/connectors/connector-settings';

/** CDS Hooks allows ES384 and RS384; an EC key is smaller and faster to sign with. */
export const CONNECTOR_SIGNING_ALGORITHM = 'ES384';

/** A public key as the JWKS URL publishes it. */
export interface PublishedJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
  kid: string;
  alg: typeof CONNECTOR_SIGNING_ALGORITHM;
  use: 'sig';
}

export interface GeneratedSigningKey {
  kid: string;
  privateJwk: PrivateJwk;
  publicJwk: PublishedJwk;
}

/** The path of the JWKS URL under the API's public address; its last segment is the connector's jwks id. */
export const JWKS_ROUTE = 'jwks';

/** 144 random bits: a JWKS URL cannot be found by guessing, and names no account. */
export function newJwksId(): string {
  return `jwks_${randomBytes(18).toString('base64url')}`;
}

export function jwksUrlOf(publicApiUrl: string, jwksId: string): string {
  return `${publicApiUrl}/${JWKS_ROUTE}/${jwksId}`;
}

/** A fresh ES384 key pair with a random, opaque key id. */
export async function generateSigningKey(): Promise<GeneratedSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(CONNECTOR_SIGNING_ALGORITHM, { extractable: true });
  const kid = randomBytes(12).toString('base64url');
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const publicJwk: PublishedJwk = {
    kty: kty!,
    crv: crv!,
    x: x!,
    y: y!,
    kid,
    alg: CONNECTOR_SIGNING_ALGORITHM,
    use: 'sig',
  };
  const { d } = await exportJWK(privateKey);
  return { kid, privateJwk: { ...publicJwk, d: d! }, publicJwk };
}
