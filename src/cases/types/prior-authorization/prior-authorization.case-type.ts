import { PRIOR_AUTHORIZATION_KIND } from '../../../../domain/cases/prior-authorization.kind';
import {
  informationAnswerIssues,
  MAX_PRIOR_AUTH_EVIDENCE,
  PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS,
  withInformation,
} from '../../../../domain/cases/prior-authorization';
import type {
  PriorAuthInformationAnswers,
  PriorAuthorizationCase,
} from '../../../../domain/cases/prior-authorization';
import {
  submitPayerQuestionnaireAnswersUpdate,
  submitPriorAuthorizationInformationUpdate,
  submitPriorAuthorizationOutcomeUpdate,
  submitReviewDecisionUpdate,
} from '../../../../workflows/prior-authorization.messages';
import type { priorAuthorizationWorkflow } from '../../../../workflows/prior-authorization.workflow';
import { ApiError } from '../../../common/errors';
import {
  caseEvidence,
  casePatient,
  evidenceAssetDocuments,
  incomingDocuments,
  newCaseRecord,
  requestDocuments,
} from '../../case-request-mapping';
import {
  CreatePriorAuthorizationDto,
  PriorAuthInformationDto,
  PriorAuthOutcomeDto,
  QuestionnaireAnswersDto,
  ReviewDecisionDto,
} from './prior-authorization.dto';
import { answeredQuestionnaire, answerIssues } from '../../../../domain/dtr/questionnaire-answers';
import type { QuestionnaireAnswers } from '../../../../domain/dtr/questionnaire';
import { assertStorable } from '../../case-size';
import { caseTimingsOf, defineCaseType, outcomeDecision } from '../../case-type';
import { PRIOR_AUTHORIZATION_CONSOLE } from './prior-authorization.console';

export const PRIOR_AUTHORIZATION = defineCaseType<
  typeof priorAuthorizationWorkflow,
  CreatePriorAuthorizationDto
>({
  kind: PRIOR_AUTHORIZATION_KIND,
  schema: 'PriorAuthorization',
  path: 'prior-authorization',
  create: {
    body: CreatePriorAuthorizationDto,
    role: 'provider',
    summary: 'Send a prior authorization; it starts in processing',
    patientInternalId: (request) => request.patient.internal_id,
    documents: (request) => [...incomingDocuments(request), ...evidenceAssetDocuments(request.evidence)],
    input: (request, context) => {
      const { accountId, documents, now, settings } = context;
      const urgency = request.urgency ?? 'standard';
      const record: PriorAuthorizationCase = {
        ...newCaseRecord('prior_authorization', context, PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS, request),
        urgency,
        // The payer's deadline starts when the payer receives the request; until then the review's.
        due_at: null,
        review_due_at: new Date(now.getTime() + settings.reviewDueWithinMs[urgency]).toISOString(),
        overdue: false,
        plan: null,
        coverage: null,
        criteria: [],
        review: null,
        review_reminder_at: null,
        submission: null,
        pending_request: null,
        request: {
          patient: casePatient(request.patient, documents),
          diagnoses: request.diagnoses,
          prescription: request.prescription,
          provider: request.provider,
          insurance: requestDocuments(documents),
          insurance_content: request.insurance_content ?? null,
          evidence: caseEvidence(request.evidence, documents),
          questionnaires: request.questionnaires ?? [],
          visit_notes: request.visit_notes ?? [],
          is_training_data: request.is_training_data ?? false,
          urgency,
          mock_result: request.mock_result ?? null,
        },
      };
      return {
        case: record,
        accountId,
        timings: caseTimingsOf(settings, 'prior_authorization'),
        payerDeadlines: {
          standardMs: settings.dueWithinMs.standard,
          expeditedMs: settings.dueWithinMs.expedited,
        },
      };
    },
  },
  list: { summary: "List the account's prior authorizations, newest first" },
  get: {
    summary: 'Get a prior authorization',
    description:
      "`criteria` are the plan's criteria answered from the request ({ id, question, answer, source }); " +
      '`unread_evidence` ([{ title, bytes_unread, reason }], absent when none) is the evidence they could not see. ' +
      '`review_due_at` is the internal target for the clinical review, set at creation. `due_at` is the ' +
      "payer's decision deadline: null until the payer receives the request, then set by plan type " +
      '(Medicare: 72 h / 24 h expedited, Part B rules for medical-benefit drugs, Part D for the rest; ' +
      'Medicaid 24 h; other plans configured; docs/workflows.md, "Deadlines"); ' +
      '`overdue` turns true once it passes without a determination. While awaiting_outcome, `pending_request` ' +
      "({ kind: information_requested, questions: [{ id, text }], due_at }) is the payer's request for " +
      'information, answered with POST …/information. `outcome` holds `result` (approved, denied, ' +
      'partially_approved or other, which complete the case; not_submitted, which fails it), `detail_code`, ' +
      '`detail`, `payer_reference`, `decided_at`, `authorization_number`, `approved_quantity`, ' +
      '`authorization_start_date` and `authorization_expiration`.',
  },
  decisions: [
    {
      name: 'review',
      message: submitReviewDecisionUpdate,
      body: ReviewDecisionDto,
      role: 'reviewer',
      auditAction: 'case.decision_recorded',
      summary: 'Approve or reject at clinical review (status awaiting_review)',
    },
    outcomeDecision(
      submitPriorAuthorizationOutcomeUpdate,
      PriorAuthOutcomeDto,
      "Record the payer's answer (status awaiting_outcome): a determination, an information request, or not submitted",
    ),
    {
      name: 'information',
      message: submitPriorAuthorizationInformationUpdate,
      body: PriorAuthInformationDto,
      role: 'provider',
      auditAction: 'case.information_provided',
      summary:
        "Answer the payer's information request (status awaiting_outcome with a pending_request); the case goes back to the payer",
      checkAgainst: (record, information) =>
        assertAnswersFit(record as PriorAuthorizationCase, information as PriorAuthInformationAnswers),
    },
    {
      name: 'questionnaire',
      message: submitPayerQuestionnaireAnswersUpdate,
      body: QuestionnaireAnswersDto,
      // Integrators answer through the API with provider keys; the clinic's reviewers in the console.
      role: ['provider', 'reviewer'],
      auditAction: 'case.questionnaire_answered',
      summary:
        "Answer items of the payer's questionnaire (status awaiting_review); approval waits until every required item is answered",
      checkAgainst: (record, answers) =>
        assertQuestionnaireAnswersFit(record as PriorAuthorizationCase, answers as QuestionnaireAnswers),
    },
  ],
  cancel: { role: 'provider', summary: 'Cancel a prior authorization that is not final yet' },
  waitsOutOutages: true,
  console: PRIOR_AUTHORIZATION_CONSOLE,
});

/**
 * Answers name the pending request's questions (400 otherwise), and the request with the documents
 * added must stay storable (413). Without a pending request the workflow's own 409 answers.
 */
function assertAnswersFit(record: PriorAuthorizationCase, information: PriorAuthInformationAnswers): void {
  const pending = record.pending_request;
  if (record.status !== 'awaiting_outcome' || !pending) return;
  const unknown = informationAnswerIssues(pending, information);
  if (unknown.length > 0)
    throw new ApiError('validation_error', 'The request is invalid; see details.', unknown);
  const evidenceCount = record.request.evidence.length + (information.documents?.length ?? 0);
  if (evidenceCount > MAX_PRIOR_AUTH_EVIDENCE) {
    throw new ApiError(
      'payload_too_large',
      `A prior authorization holds at most ${MAX_PRIOR_AUTH_EVIDENCE} evidence items; with these documents it would hold ${evidenceCount}.`,
    );
  }
  const answered: PriorAuthorizationCase = {
    ...record,
    request: withInformation(record.request, information),
  };
  assertStorable(answered);
}

/**
 * Answers name items of the case's questionnaire and fit their types (400 naming each link_id). A case
 * without a questionnaire, or past review, is the workflow's 409 to answer.
 */
function assertQuestionnaireAnswersFit(record: PriorAuthorizationCase, answers: QuestionnaireAnswers): void {
  const { questionnaire } = record;
  if (record.status !== 'awaiting_review' || !questionnaire?.items.length) return;
  const issues = answerIssues(questionnaire.items, answers.answers);
  if (issues.length > 0)
    throw new ApiError(
      'validation_error',
      'The answers do not fit the questionnaire; see details.',
      issues.map(({ link_id, message }) => ({ field: `answers.${link_id}`, issue: message })),
    );
  // Answers accumulate on the case across calls: with these, it must stay storable (413 otherwise).
  const answered: PriorAuthorizationCase = {
    ...record,
    questionnaire: answeredQuestionnaire(questionnaire, answers),
  };
  assertStorable(answered);
}
