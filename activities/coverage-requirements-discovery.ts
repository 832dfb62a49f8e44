import { asksCoverageRequirements } from '../domain/payers/coverage-requirements';
import type {
  CoverageRequirementsAnswer,
  CoverageRequirementsQuery,
} from '../domain/payers/coverage-requirements';
import type { ConnectorSettingsRepository } from '../infrastructure/connectors/connector-settings.repository';
import { signCdsHooksJwt } from '../infrastructure/connectors/crd/cds-hooks-jwt';
import { discoverCoverageRequirements } from '../infrastructure/connectors/crd/crd-client';
import type { CrdEndpoint } from '../infrastructure/connectors/crd/crd-client';
import { simulatedCoverageRequirements } from '../infrastructure/connectors/crd/simulated-crd-service';
import type { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { attemptDeadline } from './attempt-deadline';

/** An account's live CRD service, and the JWT that authenticates each call to it. */
export interface LiveCrdService extends CrdEndpoint {
  bearer(): Promise<string>;
}

export interface CoverageRequirementsDependencies {
  /** The account's `coverage_requirements` connector; undefined when it has none. */
  liveCrdService: (accountId: string) => Promise<LiveCrdService | undefined>;
  policy: WebhookTargetPolicy;
}

/**
 * The account's `coverage_requirements` connector as a CRD service, read at the moment of use so a
 * change of settings or a key rotation takes effect on the next call. Its time limit never outlasts
 * the activity's attempt, so the call ends before Temporal gives up on it.
 */
export function liveCrdServices(
  settings: Pick<ConnectorSettingsRepository, 'readCoverageRequirementsForUse'>,
): (accountId: string) => Promise<LiveCrdService | undefined> {
  return async (accountId) => {
    const connector = await settings.readCoverageRequirementsForUse(accountId);
    if (!connector) return undefined;
    return {
      url: connector.url,
      timeoutMs: Math.max(1, Math.min(connector.timeoutMs, attemptDeadline() - Date.now())),
      bearer: () =>
        signCdsHooksJwt(connector.signingKey, {
          issuer: connector.clientId,
          audience: connector.url,
          jwksUrl: connector.jwksUrl,
        }),
    };
  };
}

/**
 * Where a prior authorization asks what its order requires (docs/crd.md). Test mode: the sandbox
 * payer's CRD service, for every drug. Live mode: the account's CRD service, for drugs whose
 * authorization goes over PAS (the medical benefit); a pharmacy-benefit drug, a case whose plan was
 * not resolved, or an account without the connector, is not asked.
 */
export function coverageRequirementsDiscovery({
  liveCrdService,
  policy,
}: CoverageRequirementsDependencies): (
  query: CoverageRequirementsQuery,
) => Promise<CoverageRequirementsAnswer> {
  return async (query) => {
    if (!asksCoverageRequirements(query.mode, query.benefit)) return { kind: 'not_asked' };
    if (query.mode === 'test') return simulatedCoverageRequirements(query);
    // A payer is never sent a Coverage without its member id: with no resolved plan there is none.
    if (!query.plan) return { kind: 'not_asked' };
    const service = await liveCrdService(query.accountId);
    if (!service) return { kind: 'not_asked' };
    return discoverCoverageRequirements(service, () => service.bearer(), query, policy);
  };
}
