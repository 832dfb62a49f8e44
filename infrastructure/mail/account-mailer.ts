import { MailNotSentError, Mailer } from '../../domain/mail/outgoing-mail';
import type { AppConfig } from '../config/config';
import { ConnectorSettingsRepository } from '../connectors/connector-settings.repository';
import { SecretBox } from '../crypto/aes-gcm';
import type { Database } from '../storage/database';
import { WebhookTargetPolicy } from '../webhooks/target-policy';
import { MailOutboxRepository } from './mail-outbox.repository';
import { sendOverSmtp } from './smtp-sending';

/**
 * An account's mail (docs/providers.md). Test mode, and every mode of a local install, keeps it in
 * the account's outbox, which its admins read in the console: no test reaches a real inbox. Live mode
 * sends it through the account's `mail` connector, and without one refuses with
 * `MailNotSentError('not_configured')`.
 *
 * The mailer logs nothing: its callers log the purpose, the object and the outcome, never a
 * message's recipient, body or links.
 */
export function accountMailer(deps: { config: AppConfig; db: Database; secrets: SecretBox }): Mailer {
  const outbox = new MailOutboxRepository(deps.db, deps.secrets);
  const connectors = new ConnectorSettingsRepository(deps.db, deps.secrets, deps.config.publicApiUrl);
  const policy = new WebhookTargetPolicy(deps.config.webhooks.allowedTargets);
  return {
    async send(mail) {
      if (!mail.livemode || deps.config.mode === 'local') {
        return { messageId: (await outbox.record(mail)).id };
      }
      const server = await connectors.readMailForUse(mail.accountId);
      if (!server) {
        throw new MailNotSentError('not_configured', 'No mail connector is configured for live mode');
      }
      return sendOverSmtp(server, mail, policy);
    },
  };
}
