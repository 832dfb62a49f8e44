import { defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord } from '../domain/cases/case-model';

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

/** A prior authorization's decisions, under the names Temporal sees. */
export const reviewDecisionSignal = defineSignal<[ReviewDecisionInput]>('reviewDecision');
export const submitReviewDecisionUpdate = defineUpdate<CaseRecord, [ReviewDecisionInput]>(
  'submitReviewDecision',
);
export const priorAuthorizationOutcomeSignal =
  defineSignal<[PriorAuthOutcomeInput]>('priorAuthorizationOutcome');
export const submitPriorAuthorizationOutcomeUpdate = defineUpdate<CaseRecord, [PriorAuthOutcomeInput]>(
  'submitPriorAuthorizationOutcome',
);
