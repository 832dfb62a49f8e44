import type { BenefitVerificationCase } from '../../domain/cases/benefit-verification';
import type { FeedbackReport, PriorAuthorizationFeedback } from '../../domain/cases/case-feedback';
import type { ClinicalEligibilityCase } from '../../domain/cases/clinical-eligibility';
import type { PatientEnrollmentCase } from '../../domain/cases/patient-enrollment';
import type { PriorAuthorizationCase } from '../../domain/cases/prior-authorization';
import type { ConnectorKind } from '../../domain/connectors/connector-kinds';
import type { SupportProgram } from '../../domain/programs/program-model';
import type {
  ProviderAuthorization,
  ProviderAuthorizationSettings,
} from '../../domain/providers/provider-authorization';
import type { NotifiedObject, ThinNotifiedObject } from '../../domain/webhooks/notified-object';
import type { ApiKeyRecord } from '../../infrastructure/accounts/accounts.repository';
import type { AuditEvent } from '../../infrastructure/audit/audit-event';
import type { Connector } from '../../infrastructure/connectors/connector-settings.repository';
import type { PublishedJwk } from '../../infrastructure/connectors/connector-signing-keys';
import type { FormularySummary } from '../../infrastructure/formularies/formularies.repository';
import type { WebhookEvent } from '../../infrastructure/webhooks/events.repository';
import type {
  NotificationBody,
  WebhookDelivery,
} from '../../infrastructure/webhooks/webhook-deliveries.repository';
import type { WebhookEndpoint } from '../../infrastructure/webhooks/webhook-endpoints.repository';

/**
 * Every object the API answers with, under the name its schema has in the API document. The
 * document's schemas are generated from these types (`npm run generate:schemas` writes
 * published-schemas.json; a test fails while it is stale), and each route declares which of them it
 * answers with (`@Answers`), which the compiler checks against what the handler returns. So a field
 * reaches an answer only through a type here, and then it is in the document.
 */
export interface PublishedObjects {
  PriorAuthorization: PriorAuthorization;
  PriorAuthorizationFeedback: PriorAuthorizationFeedback;
  PriorAuthorizationFeedbackReport: PriorAuthorizationFeedbackReport;
  BenefitVerification: BenefitVerification;
  ClinicalEligibility: ClinicalEligibility;
  ClinicalEligibilityCreated: ClinicalEligibilityCreated;
  PatientEnrollment: PatientEnrollment;
  WebhookEndpoint: WebhookEndpoint;
  DeletedWebhookEndpoint: DeletedWebhookEndpoint;
  WebhookDelivery: WebhookDelivery;
  WebhookDeliveryRetry: WebhookDeliveryRetry;
  WebhookTestSent: WebhookTestSent;
  Event: Event;
  Notification: Notification;
  ThinNotification: ThinNotification;
  ApiKey: ApiKey;
  CreatedApiKey: CreatedApiKey;
  Connector: Connector;
  DeletedConnector: DeletedConnector;
  JsonWebKeySet: JsonWebKeySet;
  Formulary: Formulary;
  AuditEvent: AuditEvent;
  PatientErasure: PatientErasure;
  SupportProgram: SupportProgram;
  ProviderAuthorization: ProviderAuthorization;
  AccountSettings: AccountSettings;
  ServiceStatus: ServiceStatus;
  CodecPayloads: CodecPayloads;
}

export type PublishedObjectName = keyof PublishedObjects;

/** A prior authorization case: its request as kept, its status history and, once decided, the payer's outcome. */
export interface PriorAuthorization extends PriorAuthorizationCase {
  /**
   * The feedback given on the case, oldest first (POST …/feedback): on every read and list, and on
   * the answers to the POSTs that create or act on a case, empty while none was given. Webhook
   * bodies carry the case as its workflow holds it, without feedback.
   */
  feedback?: PriorAuthorizationFeedback[];
}
export type { PriorAuthorizationFeedback };
/** Feedback on the account's prior authorizations over a period, by drug and criterion: counts, no PHI. */
export type PriorAuthorizationFeedbackReport = FeedbackReport;
/** A benefit verification case: eligibility, plan and per-drug coverage once completed. */
export type BenefitVerification = BenefitVerificationCase;
/** A clinical eligibility check: per drug, whether the patient meets the plan's criteria. */
export type ClinicalEligibility = ClinicalEligibilityCase;
/** A support-program enrollment: the program's answer and, once enrolled, its confirmation. */
export type PatientEnrollment = PatientEnrollmentCase;

/**
 * The specification's answer to creating a clinical eligibility check, whole: the envelope with the
 * check's id and status, and its id once more beside the envelope, under the specification's own
 * spelling (`clinical_elgibility_id`). The check is read with GET.
 */
export interface ClinicalEligibilityCreated {
  status: 'success';
  error: null;
  data: ClinicalEligibilityReceipt;
  clinical_elgibility_id: string;
}

export interface ClinicalEligibilityReceipt {
  id: string;
  clinical_elgibility_id: string;
  object: 'clinical_eligibility';
  status: ClinicalEligibilityCase['status'];
}

export interface DeletedWebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  deleted: true;
}

/** A new delivery of a delivery's event, started at once. */
export interface WebhookDeliveryRetry {
  id: string;
  object: 'webhook_delivery';
  retry_of: string;
  status: 'pending';
}

/** The `webhook.test` event sent to one endpoint, and its delivery. */
export interface WebhookTestSent {
  event_id: string;
  delivery_id: string;
}

/** An event as the events API keeps it for 30 days: what a full endpoint was sent, with its mode. */
export type Event = WebhookEvent;

/**
 * The body of a webhook notification to a full endpoint (contract section 6): the event, with the
 * case as GET answered it when the event was recorded (or the test event's endpoint).
 */
export interface Notification extends Omit<NotificationBody, 'data'> {
  data: NotifiedObject;
}

/** The body of a notification to a thin endpoint: the same event, `data` cut to what names no patient. */
export interface ThinNotification extends Omit<NotificationBody, 'data'> {
  data: ThinNotifiedObject;
}

/** An API key, never its secret. */
export type ApiKey = ApiKeyRecord;

/** A new API key with its secret, which no later answer shows again. */
export interface CreatedApiKey extends ApiKeyRecord {
  secret: string;
}

export interface DeletedConnector {
  id: string;
  object: 'connector';
  kind: ConnectorKind;
  deleted: true;
}

/** A coverage requirements connector's public signing keys (RFC 7517), not in the envelope. */
export interface JsonWebKeySet {
  keys: PublishedJwk[];
}

/** A formulary the account loaded for a payer. */
export type Formulary = FormularySummary;

/** A patient erasure: ids, a status, a count and dates, never the patient. */
export interface PatientErasure {
  id: string;
  object: 'patient_erasure';
  status: 'in_progress' | 'completed' | 'failed';
  cases_erased?: number;
  created_at: string;
  completed_at?: string;
}

/** The account's settings: enforcement of provider authorizations per mode, and how long a signature lasts. */
export interface AccountSettings extends ProviderAuthorizationSettings {
  object: 'account_settings';
}

/** The service's health and that of each component it needs. */
export interface ServiceStatus {
  message: string;
  components: Record<string, ComponentHealth>;
}

export interface ComponentHealth {
  status: 'ok' | 'degraded' | 'down';
  latency_ms?: number;
  detail?: string;
  /** The worker component only: how many workers poll the task queue. */
  pollers?: number;
}

/** Temporal payloads, as Temporal Web's codec endpoint exchanges them (not in the envelope). */
export interface CodecPayloads {
  payloads: Array<{ metadata: Record<string, string>; data?: string }>;
}
