import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ApiError } from './errors';

/**
 * What reaches live data (live keys, the connectors live PHI goes to, the formularies live answers
 * come from) is changed through the API with live keys only. Test keys live in CI and on laptops;
 * a leaked one must not open the way to live traffic. Console users, who sign in with a second
 * factor, act in either mode.
 */
export function requireLiveKeyFor(principal: Principal, what: string): void {
  if (principal.credential.type !== 'api_key' || principal.livemode) return;
  throw new ApiError(
    'forbidden',
    `${what} reaches live data, so it needs a live admin key (hak_live_…). ` +
      "An account's first live key comes from the console's live view or the admin CLI.",
  );
}
