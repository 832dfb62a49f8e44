import { defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord } from '../domain/cases/case-model';
import type { BenefitsOutcome } from '../domain/payers/payer-connector';

/** The manual verification result a reviewer records for an inconclusive check. */
export interface ManualVerificationInput {
  status: 'completed' | 'failed';
  coverage_status?: BenefitsOutcome['coverage_status'];
  notes?: string;
}

/** A reviewer's manual verification, under the names Temporal sees. */
export const benefitVerificationOutcomeSignal = defineSignal<[ManualVerificationInput]>(
  'benefitVerificationOutcome',
);
export const submitBenefitVerificationOutcomeUpdate = defineUpdate<CaseRecord, [ManualVerificationInput]>(
  'submitBenefitVerificationOutcome',
);
