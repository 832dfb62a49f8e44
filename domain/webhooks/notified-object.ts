import type { BenefitVerificationCase } from '../cases/benefit-verification';
import type { CaseObjectType, CaseStatus } from '../cases/case-model';
import type { ClinicalEligibilityCase } from '../cases/clinical-eligibility';
import type { PatientEnrollmentCase } from '../cases/patient-enrollment';
import type { PriorAuthorizationCase } from '../cases/prior-authorization';
import type { ProviderAuthorization, ProviderAuthorizationStatus } from '../providers/provider-authorization';

/** Any case, as GET answers it; `object` says which. */
export type CaseObject =
  PriorAuthorizationCase | BenefitVerificationCase | ClinicalEligibilityCase | PatientEnrollmentCase;

/** The data of a `webhook.test` event: the endpoint it was sent to. */
export interface WebhookTestData {
  object: 'webhook_endpoint';
  id: string;
  name: string;
  livemode: boolean;
  message: string;
}

/** A case event's data: the case as GET answered it when the event was recorded, and its `sequence`. */
export type CaseEventData = CaseObject & {
  /**
   * How many status changes the case had made when the event was recorded. Events may arrive out
   * of order; a receiver keeps the case of the highest sequence it has seen.
   */
  sequence: number;
};

/**
 * What a notification to a full endpoint carries as `data`, and what the events API keeps: a case, a
 * test event's endpoint, or a prescriber's authorization (`provider_authorization.updated`).
 */
export type NotifiedObject = CaseEventData | WebhookTestData | ProviderAuthorization;

/**
 * What a notification to a thin endpoint carries as `data`: nothing that can name a patient. The
 * receiver reads the object with GET. A test event's endpoint has no status.
 */
export type ThinNotifiedObject =
  | {
      id: string;
      object: CaseObjectType | 'webhook_endpoint';
      status?: CaseStatus;
      livemode: boolean;
    }
  /** A provider authorization has no `livemode` field: the endpoint's mode is the event's. */
  | { id: string; object: 'provider_authorization'; status: ProviderAuthorizationStatus };
