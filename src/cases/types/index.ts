import type { CaseObjectType } from '../../../domain/cases/case-kinds';
import type { CaseType } from '../case-type';
import { BENEFIT_VERIFICATION } from './benefit-verification/benefit-verification.case-type';
import { CLINICAL_ELIGIBILITY } from './clinical-eligibility/clinical-eligibility.case-type';
import { PATIENT_ENROLLMENT } from './patient-enrollment/patient-enrollment.case-type';
import { PRIOR_AUTHORIZATION } from './prior-authorization/prior-authorization.case-type';

/**
 * The case type that serves each domain case kind (domain/cases/case-kinds.ts), in the order the API
 * document lists them: a kind added there without its case type here does not compile.
 */
const CASE_TYPE_OF_KIND: { readonly [Object in CaseObjectType]: CaseType } = {
  prior_authorization: PRIOR_AUTHORIZATION,
  benefit_verification: BENEFIT_VERIFICATION,
  clinical_eligibility: CLINICAL_ELIGIBILITY,
  patient_enrollment: PATIENT_ENROLLMENT,
};

/** Every case type the API serves, in the order the API document lists them. */
export const CASE_TYPES: readonly CaseType[] = Object.values(CASE_TYPE_OF_KIND);

/** The creations whose bodies carry base64 documents, which the edge lets be larger than others. */
export const CASE_DOCUMENT_ROUTES: readonly string[] = CASE_TYPES.filter(
  (type) => type.create.documents !== undefined,
).map((type) => `POST /${type.path}`);
