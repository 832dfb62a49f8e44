/**
 * What the audit trail records. Every field is an id, an enum, a time or a field name: the trail
 * itself must never become a second copy of the PHI it accounts for.
 */
export const AUDIT_ACTIONS = [
  'case.created',
  'case.read',
  'document.read',
  'case.listed',
  'case.decision_recorded',
  'case.information_provided',
  'case.questionnaire_answered',
  'case.feedback_recorded',
  'case.outcome_recorded',
  'case.cancelled',
  'case.purged',
  'case.erased',
  'patient.erasure_requested',
  'case.retried_by_operator',
  'case.failed_by_operator',
  'api_key.created',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_delivery.retried',
  'event.listed',
  'event.read',
  'formulary.replaced',
  'formulary.deleted',
  'connector.configured',
  'connector.deleted',
  'connector.signing_key_rotated',
  'codec.decoded',
  'codec.encoded',
  'user.invited',
  'user.created',
  'user.signed_in',
  'user.sign_in_failed',
  'user.second_factor_enabled',
  'account.suspended',
  'account.reactivated',
  'payload_key.values_reencrypted',
  'provider_authorization.created',
  'provider_authorization.signed',
  'provider_authorization.reminded',
  'provider_authorization.expired',
  'provider_authorization.revoked',
  'account_settings.updated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * `user` is a console user; operators are the platform's own staff, outside every account; `system`
 * is the service acting on its own schedule (the case retention purge); `prescriber` is a prescriber
 * acting through the link mailed to them, named by their authorization's id.
 */
export type ActorType = 'api_key' | 'user' | 'operator' | 'system' | 'prescriber';

export interface AuditActor {
  type: ActorType;
  id: string;
}

export interface AuditTarget {
  object: string;
  id: string | null;
}

/** Names and counts that qualify an action (the filters a list used, not their values). */
export type AuditDetails = Record<string, string | number | boolean | string[]>;

export interface NewAuditEvent {
  /** null: a platform-level event that no account owns. */
  accountId: string | null;
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget | null;
  requestId: string;
  details?: AuditDetails;
}

/** An audit event as GET /audit-events shows it (docs/decisions.md#audit-events). */
export interface AuditEvent {
  id: string;
  object: 'audit_event';
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget | null;
  details: AuditDetails;
  request_id: string;
  created_at: string;
}
