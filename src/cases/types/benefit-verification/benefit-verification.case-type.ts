import { BENEFIT_VERIFICATION_KIND } from '../../../../domain/cases/benefit-verification.kind';
import {
  BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS,
  manualVerificationIssues,
} from '../../../../domain/cases/benefit-verification';
import type {
  BenefitVerificationCase,
  ManualVerificationInput,
} from '../../../../domain/cases/benefit-verification';
import { ApiError } from '../../../common/errors';
import { submitBenefitVerificationOutcomeUpdate } from '../../../../workflows/benefit-verification.messages';
import type { benefitVerificationWorkflow } from '../../../../workflows/benefit-verification.workflow';
import { casePatient, incomingDocuments, newCaseRecord, requestDocuments } from '../../case-request-mapping';
import { BenefitVerificationOutcomeDto, CreateBenefitVerificationDto } from './benefit-verification.dto';
import { caseTimingsOf, defineCaseType, outcomeDecision } from '../../case-type';
import { BENEFIT_VERIFICATION_CONSOLE } from './benefit-verification.console';

export const BENEFIT_VERIFICATION = defineCaseType<
  typeof benefitVerificationWorkflow,
  CreateBenefitVerificationDto
>({
  kind: BENEFIT_VERIFICATION_KIND,
  schema: 'BenefitVerification',
  path: 'benefit-verification',
  create: {
    body: CreateBenefitVerificationDto,
    role: 'provider',
    summary: 'Run a benefit verification; it starts in processing',
    patientInternalId: (request) => request.patient.internal_id,
    documents: incomingDocuments,
    input: (request, context) => {
      const { accountId, documents, settings } = context;
      const record: BenefitVerificationCase = {
        ...newCaseRecord('benefit_verification', context, BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS, request),
        error: null,
        request: {
          patient: casePatient(request.patient, documents),
          drugs: request.drugs,
          provider: request.provider,
          insurance: requestDocuments(documents),
          insurance_content: request.insurance_content ?? null,
          diagnoses: request.diagnoses ?? [],
          mock_result: request.mock_result ?? null,
        },
      };
      return {
        case: record,
        accountId,
        timings: caseTimingsOf(settings, 'benefit_verification'),
      };
    },
  },
  list: { summary: "List the account's benefit verifications, newest first" },
  get: {
    summary: 'Get a benefit verification',
    description:
      '`outcome` (once final) holds `coverage_status`, `coverage_type`, `plan_fund_source`, ' +
      '`pharmacy_benefit_manager_name`, `payer_name`, `plan_name`, `bin`, `pcn`, `deductible` and ' +
      '`out_of_pocket` ({ total_cents, met_cents, remaining_cents }), and, read from the payer’s X12 271 ' +
      '(docs/x12.md): `coverage_dates` ({ start_date, end_date }), `pharmacy_benefits[]` ({ service_type_code, ' +
      'service_type, benefit, level, network, amount_cents, coinsurance_percent, prior_authorization_required, ' +
      'messages }), `accumulators[]` ({ kind, level, network, period, service_type_codes, total_cents, ' +
      'remaining_cents, met_cents }), `payer_messages[]` and `rejection` ({ level, code, reason, follow_up }). ' +
      '`outcome.drugs[]` has per drug `drug`, `ndc`, `coverage` (covered, not_covered or unknown with ' +
      '`unknown_reason`), `coverage_detail_code`, `tier`, `prior_authorization_required`, ' +
      '`step_therapy_required`, `quantity_limit` with `quantity_limit_period_days`, `copay`, `copay_options`, ' +
      '`coinsurance_percent`, `benefit_type` (pharmacy or medical) with `hcpcs_code`, ' +
      '`determination_details`, `has_active_prior_auth` and `source` (formulary, manual, or null when unknown).',
  },
  decisions: [
    {
      ...outcomeDecision(
        submitBenefitVerificationOutcomeUpdate,
        BenefitVerificationOutcomeDto,
        'Record the manual verification result (status awaiting_review)',
      ),
      // A case in another status gets the workflow's own 409.
      checkAgainst: (record, result) => {
        if (record.status !== 'awaiting_review') return;
        const issues = manualVerificationIssues(
          (record as BenefitVerificationCase).request.drugs,
          result as ManualVerificationInput,
        );
        if (issues.length > 0)
          throw new ApiError('validation_error', 'The request is invalid; see details.', issues);
      },
    },
  ],
  cancel: { role: 'provider', summary: 'Cancel a benefit verification that is not final yet' },
  waitsOutOutages: true,
  console: BENEFIT_VERIFICATION_CONSOLE,
});
