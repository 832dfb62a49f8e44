import type { AppConfig } from '../../infrastructure/config/config';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import type { Database } from '../../infrastructure/storage/database';
import type { CaseAdmission } from '../cases/cases.module';
import { ApiError } from '../common/errors';

/** The case types that act in a prescriber's name and so need their authorization. */
const ACTING_FOR_PRESCRIBER = new Set(['benefit_verification', 'prior_authorization']);

/**
 * Enforcement (contract section 13): where the account requires it in the caller's mode, a benefit
 * verification or prior authorization whose `provider.npi` has no signed, current authorization is
 * refused with 409 `provider_not_authorized` before the case stores anything. The setting and the
 * authorization are read together in one statement on every such request, never kept by a process:
 * a revocation or a change of the setting made through one API process holds on the next request
 * to any other, and one indexed statement keeps the check within the POST's 2 ms budget.
 */
export function providerAuthorizationAdmission(deps: { config: AppConfig; db: Database }): CaseAdmission {
  const authorizations = new ProviderAuthorizationsRepository(deps.db);
  return {
    async admit(principal, type, request) {
      if (!ACTING_FOR_PRESCRIBER.has(type.object)) return;
      const npi = (request as { provider?: { npi?: unknown } }).provider?.npi;
      if (typeof npi !== 'string') return;
      const scope = { accountId: principal.accountId, livemode: principal.livemode };
      const { required, authorized } = await authorizations.enforcement(scope, npi);
      if (!required || authorized) return;
      throw new ApiError(
        'provider_not_authorized',
        `The prescriber with NPI ${npi} has not authorized this account to act in their name ` +
          `(no signed, current provider authorization in ${principal.livemode ? 'live' : 'test'} mode). ` +
          'Start one with POST /provider-authorizations; the prescriber signs it through the link mailed to them.',
        [{ field: 'provider.npi', issue: `has no signed, current provider authorization` }],
      );
    },
  };
}
