import { defineSignal, defineUpdate } from '@temporalio/workflow';

import type { ManualVerificationInput } from '../domain/cases/benefit-verification';
import type { CaseRecord } from '../domain/cases/case-model';

/** A reviewer's manual verification, under the names Temporal sees. */
export const benefitVerificationOutcomeSignal = defineSignal<[ManualVerificationInput]>(
  'benefitVerificationOutcome',
);
export const submitBenefitVerificationOutcomeUpdate = defineUpdate<CaseRecord, [ManualVerificationInput]>(
  'submitBenefitVerificationOutcome',
);
