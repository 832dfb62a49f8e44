import { PATIENT_ENROLLMENT_KIND } from '../../../../domain/cases/patient-enrollment.kind';
import {
  enrollmentOutcomeIssues,
  MAX_ENROLLMENT_EVIDENCE,
  mergeInformation,
  PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS,
} from '../../../../domain/cases/patient-enrollment';
import type {
  EnrollmentOutcomeInput,
  PatientEnrollmentCase,
} from '../../../../domain/cases/patient-enrollment';
import type { EnrollmentInformation } from '../../../../domain/programs/enrollment-model';
import { patientAuthorizationIssue } from '../../../../domain/programs/patient-authorization';
import {
  awaitScreeningUpdate,
  submitEnrollmentInformationUpdate,
  submitEnrollmentOutcomeUpdate,
} from '../../../../workflows/patient-enrollment.messages';
import type { patientEnrollmentWorkflow } from '../../../../workflows/patient-enrollment.workflow';
import { ApiError } from '../../../common/errors';
import {
  CreatePatientEnrollmentDto,
  EnrollmentInformationDto,
  EnrollmentOutcomeDto,
} from './patient-enrollment.dto';
import { newCaseRecord } from '../../case-request-mapping';
import { assertStorable } from '../../case-size';
import { caseTimingsOf, defineCaseType, outcomeDecision } from '../../case-type';
import { shippedSupportPrograms } from '../../../../infrastructure/catalogs/shipped-catalogs';
import { PATIENT_ENROLLMENT_CONSOLE } from './patient-enrollment.console';

/** The program's rules take milliseconds; this bounds the wait when no worker is running. */
const SCREENING_WAIT_MS = 15_000;

export const PATIENT_ENROLLMENT = defineCaseType<
  typeof patientEnrollmentWorkflow,
  CreatePatientEnrollmentDto
>({
  kind: PATIENT_ENROLLMENT_KIND,
  schema: 'PatientEnrollment',
  path: 'patient-enrollment',
  create: {
    body: CreatePatientEnrollmentDto,
    role: 'provider',
    summary:
      "Enroll a patient in a support program. Answers once the program's rules ran: awaiting_outcome " +
      '(submitted), awaiting_review with missing_information (more information needed) or failed (ineligible).',
    // Before anything is stored or started: a program that needs the patient's authorization gets none of their data without it.
    check: (request) => {
      const program = shippedSupportPrograms().find(request.programId);
      const issue = program
        ? patientAuthorizationIssue(program.patient_authorization_required, request.patient_authorization)
        : { field: 'programId', issue: 'must name a support program (see GET /support-programs)' };
      if (issue) throw new ApiError('validation_error', 'The request is invalid; see details.', [issue]);
    },
    // The caller's own patient reference, when it gives one, makes the patient filter work.
    patientInternalId: (request) =>
      request.patient.metadata?.patient_id ?? `unreferenced:${request.metadata?.enrollment_id ?? ''}`,
    input: (request, context) => {
      const { accountId, settings } = context;
      const record: PatientEnrollmentCase = {
        ...newCaseRecord('patient_enrollment', context, PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS, {
          metadata: request.metadata?.enrollment_id ? { enrollment_id: request.metadata.enrollment_id } : {},
        }),
        program_id: request.programId,
        screening: null,
        missing_information: [],
        submission: null,
        request: {
          patient: request.patient,
          programId: request.programId,
          prescription: request.prescription ?? null,
          evidence: request.evidence ?? [],
          patient_authorization: request.patient_authorization ?? null,
          ...(request.mock_result ? { mock_result: request.mock_result } : {}),
        },
      };
      return {
        case: record,
        accountId,
        timings: caseTimingsOf(settings, 'patient_enrollment'),
      };
    },
    answersAfter: { message: awaitScreeningUpdate, timeoutMs: SCREENING_WAIT_MS },
  },
  list: { summary: "List the account's enrollments" },
  get: {
    summary: 'Get an enrollment',
    description:
      '`outcome` (once final) holds `result` (enrolled, denied or inconclusive), `program_id`, `member_id`, ' +
      '`bin`, `pcn`, `group`, `valid_until` and `detail`. The four card identifiers are set only by copay ' +
      'programs and are null for every other program type. An enrollment the program hub confirmed also ' +
      'has `confirmation`, told apart by `kind` (docs/workflows.md): `copay_card` ({ member_id, bin, pcn, ' +
      'group, valid_until }); `free_drug_fulfillment` ({ pharmacy_name, ship_to, first_shipment_expected_by, ' +
      'days_supply_per_shipment, reverification_due_on, valid_until }); `bridge_supply_fulfillment` ' +
      '({ pharmacy_name, ship_to, first_shipment_expected_by, coverage_recheck_on, valid_until }); ' +
      '`quick_start_fulfillment` ({ pharmacy_name, ship_to, first_shipment_expected_by, fills_approved, ' +
      'valid_until }); `education_enrollment` ({ contact_channels, support_hours, first_outreach_by, ' +
      'valid_until }); `adherence_enrollment` ({ reminder_channels, reminder_schedule, first_outreach_by, ' +
      'valid_until }). Denials, decisions a reviewer recorded and enrollments completed before ' +
      'confirmations existed have none.',
  },
  decisions: [
    {
      name: 'information',
      message: submitEnrollmentInformationUpdate,
      body: EnrollmentInformationDto,
      role: 'provider',
      auditAction: 'case.information_provided',
      summary: 'Send the information the program asked for (status awaiting_review)',
      checkAgainst: (record, information) =>
        assertInformationFits(record as PatientEnrollmentCase, information as EnrollmentInformation),
    },
    {
      ...outcomeDecision(
        submitEnrollmentOutcomeUpdate,
        EnrollmentOutcomeDto,
        "Record the program's decision (status awaiting_outcome). Card identifiers (member_id, bin, pcn, " +
          'group) belong to copay programs only: required member_id when one enrolls the patient, refused ' +
          'for any other program type.',
      ),
      // A case in another status gets the workflow's own 409.
      checkAgainst: (record, outcome) => {
        if (record.status !== 'awaiting_outcome') return;
        const program = shippedSupportPrograms().find((record as PatientEnrollmentCase).program_id);
        if (!program) return;
        const issues = enrollmentOutcomeIssues(program.type, outcome as EnrollmentOutcomeInput);
        if (issues.length > 0)
          throw new ApiError('validation_error', 'The request is invalid; see details.', issues);
      },
    },
  ],
  cancel: { role: 'provider', summary: 'Cancel an enrollment that is not final yet' },
  waitsOutOutages: true,
  console: PATIENT_ENROLLMENT_CONSOLE,
});

/**
 * The enrollment with the information merged in must stay storable (it is the workflow's state,
 * its memo and the input of a continued run), so growth is refused here with 413 and nothing is
 * sent. A case in another status gets the workflow's own 409.
 */
function assertInformationFits(record: PatientEnrollmentCase, information: EnrollmentInformation): void {
  if (record.status !== 'awaiting_review') return;
  const evidenceCount = record.request.evidence.length + (information.evidence?.length ?? 0);
  if (evidenceCount > MAX_ENROLLMENT_EVIDENCE) {
    throw new ApiError(
      'payload_too_large',
      `An enrollment holds at most ${MAX_ENROLLMENT_EVIDENCE} evidence items; with this information it would hold ${evidenceCount}.`,
    );
  }
  const merged: PatientEnrollmentCase = { ...record, request: mergeInformation(record.request, information) };
  assertStorable(merged);
}
