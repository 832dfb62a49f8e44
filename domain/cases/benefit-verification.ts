import type { BenefitsOutcome } from '../payers/payer-connector';
import type { CaseBinding } from './case-binding';
import type { BenefitVerificationRequest, CaseRecord, CaseTimings } from './case-model';

/** The manual verification result a reviewer records for an inconclusive check. */
export interface ManualVerificationInput {
  status: 'completed' | 'failed';
  coverage_status?: BenefitsOutcome['coverage_status'];
  notes?: string;
}

export type BenefitVerificationOutcome = BenefitsOutcome & {
  verified_manually: boolean;
  notes: string | null;
};

export interface BenefitVerificationCase extends CaseRecord {
  object: 'benefit_verification';
  outcome: BenefitVerificationOutcome | null;
  error: { title: string; code: string; detail_code: string; message: string } | null;
  request: BenefitVerificationRequest;
}

export interface BenefitVerificationInput {
  case: BenefitVerificationCase;
  accountId: string;
  /** Set by the API on cases started since the `verify-account-binding` patch. */
  binding?: CaseBinding;
  timings: CaseTimings;
}

export const BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS = {
  processing: 'Checking eligibility and drug coverage with the payer.',
  awaiting_review: 'The electronic check was inconclusive; waiting for a manual verification.',
  awaiting_outcome: 'Waiting for the payer.',
  completed: 'Benefits verified.',
  failed: 'The benefits could not be verified.',
  cancelled: 'Cancelled on request.',
} as const;
