import type { ConnectorSettingsRepository } from '../infrastructure/connectors/connector-settings.repository';
import { HttpPasEndpoint, PasEndpoint } from '../infrastructure/connectors/pas/pas-endpoint';
import type { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { attemptDeadline } from './attempt-deadline';

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
