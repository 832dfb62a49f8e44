import { caseKind } from './case-kind';

/** A benefit verification as every layer names it; its model is benefit-verification.ts. */
export const BENEFIT_VERIFICATION_KIND = caseKind({
  object: 'benefit_verification',
  idKind: 'benefitVerification',
  idPrefix: 'bv',
  workflowType: 'benefitVerificationWorkflow',
  connector: 'eligibility',
  events: {
    'benefit_verification.updated': {
      title: 'Benefit Verification Updated',
      description: 'A benefit verification has been updated.',
    },
  },
});
