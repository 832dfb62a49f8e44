import type { DocumentReadingSummary } from '../documents/document-reading';
import type { InsuranceCardView } from '../payers/card-fields';
import type { CaseObjectType } from './case-kinds';

/**
 * The shapes every case type shares (contract section 3). Pure types and constants: workflow code
 * imports this module, so it must stay free of I/O and Node built-ins.
 */

export const CASE_STATUSES = [
  'processing',
  'awaiting_review',
  'awaiting_outcome',
  'completed',
  'failed',
  'cancelled',
] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const FINAL_STATUSES: readonly CaseStatus[] = ['completed', 'failed', 'cancelled'];

export type { CaseObjectType };

export interface StatusChange {
  status: CaseStatus;
  at: string;
  reason: string | null;
}

export interface CaseFailure {
  code: string;
  message: string;
}

/** A submitted document as cases show it: never the bytes, only what identifies them. */
export interface DocumentRef {
  document_id: string;
  name: string;
  type: string;
  sha256: string;
  size_bytes: number;
}

/** A document of the case with what reading it found (docs/decisions.md#documents). */
export interface CaseDocument extends DocumentRef {
  reading: DocumentReadingSummary;
}

export interface Address {
  street: string;
  street_line_2?: string;
  city: string;
  state_province: string;
  zip_postal_code: string;
  country: string;
}

/** Patient of PA and BV requests, with insurance card images replaced by document references. */
export interface CasePatient {
  internal_id: string;
  first_name: string;
  last_name: string;
  gender: 'male' | 'female' | 'other' | 'not_specified';
  date_of_birth: string;
  address?: Address;
  email?: string;
  phone?: string;
  insurance?: DocumentRef[];
}

export type PlanType = 'commercial' | 'medicare' | 'medicare_advantage' | 'medicaid' | 'tricare' | 'other';

/** Discrete insurance card data (contract section 3a). */
/**
 * Discrete insurance data as the request gave it. Without a card both `payer` and `member_id` are
 * given; beside a card any field may be missing, and the card fills it (docs/decisions.md#request-bodies).
 */
export interface InsuranceContent {
  payer?: string;
  /** The payer's id at the account's clearinghouse, which a live 270 addresses. */
  payer_id?: string;
  /** The policy holder, when the patient is covered as their dependent. */
  subscriber?: PolicySubscriber;
  member_id?: string;
  group_number?: string;
  rx_bin?: string;
  rx_pcn?: string;
  rx_group?: string;
  plan_type?: PlanType;
}

/** Whose policy covers a dependent patient, as a 270's subscriber loop names them. */
export interface PolicySubscriber {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  /** The patient's relationship to the subscriber. */
  relationship: 'spouse' | 'child' | 'other';
}

export interface Provider {
  npi: string;
  first_name: string;
  last_name: string;
  phone?: string;
  fax?: string;
  address?: Address;
}

export interface Diagnosis {
  code: string;
  description?: string;
}

export interface EvidenceItem {
  title: string;
  date_created: string;
  content: Record<string, unknown>;
}

export interface Questionnaire {
  questions: Array<{ question: string; answer: string; choices?: string[] }>;
  created_at: string;
}

export interface VisitNote {
  content: string;
  created_at: string;
}

/** Timing of the human and payer waits; from configuration, fixed per case when it starts. */
export interface CaseTimings {
  reviewReminderMs: number;
  reviewExpiryMs: number;
  payerPollIntervalMs: number;
  /** How the case waits out a connector outage; absent in cases started before outages were waited out. */
  outage?: OutageSchedule;
  /**
   * How each connector call is retried before the case treats the connector as unavailable; absent in
   * cases started before it was configurable, which keep the policy their histories recorded.
   */
  connectorRetry?: ConnectorRetry;
}

/** Temporal's retry of one connector call: the first wait, doubling up to the longest, for so many attempts. */
export interface ConnectorRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  maximumAttempts: number;
}

/**
 * A connector still unavailable after its activity's retries: the case keeps its status, shows
 * `attention`, and calls again after `firstRetryMs`, doubling up to `longestRetryMs`, until
 * `deadlineMs` after the outage was first seen (a PA's payer deadline may come first).
 */
export interface OutageSchedule {
  firstRetryMs: number;
  longestRetryMs: number;
  deadlineMs: number;
}

/**
 * A sandbox outage a test-mode request asks for in `mock_result.outage`: the simulated connector is
 * unavailable for this long after the case's creation, then answers.
 */
export interface MockOutage {
  unavailable_for_seconds: number;
}

/** Until when a sandbox connector plays unavailable for this case, if its request asked for an outage. */
export function mockOutageUntil(
  record: Pick<CaseRecord, 'created_at'>,
  outage: MockOutage | undefined,
): { mockOutageUntil?: string } {
  if (!outage) return {};
  const until = Date.parse(record.created_at) + outage.unavailable_for_seconds * 1000;
  return { mockOutageUntil: new Date(until).toISOString() };
}

/** Why a case needs attention: a connector it waits for stays unavailable. */
export const ATTENTION_REASONS = ['payer_unavailable', 'program_unavailable'] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

/**
 * A case waiting out an outage: a reason code and times only, never the connector's own words
 * (which may quote the request).
 */
export interface CaseAttention {
  reason: AttentionReason;
  /** When the outage was first seen, kept through the retries. */
  since: string;
  next_retry_at: string;
}

/** What an operator may give as the reason to end a case waiting out an outage (`failNow`). */
export const OPERATOR_FAILURE_REASONS = {
  outage_outlasting:
    'The connection stayed unavailable and an operator ended the case; submit it again later.',
  connector_misconfigured: 'The connection needs configuration work; an operator ended the case.',
  submitted_elsewhere: 'An operator ended the case: the request is being handled outside this service.',
} as const;
export type OperatorFailureReason = keyof typeof OPERATOR_FAILURE_REASONS;

/**
 * `failNow`: the reason code, and a note for other operators that stays in the workflow's history
 * (encrypted by the codec): it is never copied into the case, its events, the audit trail or logs.
 */
export interface FailNowRequest {
  reason: OperatorFailureReason;
  note?: string;
}

/** `retryNow` takes no choice; the object keeps room for the message address the API adds. */
export type RetryNowRequest = Record<string, never>;

/**
 * An evidence item of a clinical eligibility check or a prior authorization as the case keeps it: a
 * file asset becomes a document reference.
 */
export interface CaseEvidenceItem {
  title: string;
  date_created: string;
  content?: Record<string, unknown>;
  asset?: DocumentRef & { fileType: string };
}

/** What every case object holds, whatever its type; each type adds its own fields. */
export interface CaseRecord {
  id: string;
  object: CaseObjectType;
  status: CaseStatus;
  status_description: string;
  created_at: string;
  updated_at: string;
  status_history: StatusChange[];
  outcome: unknown;
  failure: CaseFailure | null;
  /** Set while the case waits out a connector outage; absent in cases started before it existed. */
  attention?: CaseAttention | null;
  metadata: Record<string, string>;
  /**
   * The mode of the key that created the case: live cases reach payers through the account's
   * connectors, test cases the simulators. Cases started before modes have no field: they are test cases.
   */
  livemode: boolean;
  /**
   * The documents the case read, each with its reading: set once they are read; absent in cases with
   * none to read, and in cases started before documents were read.
   */
  documents?: CaseDocument[];
  /**
   * What the case read from an insurance card sent as an image or PDF, beside the discrete data:
   * benefit verifications and prior authorizations that read one; null when their documents held no
   * such card; absent otherwise.
   */
  insurance_card?: InsuranceCardView | null;
}

/**
 * Messages every case type answers, exported under the names Temporal sees (plus their kind), so
 * code, runbook and Temporal Web speak of the same thing. Each case type adds its own beside its workflow.
 */
export interface CancelRequest {
  reason: string;
}
