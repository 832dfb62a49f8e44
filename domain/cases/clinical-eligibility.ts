import type { ClinicalEligibilityOutcome } from '../clinical/clinical-model';
import type { CaseBinding } from './case-binding';
import type { CaseRecord } from './case-model';
import type { ClinicalEligibilityRequest } from './clinical-eligibility-request';

export interface ClinicalEligibilityCase extends CaseRecord {
  object: 'clinical_eligibility';
  /** The specification's field name, spelled exactly so; equal to `id`. */
  clinical_elgibility_id: string;
  outcome: ClinicalEligibilityOutcome | null;
  request: ClinicalEligibilityRequest;
}

export interface ClinicalEligibilityInput {
  case: ClinicalEligibilityCase;
  accountId: string;
  /** Set by the API on cases started since the `verify-account-binding` patch. */
  binding?: CaseBinding;
}

export const CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS = {
  processing: 'Evaluating the coverage criteria of each drug against the clinical record.',
  awaiting_review: 'Waiting for a reviewer.',
  awaiting_outcome: 'Waiting for an outcome.',
  completed: 'Evaluated; see outcome.results for each drug.',
  failed: 'The evaluation could not be completed.',
  cancelled: 'Cancelled on request.',
} as const;
