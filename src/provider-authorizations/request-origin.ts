import type { Request } from 'express';

import { networkOf } from '../../domain/providers/requester-network';
import { keyedReference } from '../../infrastructure/crypto/keyed-reference';

const USER_AGENT_MAX_LENGTH = 512;

/** Where a request came from, as a signature records it. */
export interface RequestOrigin {
  address: string;
  userAgent: string;
}

/**
 * Where a request about an authorization came from: the client address (`req.ip`, so
 * `TRUSTED_PROXY_HOPS` applies) and the user agent, 512 characters at most.
 */
export function requestOrigin(req: Request): RequestOrigin {
  return {
    address: req.ip ?? 'unknown',
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, USER_AGENT_MAX_LENGTH),
  };
}

/**
 * The network of a client address as an authorization keeps it (docs/providers.md, "Signed from the
 * requester's network"): a keyed hash of the account and the network, as the patient reference is
 * (`patientRefOf`), so equal networks of one account compare equal in SQL while the column names no
 * address, nor the same network alike across accounts. Undefined for what is not an address.
 */
export function requesterNetworkRef(key: Buffer, accountId: string, address: string): string | undefined {
  const network = networkOf(address);
  if (network === undefined) return undefined;
  // JSON keeps the parts apart, and the label keeps these hashes apart from the key's other uses.
  return keyedReference(key, JSON.stringify(['requester_network', accountId, network]));
}
