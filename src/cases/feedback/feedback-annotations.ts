import type { Database } from '../../../infrastructure/storage/database';
import { type CaseAnnotations, NO_ANNOTATIONS } from '../case-extensions';

/** Placeholder until feedback is built (issue 46): reads add nothing. */
export function feedbackAnnotations(_deps: { db: Database }): CaseAnnotations {
  return NO_ANNOTATIONS;
}
