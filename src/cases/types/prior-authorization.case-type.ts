import { PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS } from '../../../domain/cases/prior-authorization';
import type { PriorAuthorizationCase } from '../../../domain/cases/prior-authorization';
import {
  submitPriorAuthorizationOutcomeUpdate,
  submitReviewDecisionUpdate,
} from '../../../workflows/prior-authorization.messages';
import type { priorAuthorizationWorkflow } from '../../../workflows/prior-authorization.workflow';
import { casePatient, incomingDocuments, newCaseRecord, requestDocuments } from '../case-request-mapping';
import { CreatePriorAuthorizationDto, PriorAuthOutcomeDto, ReviewDecisionDto } from '../case-requests.dto';
import { caseTimingsOf, defineCaseType, outcomeDecision } from '../case-type';

export const PRIOR_AUTHORIZATION = defineCaseType<
  typeof priorAuthorizationWorkflow,
  CreatePriorAuthorizationDto
>({
  object: 'prior_authorization',
  idKind: 'priorAuthorization',
  path: 'prior-authorization',
  workflowType: 'priorAuthorizationWorkflow',
  create: {
    body: CreatePriorAuthorizationDto,
    role: 'provider',
    summary: 'Send a prior authorization; it starts in processing',
    patientInternalId: (request) => request.patient.internal_id,
    documents: incomingDocuments,
    input: (request, context) => {
      const { accountId, documents, now, settings } = context;
      const urgency = request.urgency ?? 'standard';
      const record: PriorAuthorizationCase = {
        ...newCaseRecord(
          'prior_authorization',
          context,
          PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS.processing,
          request.metadata ?? {},
        ),
        urgency,
        due_at: new Date(now.getTime() + settings.dueWithinMs[urgency]).toISOString(),
        overdue: false,
        plan: null,
        coverage: null,
        criteria: [],
        review: null,
        review_reminder_at: null,
        submission: null,
        request: {
          patient: casePatient(request.patient, documents),
          diagnoses: request.diagnoses,
          prescription: request.prescription,
          provider: request.provider,
          insurance: requestDocuments(documents),
          insurance_content: request.insurance_content ?? null,
          evidence: request.evidence ?? [],
          questionnaires: request.questionnaires ?? [],
          visit_notes: request.visit_notes ?? [],
          is_training_data: request.is_training_data ?? false,
          urgency,
          mock_result: request.mock_result ?? null,
        },
      };
      return { case: record, accountId, timings: caseTimingsOf(settings) };
    },
  },
  list: { summary: "List the account's prior authorizations, newest first" },
  get: { summary: 'Get a prior authorization' },
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
      "Record the payer's determination (status awaiting_outcome)",
    ),
  ],
  cancel: { role: 'provider', summary: 'Cancel a prior authorization that is not final yet' },
});
