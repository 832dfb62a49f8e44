import { ConnectorError } from '../domain/failures';
import type {
  PriorAuthExchangeInput,
  PriorAuthorizationChannel,
} from '../domain/payers/prior-authorization-exchange';
import type { ConnectorSettingsRepository } from '../infrastructure/connectors/connector-settings.repository';
import { PasPriorAuthorizationChannel } from '../infrastructure/connectors/pas/pas-channel';
import { HttpPasEndpoint, PasEndpoint } from '../infrastructure/connectors/pas/pas-endpoint';
import { simulatedPasChannel } from '../infrastructure/connectors/pas/simulated-pas-endpoint';
import type { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { attemptDeadline } from './attempt-deadline';
import { shippedPayerCatalog } from '../infrastructure/catalogs/shipped-catalogs';

/**
 * The account's `prior_authorization` connector as a PAS endpoint, read at the moment of use so a
 * change of settings takes effect on the next call; undefined when the account has none. Call it
 * inside the activity: the endpoint's time limit ends the call before Temporal gives up on the attempt.
 */
export function livePasEndpoints(
  settings: Pick<ConnectorSettingsRepository, 'readForUse'>,
  policy: WebhookTargetPolicy,
): (accountId: string) => Promise<PasEndpoint | undefined> {
  return async (accountId) => {
    const connector = await settings.readForUse(accountId, 'prior_authorization');
    if (connector?.kind !== 'prior_authorization') return undefined;
    const timeoutMs = Math.max(1, Math.min(connector.timeoutMs, attemptDeadline() - Date.now()));
    return new HttpPasEndpoint({ url: connector.url, auth: connector.auth, timeoutMs }, policy);
  };
}

export interface PriorAuthorizationChannelDependencies {
  /** The payer simulator, which decides test-mode requests. */
  simulator: PriorAuthorizationChannel;
  /** The account's live PAS endpoint (`livePasEndpoints`); undefined when it has none. */
  livePasEndpoint: (accountId: string) => Promise<PasEndpoint | undefined>;
}

/**
 * The channel a prior authorization goes through. Test mode: the simulator decides and answers
 * through the PAS code path. Live mode: the account's PAS endpoint, for medical-benefit drugs only;
 * the API refuses the rest at creation (src/connectors/connector-requirement.ts), so meeting one
 * here means the connector or the catalog changed since, which fails the case rather than
 * sending a pharmacy-benefit request where it cannot be answered.
 */
export function priorAuthorizationChannels({
  simulator,
  livePasEndpoint,
}: PriorAuthorizationChannelDependencies): (
  input: PriorAuthExchangeInput,
) => Promise<PriorAuthorizationChannel> {
  const sandbox = simulatedPasChannel(simulator);
  return async (input) => {
    if (!input.livemode) return sandbox;
    if (shippedPayerCatalog().prescribedDrugBenefit(input.request.prescription) !== 'medical') {
      throw new ConnectorError(
        'Live prior authorizations go over Da Vinci PAS, for medical-benefit drugs only; this drug is not one.',
        { transient: false },
      );
    }
    const endpoint = await livePasEndpoint(input.accountId);
    if (!endpoint) {
      throw new ConnectorError('No prior_authorization connector is configured for this account.', {
        transient: false,
      });
    }
    return new PasPriorAuthorizationChannel(endpoint);
  };
}
