import { Counter } from 'prom-client';

import type { FeedbackPart, FeedbackRating } from '../../../domain/cases/case-feedback';

/**
 * Feedback given in this process, by rating, and the parts it named, by rating and part: registered
 * in the API's metrics (src/metrics/api-metrics.ts). No label names an account or a case, and
 * nothing of a comment: the series stay few and carry no PHI.
 */
export const FEEDBACK_METRICS = {
  given: new Counter({
    name: 'prior_authorization_feedback_total',
    help: 'Feedback given on prior authorizations, by rating.',
    labelNames: ['rating'] as const,
    registers: [],
  }),
  parts: new Counter({
    name: 'prior_authorization_feedback_parts_total',
    help: 'Parts named by feedback on prior authorizations (one feedback may name several), by rating and part.',
    labelNames: ['rating', 'part'] as const,
    registers: [],
  }),
};

export function countFeedback(rating: FeedbackRating, parts: readonly FeedbackPart[]): void {
  FEEDBACK_METRICS.given.inc({ rating });
  for (const part of parts) FEEDBACK_METRICS.parts.inc({ rating, part });
}
