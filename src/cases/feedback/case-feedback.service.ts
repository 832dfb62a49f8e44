import {
  criterionMarks,
  feedbackDrugOf,
  feedbackIssues,
  MAX_FEEDBACK_PER_CASE,
  type FeedbackReport,
  type NewFeedback,
} from '../../../domain/cases/case-feedback';
import type { PriorAuthorizationCase } from '../../../domain/cases/prior-authorization';
import { DAY_MS } from '../../../domain/durations';
import type { Principal } from '../../../infrastructure/accounts/accounts.repository';
import type {
  CaseFeedbackRepository,
  RecordedFeedback,
} from '../../../infrastructure/cases/case-feedback.repository';
import { ApiError } from '../../common/errors';
import type { CasesService } from '../cases.service';
import { PRIOR_AUTHORIZATION } from '../types/prior-authorization/prior-authorization.case-type';
import { countFeedback } from './feedback-metrics';

/** The report's period when the caller names none: the last 30 days. */
const DEFAULT_REPORT_DAYS = 30;
/** The longest period one report covers. */
const MAX_REPORT_DAYS = 366;

/**
 * Feedback on prior authorizations, the same for the API and the console: found through
 * `CasesService.get` (so another account's or mode's case is 404 by the same rule as a read),
 * checked against the case, and stored beside it. The case's workflow is never sent anything.
 */
export class CaseFeedbackService {
  constructor(
    private readonly cases: Pick<CasesService, 'get'>,
    private readonly feedback: CaseFeedbackRepository,
  ) {}

  /**
   * Stores the feedback, or finds the one stored under the same `idempotencyId` (the API's bound
   * Idempotency-Key, the console form's one-time key): `created` says which.
   */
  async give(
    principal: Principal,
    caseId: string,
    given: NewFeedback,
    idempotencyId?: string,
  ): Promise<RecordedFeedback> {
    const record = (await this.cases.get(principal, PRIOR_AUTHORIZATION, caseId)) as PriorAuthorizationCase;
    const issues = feedbackIssues(given, record.criteria);
    if (issues.length > 0)
      throw new ApiError('validation_error', 'The request is invalid; see details.', issues);
    const criteria = (given.criteria ?? []).map(({ id, expected_answer }) => ({ id, expected_answer }));
    const parts = given.parts ?? [];
    const recorded = await this.feedback.record(
      {
        accountId: principal.accountId,
        livemode: principal.livemode,
        caseId: record.id,
        rating: given.rating,
        parts,
        comment: given.comment ?? null,
        criteria,
        marks: criterionMarks(criteria, record.criteria),
        drug: feedbackDrugOf(record.request.prescription),
        author: { type: principal.credential.type, id: principal.credential.id },
        idempotencyId,
      },
      MAX_FEEDBACK_PER_CASE,
    );
    if (recorded === 'full') {
      throw new ApiError(
        'invalid_state',
        `This prior authorization holds the most feedback it takes (${MAX_FEEDBACK_PER_CASE}); nothing was stored.`,
      );
    }
    // A retry that found the feedback its first attempt stored counts nothing twice.
    if (recorded.created) countFeedback(given.rating, parts);
    return recorded;
  }

  /** The account's feedback in the caller's mode over [from, to), by drug and criterion. */
  async report(principal: Principal, period: { from?: string; to?: string }): Promise<FeedbackReport> {
    const to = period.to ? new Date(period.to) : new Date();
    const from = period.from ? new Date(period.from) : new Date(to.getTime() - DEFAULT_REPORT_DAYS * DAY_MS);
    if (from.getTime() >= to.getTime()) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'from', issue: 'must be before to' },
      ]);
    }
    if (to.getTime() - from.getTime() > MAX_REPORT_DAYS * DAY_MS) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'from', issue: `must be at most ${MAX_REPORT_DAYS} days before to` },
      ]);
    }
    return this.feedback.report({ accountId: principal.accountId, livemode: principal.livemode }, from, to);
  }
}
