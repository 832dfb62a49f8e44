import type { Role } from '../../domain/accounts/roles';

/**
 * A session ends after 30 minutes without a request or 12 hours after sign-in, whichever comes
 * first: a shared clinic workstation left signed in is closed within the half hour, and nobody
 * carries one session across two working days. docs/console.md states both.
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** `last_seen_at` is written at most this often, so a busy page costs no write per request. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export const SESSION_COOKIE = 'haa_console_session';

/**
 * Admins and reviewers act on PHI and on the account's credentials, and operators on every account's
 * cases: they must use a second factor.
 */
export function requiresSecondFactor(roles: readonly Role[]): boolean {
  return roles.includes('admin') || roles.includes('reviewer') || roles.includes('operator');
}
