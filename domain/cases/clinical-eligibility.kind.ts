import { caseKind } from './case-kind';

/** A clinical eligibility check as every layer names it; its model is clinical-eligibility.ts. */
export const CLINICAL_ELIGIBILITY_KIND = caseKind({
  object: 'clinical_eligibility',
  idKind: 'clinicalEligibility',
  idPrefix: 'ce',
  workflowType: 'clinicalEligibilityWorkflow',
  // It runs the criteria engine in both modes.
  connector: null,
  events: {
    'clinical_eligibility.updated': {
      title: 'Clinical Eligibility Updated',
      description: 'A clinical eligibility check has been updated.',
    },
  },
});
