import type { UnreadEvidence } from '../clinical/clinical-model';
import type { CriterionAnswer, DrugCoverage, ResolvedPlan } from '../payers/payer-connector';
import type { CaseQuestionnaire } from '../dtr/questionnaire';
import type { CoverageRequirements } from '../payers/coverage-requirements';
import type { PrescriberRegistryCheck } from '../providers/prescriber-registry';
import { PRIOR_AUTH_MOCK_RESULTS } from '../payers/prior-authorization-exchange';
import type {
  InformationAnswer,
  InformationRequest,
  PayerDeterminationResult,
} from '../payers/prior-authorization-exchange';
import type { CaseBinding } from './case-binding';
import type { CaseRecord, CaseTimings, EvidenceItem } from './case-model';
import type { PriorAuthorizationRequest } from './prior-authorization-request';
import type { PayerDecisionDeadlines } from './prior-authorization-deadlines';

/** A clinical reviewer's decision on the prepared request. */
export interface ReviewDecisionInput {
  decision: 'approve' | 'reject';
  reviewer: string;
  notes?: string;
}

/**
 * What a reviewer can record as the payer's answer: a determination, or that the payer did not accept
 * the request; the same answers the sandbox payer can be told to give.
 */
export const PRIOR_AUTH_OUTCOME_RESULTS = PRIOR_AUTH_MOCK_RESULTS;
export type PriorAuthOutcomeResult = (typeof PRIOR_AUTH_OUTCOME_RESULTS)[number];

/** The detail code of `other` that is a payer's request for information, not a determination. */
export const MORE_INFORMATION_REQUIRED = 'more_information_required';

/** The payer's answer, recorded by a person when the payer answered outside the connector. */
export interface PriorAuthOutcomeInput {
  result: PriorAuthOutcomeResult;
  detail_code?: string;
  detail?: string;
  payer_reference?: string;
  authorization_number?: string;
  approved_quantity?: number;
  authorization_start_date?: string;
  authorization_expiration?: string;
  /** With `other` + `more_information_required`: by when the payer wants the answers. */
  information_due_at?: string;
}

export interface PriorAuthorizationOutcome {
  result: PayerDeterminationResult | 'not_submitted';
  detail_code: string | null;
  detail: string | null;
  payer_reference: string | null;
  decided_at: string;
  /** The fields below are absent from outcomes recorded before partial approvals existed. */
  authorization_number?: string | null;
  approved_quantity?: number | null;
  authorization_start_date: string | null;
  authorization_expiration: string | null;
}

/** The provider's answers to the payer's pending information request (`POST …/information`). */
export interface PriorAuthInformationAnswers {
  answers: InformationAnswer[];
  /** Supporting documents, added to the request's evidence and sent to the payer with the answers. */
  documents?: EvidenceItem[];
}

/** Evidence a prior authorization accumulates across information rounds, at most. */
export const MAX_PRIOR_AUTH_EVIDENCE = 120;

export interface PriorAuthorizationCase extends CaseRecord {
  object: 'prior_authorization';
  urgency: 'standard' | 'expedited';
  /**
   * The payer's decision deadline, set when the request reached the payer, by plan type and urgency
   * (prior-authorization-deadlines.ts); null before. Cases created before that rule carry a deadline
   * counted from creation.
   */
  due_at: string | null;
  /** The internal target for the clinical review, set at creation; absent on older cases. */
  review_due_at?: string | null;
  overdue: boolean;
  plan: ResolvedPlan | null;
  coverage: DrugCoverage | null;
  criteria: CriterionAnswer[];
  /**
   * What the payer's CRD service said the order requires (docs/crd.md), or the catalog's criteria
   * with the reason the service gave nothing to act on; absent on cases that did not ask.
   */
  coverage_requirements?: CoverageRequirements | null;
  /**
   * The payer's questionnaire (Da Vinci DTR) named by its CRD answer: its items, prefilled by the
   * payer's CQL, then answered by people (docs/dtr.md); absent on cases that had none.
   */
  questionnaire?: CaseQuestionnaire | null;
  /**
   * What the NPI registry said of the prescriber (docs/providers.md); absent on cases started before
   * the check.
   */
  prescriber_registry?: PrescriberRegistryCheck | null;
  /**
   * Evidence the criteria could not be answered from (a file not read, pages past a limit, text past
   * the caps), so a reviewer knows what the answers did not see; absent when everything was read.
   */
  unread_evidence?: UnreadEvidence[];
  review: (ReviewDecisionInput & { decided_at: string }) | null;
  review_reminder_at: string | null;
  submission: { payer_reference: string; submitted_at: string } | null;
  /** What the payer waits for while awaiting_outcome (an information request); null otherwise. */
  pending_request?: InformationRequest | null;
  outcome: PriorAuthorizationOutcome | null;
  request: PriorAuthorizationRequest;
}

export interface PriorAuthorizationInput {
  case: PriorAuthorizationCase;
  accountId: string;
  /** Set by the API on cases started since the `verify-account-binding` patch. */
  binding?: CaseBinding;
  timings: CaseTimings;
  /** The configured deadlines of plans no regulation fixes; set on cases started since payer deadlines by plan type. */
  payerDeadlines?: PayerDecisionDeadlines;
  /** Set when the workflow continued as new while waiting for the payer. */
  payerChecksSoFar?: number;
  /** Set when a case submitted through the prior authorization exchange continued as new. */
  payerExchange?: boolean;
  /** How many information rounds the provider answered before the workflow continued as new. */
  informationRoundsSoFar?: number;
}

export const PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS = {
  processing: 'Resolving the plan and preparing the request from the clinical record.',
  awaiting_review: 'Waiting for a clinical reviewer to approve or reject the request.',
  awaiting_outcome:
    'Submitted to the payer; waiting for its determination, or for answers to its information request (see pending_request).',
  completed: 'The payer made a determination.',
  failed: 'No determination could be reached.',
  cancelled: 'Cancelled on request.',
} as const;

/**
 * Information sent later joins the request's evidence. The API refuses information that would take
 * the evidence past the cap; a signal from outside the API is not checked there, so the oldest
 * evidence gives way instead of the case outgrowing Temporal's payload limit.
 */
export function withInformation(
  request: PriorAuthorizationRequest,
  information: PriorAuthInformationAnswers,
): PriorAuthorizationRequest {
  if (!information.documents?.length) return request;
  return {
    ...request,
    evidence: [...request.evidence, ...information.documents].slice(-MAX_PRIOR_AUTH_EVIDENCE),
  };
}

/** Each answer names a question of the payer's pending request; positions identify the others. */
export function informationAnswerIssues(
  pending: InformationRequest,
  information: PriorAuthInformationAnswers,
): Array<{ field: string; issue: string }> {
  const asked = new Set(pending.questions.map((question) => question.id));
  return information.answers.flatMap((answer, index) =>
    asked.has(answer.question_id)
      ? []
      : [{ field: `answers[${index}].question_id`, issue: 'must name a question of the pending request' }],
  );
}

/**
 * Where the answers' documents sit in the evidence `withInformation` made of them (the last items),
 * so the payer can be told which evidence is new.
 */
export function addedEvidence(
  withAnswers: PriorAuthorizationRequest,
  information: PriorAuthInformationAnswers,
): number[] {
  const { length } = withAnswers.evidence;
  const added = Math.min(information.documents?.length ?? 0, length);
  return Array.from({ length: added }, (_, offset) => length - added + offset);
}
