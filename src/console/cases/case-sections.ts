import { CASE_KINDS } from '../../../domain/cases/case-kinds';
import type { CaseObjectType } from '../../../domain/cases/case-model';
import { ApiError } from '../../common/errors';
import { CASE_TYPES, type CaseConsoleSection, type CaseType } from '../../cases/cases.module';

/** A console section of cases: its URL segment, its headings and the case type it shows. */
export interface CaseSection extends CaseConsoleSection {
  type: CaseType;
}

/**
 * One section per case type, as each type declares it, in the order of the domain's case kinds
 * (benefit verifications first), which is the navigation's order too.
 */
export const CASE_SECTIONS: readonly CaseSection[] = CASE_KINDS.map((kind) => {
  const type = CASE_TYPES.find((candidate) => candidate.object === kind.object)!;
  return { ...type.console.section, type };
});

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
