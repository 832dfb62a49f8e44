import type { CaseRecord } from './case-model';

/**
 * A case as lists and the review queue filter and sort it: ids, enums, dates and the keyed patient
 * hash. Never PHI: whatever is added here must pass the same test. The case object itself travels
 * beside it, sealed.
 */
export interface CaseSummary {
  case_id: string;
  account_id: string;
  object: string;
  status: string;
  /** The PatientRef search attribute's value (a keyed hash); null for a case started without one. */
  patient_ref: string | null;
  created_at: string;
  updated_at: string;
  due_at: string | null;
  overdue: boolean;
  /** A prior authorization's internal review target; absent from what older workflows write. */
  review_due_at?: string | null;
  /** Whether the payer waits for answers to an information request (`pending_request`). */
  information_requested?: boolean;
  /** When the answers to that request are due; absent from what older workflows write. */
  information_due_at?: string | null;
  /** The outcome's result, an enum of the case type (approved, partially_approved, enrolled, …). */
  outcome_result?: string | null;
  /** The case's `status_history` length when written; a write with a lower one never wins. */
  sequence: number;
  /** The case's mode; absent from what cases started before modes write, which are test cases. */
  livemode?: boolean;
}

/**
 * The summary of a case as it stands. The patient reference is the keyed hash the API set as the
 * `PatientRef` search attribute at the start, never PHI.
 */
export function summaryOf(
  record: CaseRecord,
  owner: { accountId: string; patientRef: string | null },
): CaseSummary {
  const { due_at, review_due_at, overdue, pending_request, outcome } = record as CaseRecord & {
    due_at?: string | null;
    review_due_at?: string | null;
    overdue?: boolean;
    pending_request?: { due_at: string } | null;
  };
  return {
    case_id: record.id,
    account_id: owner.accountId,
    object: record.object,
    status: record.status,
    patient_ref: owner.patientRef,
    created_at: record.created_at,
    updated_at: record.updated_at,
    due_at: due_at ?? null,
    overdue: overdue ?? false,
    review_due_at: review_due_at ?? null,
    information_requested: Boolean(pending_request),
    information_due_at: pending_request?.due_at ?? null,
    outcome_result: outcomeResult(outcome),
    sequence: record.status_history.length,
    livemode: record.livemode,
  };
}

/** The result an outcome names (an enum of the case type), never anything else of it. */
function outcomeResult(outcome: unknown): string | null {
  const result = (outcome as { result?: unknown } | null)?.result;
  return typeof result === 'string' ? result : null;
}
