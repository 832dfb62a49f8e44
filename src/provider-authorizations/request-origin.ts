import type { Request } from 'express';

import type { RequestOrigin } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';

const USER_AGENT_MAX_LENGTH = 512;

/**
 * Where a request about an authorization came from, as its start and its signature record it: the
 * client address (`req.ip`, so `TRUSTED_PROXY_HOPS` applies) and the user agent, 512 characters at most.
 */
export function requestOrigin(req: Request): RequestOrigin {
  return {
    address: req.ip ?? 'unknown',
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, USER_AGENT_MAX_LENGTH),
  };
}
