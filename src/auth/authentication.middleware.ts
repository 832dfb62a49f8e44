import type { NextFunction, Request, Response } from 'express';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { JWKS_ROUTE } from '../../infrastructure/connectors/connector-signing-keys';
import { SqlRateLimiter } from '../../infrastructure/rate-limits/sql-rate-limiter';
import { ApiError } from '../common/errors';
import { ContextualRequest } from '../common/request-context';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { RateLimiter } from './rate-limiter';

declare module '../common/request-context' {
  interface RequestContext {
    /** Who the request acts as: the API key's account and roles, or the console user's. */
    principal?: Principal;
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{16,256})$/;

/** Documentation carries no account data, and a browser cannot attach a bearer key to a page load. */
const PUBLIC_PATHS = /^\/(docs(\/.*)?|openapi\.(json|yaml))$/;

/**
 * A payer's CDS service fetches a connector's public keys without a key of ours. Each fetch costs a
 * lookup, so it spends a token of the address's keyless bucket: guessing JWKS ids is as slow as
 * guessing API keys.
 */
const JWKS_PATH = new RegExp(`^/${JWKS_ROUTE}/[^/]+$`);

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;
const FORWARDING_HEADERS = ['forwarded', 'x-real-ip'];

export interface AuthenticationDependencies {
  config: AppConfig;
  authenticator: ApiKeyAuthenticator;
  /** Per API key, shared by every API process. */
  keyedLimiter: SqlRateLimiter;
  /** Per client address, for requests without a usable key; in memory, so they cost no query. */
  keylessLimiter: RateLimiter;
}

/**
 * Authenticates a request before anything reads its body: a request without a valid key costs no
 * parsing, and one without a well-formed key costs no database lookup either. It also spends the
 * key's rate-limit token. The Nest guard then applies each route's role.
 */
export function authenticateBeforeBody(deps: AuthenticationDependencies) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    authenticate(req as ContextualRequest, deps).then(() => next(), next);
  };
}

async function authenticate(req: ContextualRequest, deps: AuthenticationDependencies): Promise<void> {
  // The console's only credential is its session cookie (console-edge.ts); keys never open it.
  if (PUBLIC_PATHS.test(req.path) || req.context.throughConsoleEdge) return;
  const authorization = req.headers.authorization;
  if (authorization === undefined && deps.config.codec.trustLoopback && isLocalBrowserRequest(req)) {
    req.context.loopbackTrusted = true;
    return;
  }

  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (JWKS_PATH.test(req.path)) {
    const wait = deps.keylessLimiter.take(address);
    if (wait > 0) throw rateLimited(wait, 'Too many key set requests from this address; slow down.');
    return;
  }
  const secret = BEARER.exec(authorization ?? '')?.[1];
  if (!secret) throw refusal(deps.keylessLimiter.take(address));
  let spentAddressToken = false;
  const principal = await deps.authenticator.principalFor(secret, () => {
    // A lookup of a key this process does not know spends one of the address's tokens before it
    // starts, so concurrent guesses cannot outrun the limit; a key that turns out valid gives it
    // back, and a key this process already knows never spends one.
    const wait = deps.keylessLimiter.take(address);
    if (wait > 0) throw rateLimited(wait, 'Too many requests without a valid API key from this address.');
    spentAddressToken = true;
  });
  if (!principal) throw ApiError.unauthorized();
  if (spentAddressToken) deps.keylessLimiter.refund(address);
  req.context.principal = principal;

  const keyWait = await deps.keyedLimiter.take(principal.credential.id);
  if (keyWait > 0) throw rateLimited(keyWait, 'Too many requests for this API key; slow down.');
}

/**
 * Temporal Web in local mode has no login and so cannot send a key. Trust needs more than a loopback
 * socket: a page from another site can reach 127.0.0.1 through DNS rebinding, but its requests then
 * carry that site's name in Host; and a proxy on this machine marks what it forwards.
 */
function isLocalBrowserRequest(req: Request): boolean {
  return (
    req.path.startsWith('/codec/') &&
    isLoopbackAddress(req.socket.remoteAddress) &&
    LOOPBACK_HOST.test(req.headers.host ?? '') &&
    !Object.keys(req.headers).some(
      (name) => name.startsWith('x-forwarded-') || FORWARDING_HEADERS.includes(name),
    )
  );
}

function isLoopbackAddress(address: string | undefined): boolean {
  return (
    address === '::1' || address?.startsWith('127.') === true || address?.startsWith('::ffff:127.') === true
  );
}

function refusal(waitSeconds: number): ApiError {
  return waitSeconds > 0
    ? rateLimited(waitSeconds, 'Too many requests without a valid API key from this address.')
    : ApiError.unauthorized();
}

function rateLimited(waitSeconds: number, message: string): ApiError {
  return new ApiError('rate_limited', message, [], { 'Retry-After': String(waitSeconds) });
}
