import type { RoleRequirement } from '../accounts/roles';
import type { CriterionAnswer } from '../payers/payer-connector';
import type { Prescription } from './prior-authorization-request';

/**
 * Feedback on a prior authorization (docs/feedback.md): how right the case was, which parts it
 * concerns and, per criterion, the answer the reviewer expected. It is kept beside the case, never in
 * its workflow, so it never changes the case's status, decision or notifications.
 */
export const FEEDBACK_RATINGS = ['correct', 'partially_correct', 'incorrect'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** Who gives feedback: integrations with provider keys, and the clinic's reviewers in the console. */
export const FEEDBACK_ROLE = ['provider', 'reviewer'] as const satisfies RoleRequirement;

/** What of the case a feedback is about: the plan found, the criteria answers, the documents read, the determination. */
export const FEEDBACK_PARTS = ['plan', 'criteria', 'documents', 'determination'] as const;
export type FeedbackPart = (typeof FEEDBACK_PARTS)[number];

/** The answers a criterion takes (`CriterionAnswer.answer`), so an expectation reads like the case's answer. */
export const CRITERION_ANSWERS = [
  'yes',
  'no',
  'unknown',
] as const satisfies readonly CriterionAnswer['answer'][];

/**
 * Feedback a case holds, at most: far more than people give on one case, and a bound on what each
 * read of the case carries. The next is refused with 409 `invalid_state`.
 */
export const MAX_FEEDBACK_PER_CASE = 100;

export interface CriterionExpectation {
  /** A criterion of the case (`criteria[].id`). */
  id: string;
  expected_answer: CriterionAnswer['answer'];
}

/** Who gave feedback, as the audit trail names the actor: an API key or a console user, by id. */
export interface FeedbackAuthor {
  type: 'api_key' | 'user';
  id: string;
}

/** One feedback as the API answers it and lists it on the case (`feedback[]`). */
export interface PriorAuthorizationFeedback {
  id: string;
  object: 'prior_authorization_feedback';
  rating: FeedbackRating;
  parts: FeedbackPart[];
  comment: string | null;
  criteria: CriterionExpectation[];
  author: FeedbackAuthor;
  created_at: string;
}

export interface NewFeedback {
  rating: FeedbackRating;
  parts?: FeedbackPart[];
  comment?: string;
  criteria?: CriterionExpectation[];
}

/** Where a feedback does not fit its case, as the API's validation details name it. */
export interface FeedbackIssue {
  field: string;
  issue: string;
}

/**
 * What a feedback says wrongly of its case: a criterion the case does not hold, named by its place
 * (`criteria[1].id`), and a rating other than `correct` that names no part.
 */
export function feedbackIssues(
  feedback: NewFeedback,
  caseCriteria: readonly CriterionAnswer[],
): FeedbackIssue[] {
  const issues: FeedbackIssue[] = [];
  if (feedback.rating !== 'correct' && (feedback.parts ?? []).length === 0) {
    issues.push({
      field: 'parts',
      issue: `must name at least one part (${FEEDBACK_PARTS.join(', ')}) when the rating is ${feedback.rating}`,
    });
  }
  const held = new Set(caseCriteria.map((criterion) => criterion.id));
  (feedback.criteria ?? []).forEach((expectation, index) => {
    if (!held.has(expectation.id)) {
      issues.push({
        field: `criteria[${index}].id`,
        issue:
          held.size === 0
            ? 'names no criterion of this case: it holds none yet'
            : 'names no criterion of this case (see its criteria[].id)',
      });
    }
  });
  return issues;
}

/** The drug a prior authorization asks for, as the report groups feedback: by NDC, else by name. */
export interface FeedbackDrug {
  key: string;
  name: string | null;
  ndc: string | null;
}

export function feedbackDrugOf(prescription: Pick<Prescription, 'drug_name' | 'ndc'>): FeedbackDrug {
  const name = prescription.drug_name?.trim() || null;
  const ndc = prescription.ndc?.trim() || null;
  return { key: ndc ? `ndc:${ndc}` : `name:${(name ?? '').toLowerCase()}`, name, ndc };
}

/**
 * Per criterion the feedback named, what the report counts: whether the reviewer expected another
 * answer than the case held. The expected answer itself stays sealed with the comment.
 */
export interface CriterionMark {
  id: string;
  question: string;
  differs: boolean;
}

export function criterionMarks(
  expectations: readonly CriterionExpectation[],
  caseCriteria: readonly CriterionAnswer[],
): CriterionMark[] {
  return expectations.map((expectation) => {
    const held = caseCriteria.find((criterion) => criterion.id === expectation.id);
    return {
      id: expectation.id,
      question: held?.question ?? '',
      differs: held?.answer !== expectation.expected_answer,
    };
  });
}

/** The admin report of feedback over a period: per drug, the ratings and parts, and per criterion the expectations. */
export interface FeedbackReport {
  object: 'prior_authorization_feedback_report';
  from: string;
  to: string;
  livemode: boolean;
  feedback_count: number;
  drugs: FeedbackReportDrug[];
}

export interface FeedbackReportDrug {
  drug: FeedbackDrug;
  feedback_count: number;
  ratings: Record<FeedbackRating, number>;
  parts: Record<FeedbackPart, number>;
  criteria: FeedbackReportCriterion[];
}

export interface FeedbackReportCriterion {
  id: string;
  question: string;
  /** Feedback that named this criterion with an expected answer. */
  named: number;
  /** Of those, how many expected another answer than the case held. */
  expected_other_answer: number;
}
