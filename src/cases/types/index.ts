import type { CaseType } from '../case-type';
import { BENEFIT_VERIFICATION } from './benefit-verification/benefit-verification.case-type';
import { CLINICAL_ELIGIBILITY } from './clinical-eligibility/clinical-eligibility.case-type';
import { PATIENT_ENROLLMENT } from './patient-enrollment/patient-enrollment.case-type';
import { PRIOR_AUTHORIZATION } from './prior-authorization/prior-authorization.case-type';

/** Every case type the API serves, in the order the API document lists them. */
export const CASE_TYPES: readonly CaseType[] = [
  PRIOR_AUTHORIZATION,
  BENEFIT_VERIFICATION,
  CLINICAL_ELIGIBILITY,
  PATIENT_ENROLLMENT,
];
