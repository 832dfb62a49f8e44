import type { CaseObjectType } from '../../../domain/cases/case-model';
import { ApiError } from '../../common/errors';
import type { CaseType } from '../../cases/case-type';
import { BENEFIT_VERIFICATION } from '../../cases/types/benefit-verification/benefit-verification.case-type';
import { CLINICAL_ELIGIBILITY } from '../../cases/types/clinical-eligibility/clinical-eligibility.case-type';
import { PATIENT_ENROLLMENT } from '../../cases/types/patient-enrollment/patient-enrollment.case-type';
import { PRIOR_AUTHORIZATION } from '../../cases/types/prior-authorization/prior-authorization.case-type';

/** A console section of cases: its URL segment, its headings and the case type it shows. */
export interface CaseSection {
  segment: string;
  title: string;
  /** One case of the section, as a page heading names it. */
  singular: string;
  type: CaseType;
}

export const CASE_SECTIONS: readonly CaseSection[] = [
  {
    segment: 'benefit-verifications',
    title: 'Benefit verifications',
    singular: 'Benefit verification',
    type: BENEFIT_VERIFICATION,
  },
  {
    segment: 'prior-authorizations',
    title: 'Prior authorizations',
    singular: 'Prior authorization',
    type: PRIOR_AUTHORIZATION,
  },
  {
    segment: 'clinical-eligibility',
    title: 'Clinical eligibility',
    singular: 'Clinical eligibility check',
    type: CLINICAL_ELIGIBILITY,
  },
  { segment: 'enrollments', title: 'Enrollments', singular: 'Enrollment', type: PATIENT_ENROLLMENT },
];

export const SECTION_SEGMENTS = CASE_SECTIONS.map((section) => section.segment);

/** The section a console path is under (`/console/<segment>/...`). */
export function sectionOfPath(path: string): CaseSection {
  const segment = path.split('/')[2];
  const section = CASE_SECTIONS.find((candidate) => candidate.segment === segment);
  if (!section) throw ApiError.notFound();
  return section;
}

export function sectionOfObject(object: CaseObjectType): CaseSection {
  return CASE_SECTIONS.find((section) => section.type.object === object)!;
}

/** A case's console page. */
export function casePath(section: CaseSection, id: string): string {
  return `/console/${section.segment}/${encodeURIComponent(id)}`;
}
