import { ApplicationFailure } from '@temporalio/common';

import { MailNotSentError, type Mailer } from '../domain/mail/outgoing-mail';
import type {
  AuthorizationActor,
  AuthorizationMailPurpose,
  ProviderAuthorization,
  ProviderAuthorizationAuditAction,
  ProviderSignature,
} from '../domain/providers/provider-authorization';
import { AUTHORIZATION_MAIL_NOT_SENT, AUTHORIZATION_WITHDRAWN } from '../domain/failures';
import { caseEventId } from '../domain/webhooks/case-event-ids';
import type { AuditDetails } from '../infrastructure/audit/audit-event';
import type { AuditRepository } from '../infrastructure/audit/audit.repository';
import type { ProviderAuthorizationsRepository } from '../infrastructure/provider-authorizations/provider-authorizations.repository';
import type { SigningLinksRepository } from '../infrastructure/provider-authorizations/signing-links.repository';
import type { PublishEventInput } from '../infrastructure/webhooks/webhook-publisher';

export const PROVIDER_AUTHORIZATION_EVENT = 'provider_authorization.updated';

export interface ProviderAuthorizationActivityDependencies {
  authorizations: ProviderAuthorizationsRepository;
  links: SigningLinksRepository;
  audit: AuditRepository;
  publishEvent: (input: PublishEventInput) => Promise<string[]>;
  mailer: Mailer;
  /** Where the signing pages are reached from outside, without a trailing slash. */
  linkBase: string;
}

export interface AuthorizationChange {
  accountId: string;
  livemode: boolean;
  authorization: ProviderAuthorization;
  /** The change's place in the authorization's life: orders the read model's writes and names the event. */
  sequence: number;
  action: ProviderAuthorizationAuditAction;
  actor: AuthorizationActor;
  requestId: string;
  signature?: ProviderSignature;
}

export interface AuthorizationMail {
  authorizationId: string;
  purpose: AuthorizationMailPurpose;
  actor: AuthorizationActor;
  requestId: string;
}

/** The signing pages, under the console (its CSP, layout and form protection). */
export const SIGNING_PAGE_PATH = '/console/provider-authorization/sign';
export const REVOKE_PAGE_PATH = '/console/provider-authorization/revoke';

/**
 * The side effects of a provider authorization's workflow. Each may run more than once (a retry):
 * the read model keeps the newest write, the event id is derived from the change, and mail carries an
 * idempotency key per authorization and purpose.
 */
export const createProviderAuthorizationActivities = (deps: ProviderAuthorizationActivityDependencies) => ({
  /** One change: the read model, then the webhook event, then the audit trail. */
  async recordAuthorizationChange(change: AuthorizationChange): Promise<void> {
    const { authorization } = change;
    if (!(await deps.authorizations.write(authorization, change.sequence, change.signature))) {
      throw ApplicationFailure.nonRetryable(
        `Provider authorization ${authorization.id} was withdrawn before its workflow's first write`,
        AUTHORIZATION_WITHDRAWN,
      );
    }
    await deps.publishEvent({
      eventId: caseEventId(authorization.id, `sequence:${change.sequence}`),
      accountId: change.accountId,
      type: PROVIDER_AUTHORIZATION_EVENT,
      data: authorization,
      createdAt: authorization.updated_at,
      livemode: change.livemode,
    });
    await deps.audit.record([
      {
        accountId: change.accountId,
        actor: change.actor,
        action: change.action,
        target: { object: 'provider_authorization', id: authorization.id },
        requestId: change.requestId,
        details: { status: authorization.status, ...signatureMark(change.signature) },
      },
    ]);
  },

  /**
   * Mails the prescriber. A signing link or reminder carries a fresh sign link, the confirmation a
   * revoke link; only their hashes are stored and the links never reach history or logs.
   */
  async sendAuthorizationMail(mail: AuthorizationMail): Promise<void> {
    const found = await deps.authorizations.findScoped(mail.authorizationId);
    if (!found) throw new Error(`Provider authorization ${mail.authorizationId} has no row yet`);
    const { authorization, accountName, accountId, livemode } = found;
    const link = await linkFor(deps, authorization, mail.purpose);
    const { subject, text } = mailText(mail.purpose, authorization, accountName, link);
    try {
      await deps.mailer.send({
        accountId,
        livemode,
        to: authorization.email,
        subject,
        text,
        purpose: mail.purpose,
        objectId: authorization.id,
        idempotencyKey: `${authorization.id}:${mail.purpose}`,
      });
    } catch (error) {
      if (error instanceof MailNotSentError) {
        throw ApplicationFailure.nonRetryable(
          `Mail for ${authorization.id} was not sent (${error.reason})`,
          AUTHORIZATION_MAIL_NOT_SENT,
        );
      }
      throw error;
    }
    if (mail.purpose.endsWith('_reminder')) {
      await deps.audit.record([
        {
          accountId,
          actor: mail.actor,
          action: 'provider_authorization.reminded',
          target: { object: 'provider_authorization', id: authorization.id },
          requestId: mail.requestId,
          details: { purpose: mail.purpose },
        },
      ]);
    }
  },
});

/**
 * What the audit trail says of a signature's origin (docs/providers.md): whether it came from a network
 * the account asked for an authorization from. A signature taken before the mark existed says nothing.
 */
function signatureMark(signature: ProviderSignature | undefined): AuditDetails {
  const marked = signature?.from_requester_network;
  return typeof marked === 'boolean' ? { signed_from_requester_network: marked } : {};
}

async function linkFor(
  deps: ProviderAuthorizationActivityDependencies,
  authorization: ProviderAuthorization,
  purpose: AuthorizationMailPurpose,
): Promise<string | undefined> {
  switch (purpose) {
    case 'provider_authorization.signing_link':
    case 'provider_authorization.signing_reminder': {
      const token = await deps.links.issue(authorization.id, 'sign', authorization.link_expires_at!);
      return `${deps.linkBase}${SIGNING_PAGE_PATH}/${token}`;
    }
    case 'provider_authorization.confirmation':
    case 'provider_authorization.renewal_reminder': {
      const token = await deps.links.issue(authorization.id, 'revoke', authorization.expires_at!);
      return `${deps.linkBase}${REVOKE_PAGE_PATH}/${token}`;
    }
  }
}

function mailText(
  purpose: AuthorizationMailPurpose,
  authorization: ProviderAuthorization,
  accountName: string,
  link: string | undefined,
): { subject: string; text: string } {
  const greeting = `Dear ${authorization.first_name} ${authorization.last_name},`;
  switch (purpose) {
    case 'provider_authorization.signing_link':
    case 'provider_authorization.signing_reminder':
      return {
        subject:
          purpose === 'provider_authorization.signing_link'
            ? `${accountName} asks for your authorization`
            : `Reminder: ${accountName} asks for your authorization`,
        text: [
          greeting,
          '',
          `${accountName} asks you to authorize it to submit benefit verifications and prior authorizations ` +
            'in your name through the Healthcare Access service.',
          `Read and sign the authorization here (the link works once and lapses on ${day(authorization.link_expires_at)}):`,
          link,
          '',
          'If you do not know this clinic, ignore this message.',
        ].join('\n'),
      };
    case 'provider_authorization.confirmation':
    case 'provider_authorization.renewal_reminder':
      return {
        subject:
          purpose === 'provider_authorization.confirmation'
            ? `You authorized ${accountName}`
            : `Your authorization of ${accountName} lapses on ${day(authorization.expires_at)}`,
        text: [
          greeting,
          '',
          purpose === 'provider_authorization.confirmation'
            ? `You authorized ${accountName} to submit benefit verifications and prior authorizations in your name ` +
              `until ${day(authorization.expires_at)}.`
            : `Your authorization of ${accountName} lapses on ${day(authorization.expires_at)}. ` +
              'The clinic will send you a new link to renew it.',
          'You may revoke it at any time here:',
          link,
        ].join('\n'),
      };
  }
}

const day = (timestamp: string | null): string => (timestamp ?? '').slice(0, 10);
