import type { CriterionAnswer, DrugCoverage, ResolvedPlan } from '../payers/payer-connector';
import type { CaseBinding } from './case-binding';
import type { CaseRecord, CaseTimings, PriorAuthorizationRequest } from './case-model';

/** A clinical reviewer's decision on the prepared request. */
export interface ReviewDecisionInput {
  decision: 'approve' | 'reject';
  reviewer: string;
  notes?: string;
}

/** The payer's determination, recorded by a person when the payer answered outside the connector. */
export interface PriorAuthOutcomeInput {
  result: 'approved' | 'denied' | 'other';
  detail_code?: string;
  detail?: string;
  payer_reference?: string;
  authorization_start_date?: string;
  authorization_expiration?: string;
}

export interface PriorAuthorizationOutcome {
  result: 'approved' | 'denied' | 'other';
  detail_code: string | null;
  detail: string | null;
  payer_reference: string | null;
  decided_at: string;
  authorization_start_date: string | null;
  authorization_expiration: string | null;
}

export interface PriorAuthorizationCase extends CaseRecord {
  object: 'prior_authorization';
  urgency: 'standard' | 'expedited';
  /** When the determination is due: 72 h after creation for a standard request, 24 h for an expedited one. */
  due_at: string;
  overdue: boolean;
  plan: ResolvedPlan | null;
  coverage: DrugCoverage | null;
  criteria: CriterionAnswer[];
  review: (ReviewDecisionInput & { decided_at: string }) | null;
  review_reminder_at: string | null;
  submission: { payer_reference: string; submitted_at: string } | null;
  outcome: PriorAuthorizationOutcome | null;
  request: PriorAuthorizationRequest;
}

export interface PriorAuthorizationInput {
  case: PriorAuthorizationCase;
  accountId: string;
  /** Set by the API on cases started since the `verify-account-binding` patch. */
  binding?: CaseBinding;
  timings: CaseTimings;
  /** Set when the workflow continued as new while waiting for the payer. */
  payerChecksSoFar?: number;
}

export const PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS = {
  processing: 'Resolving the plan and preparing the request from the clinical record.',
  awaiting_review: 'Waiting for a clinical reviewer to approve or reject the request.',
  awaiting_outcome: 'Submitted to the payer; waiting for its determination.',
  completed: 'The payer made a determination.',
  failed: 'No determination could be reached.',
  cancelled: 'Cancelled on request.',
} as const;
