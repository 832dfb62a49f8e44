import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as path from 'node:path';

import express, { NextFunction, Request, Response, Router } from 'express';

import { projectRoot } from '../../infrastructure/project-root';
import { ConsoleSessionsRepository } from '../../infrastructure/console/console-sessions.repository';
import type { ConsoleSession } from '../../infrastructure/console/console-sessions.repository';
import { SESSION_COOKIE } from '../../infrastructure/console/session-policy';
import { ApiError } from '../common/errors';
import { ContextualRequest } from '../common/request-context';
import { consoleLivemode } from './console-mode';
import { clearCookie, cookieName, readCookies, setCookie } from './cookies';

declare module '../common/request-context' {
  interface RequestContext {
    /** The console session of a request under /console, whatever its stage. */
    console?: ConsoleSession;
  }
}

export const CONSOLE_PATH = '/console';
export const CONSOLE_ASSETS_DIR = path.join(projectRoot(), 'src', 'console', 'assets');

/** Forms shown before there is a session (sign-in, accepting an invitation) use a double-submit token. */
export const PRESESSION_CSRF_COOKIE = 'haa_console_csrf';
export const CSRF_FIELD = '_csrf';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FORM_BODY_BYTES = 256 * 1024;

/**
 * No script, style, image or connection from anywhere but the service itself, no inline script or
 * style, no framing and no form posting elsewhere: the console works with no outside network.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Express matches paths regardless of case, so `/Console/…` is the console too. */
export function isConsolePath(requestPath: string): boolean {
  return /^\/console(\/|$)/i.test(requestPath);
}

/** The console's JSON calls, which answer in the contract's envelope rather than as pages. */
export function isConsoleJsonPath(requestPath: string): boolean {
  return /^\/console\/api\//i.test(requestPath);
}

/**
 * Everything under /console passes here before Nest routes it: security headers, form bodies, the
 * session cookie (the console's only credential; API keys never are) and the CSRF check.
 */
export function consoleEdge(sessions: ConsoleSessionsRepository): Router {
  const router = express.Router();
  router.use(markConsoleRequest);
  router.use(securityHeaders);
  // A missing asset falls through to the router's 404 page rather than failing inside the handler.
  router.use(
    '/assets',
    express.static(CONSOLE_ASSETS_DIR, { index: false, dotfiles: 'ignore', fallthrough: true, maxAge: '1h' }),
  );
  router.use(express.urlencoded({ extended: false, limit: FORM_BODY_BYTES, parameterLimit: 200 }));
  router.use((req, res, next) => {
    resolveSession(req as ContextualRequest, res, sessions).then(() => next(), next);
  });
  router.use(checkCsrf);
  return router;
}

/**
 * Whatever the path's spelling, a request this edge saw is the console's: the API-key middleware and
 * the JSON-only check leave it alone, so a key can never stand in for a session here.
 */
function markConsoleRequest(req: Request, _res: Response, next: NextFunction): void {
  (req as ContextualRequest).context.throughConsoleEdge = true;
  next();
}

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  // Invitation links carry their token in the path: no page may pass its address to another site.
  // (`no-referrer` would also make browsers send `Origin: null` with the console's own forms.)
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  next();
}

async function resolveSession(
  req: ContextualRequest,
  res: Response,
  sessions: ConsoleSessionsRepository,
): Promise<void> {
  const token = readCookies(req).get(cookieName(req, SESSION_COOKIE));
  if (!token) return;
  const session = await sessions.find(token);
  if (!session) {
    clearCookie(req, res, SESSION_COOKIE);
    return;
  }
  if (session.accountStatus !== 'active') {
    await sessions.end(session.id);
    clearCookie(req, res, SESSION_COOKIE);
    throw ApiError.accountSuspended();
  }
  await sessions.touch(session);
  req.context.console = session;
  if (session.stage === 'signed_in') {
    req.context.principal = {
      accountId: session.accountId,
      roles: session.roles,
      credential: { type: 'user', id: session.userId },
      livemode: consoleLivemode(req),
    };
  }
}

/**
 * A state-changing request must carry the session's token (or, before sign-in, the token of the
 * double-submit cookie), and a browser that names its origin must name this one.
 */
function checkCsrf(req: Request, _res: Response, next: NextFunction): void {
  if (!UNSAFE_METHODS.has(req.method)) return next();
  const context = (req as ContextualRequest).context;
  const expected =
    context.console?.csrfToken ?? readCookies(req).get(cookieName(req, PRESESSION_CSRF_COOKIE));
  const presented =
    (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] ?? req.headers['x-csrf-token'];
  if (
    !fromThisOrigin(req) ||
    typeof presented !== 'string' ||
    !expected ||
    !tokensMatch(expected, presented)
  ) {
    return next(
      new ApiError(
        'forbidden',
        'This form is out of date or came from another site. Reload the page and try again.',
      ),
    );
  }
  next();
}

/**
 * What the browser says about where a request comes from, when it says anything: `Sec-Fetch-Site`
 * from current browsers, `Origin` from most. An opaque origin ("null") proves nothing either way,
 * and the token alone decides.
 */
function fromThisOrigin(req: Request): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  return origin === undefined || origin === 'null' || origin === `${req.protocol}://${req.headers.host}`;
}

function tokensMatch(expected: string, presented: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a form shown before sign-in carries; set as a cookie the first time it is needed. */
export function presessionCsrfToken(req: Request, res: Response): string {
  const existing = readCookies(req).get(cookieName(req, PRESESSION_CSRF_COOKIE));
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setCookie(req, res, PRESESSION_CSRF_COOKIE, token);
  return token;
}

/** The CSRF token a page's forms must carry. */
export function csrfTokenFor(req: Request, res: Response): string {
  return (req as ContextualRequest).context.console?.csrfToken ?? presessionCsrfToken(req, res);
}
