import type { Request, Response } from 'express';

/** The cookie header as name → value; the first of repeated names wins, as browsers send them. */
export function readCookies(req: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim();
    if (name && !cookies.has(name)) cookies.set(name, part.slice(separator + 1).trim());
  }
  return cookies;
}

export interface CookieOptions {
  /** Seconds; omitted, the cookie ends with the browser session. */
  maxAgeSeconds?: number;
}

/**
 * Console cookies are HttpOnly and SameSite=Strict, Secure whenever the request came over TLS, and
 * then carry the `__Host-` prefix, which browsers accept only from a secure origin for path `/`.
 */
export function cookieName(req: Request, name: string): string {
  return req.secure ? `__Host-${name}` : name;
}

export function setCookie(
  req: Request,
  res: Response,
  name: string,
  value: string,
  options: CookieOptions = {},
) {
  const attributes = [`${cookieName(req, name)}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (req.secure) attributes.push('Secure');
  if (options.maxAgeSeconds !== undefined) attributes.push(`Max-Age=${options.maxAgeSeconds}`);
  res.append('Set-Cookie', attributes.join('; '));
}

export function clearCookie(req: Request, res: Response, name: string): void {
  setCookie(req, res, name, '', { maxAgeSeconds: 0 });
}
