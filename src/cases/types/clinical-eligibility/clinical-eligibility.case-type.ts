import { CLINICAL_ELIGIBILITY_KIND } from '../../../../domain/cases/clinical-eligibility.kind';
import { CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS } from '../../../../domain/cases/clinical-eligibility';
import type { ClinicalEligibilityCase } from '../../../../domain/cases/clinical-eligibility';
import type { clinicalEligibilityWorkflow } from '../../../../workflows/clinical-eligibility.workflow';
import { CreateClinicalEligibilityDto } from './clinical-eligibility.dto';
import { success } from '../../../common/envelope';
import { caseEvidence, casePatient, evidenceAssetDocuments, newCaseRecord } from '../../case-request-mapping';
import { defineCaseType } from '../../case-type';
import { CLINICAL_ELIGIBILITY_CONSOLE } from './clinical-eligibility.console';

export const CLINICAL_ELIGIBILITY = defineCaseType<
  typeof clinicalEligibilityWorkflow,
  CreateClinicalEligibilityDto
>({
  kind: CLINICAL_ELIGIBILITY_KIND,
  schema: 'ClinicalEligibility',
  path: 'clinical-eligibility',
  create: {
    body: CreateClinicalEligibilityDto,
    role: 'provider',
    summary: 'Start a clinical eligibility check for several drugs; answers 201 with clinical_elgibility_id',
    patientInternalId: (request) => request.patient.internal_id,
    documents: (request) => [
      ...(request.patient.insurance ?? []).map((document, index) => ({
        name: `patient_insurance_${index + 1}`,
        base64: document.file_content,
      })),
      ...evidenceAssetDocuments(request.evidence),
    ],
    input: (request, context) => {
      const { caseId, accountId, documents } = context;
      const record: ClinicalEligibilityCase = {
        ...newCaseRecord('clinical_eligibility', context, CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS, request),
        clinical_elgibility_id: caseId,
        request: {
          patient: casePatient(request.patient, documents),
          drugs: request.drugs,
          diagnoses: request.diagnoses,
          questionnaires: request.questionnaires ?? [],
          visit_notes: request.visit_notes ?? [],
          evidence: caseEvidence(request.evidence, documents),
          insurance_content: request.insurance_content ?? null,
        },
      };
      return { case: record, accountId };
    },
    // Contract section 1: the envelope, and the specification's top-level field (spelled exactly so).
    respond: {
      schema: 'ClinicalEligibilityCreated',
      body: ({ id, status }) => ({
        ...success({ id, clinical_elgibility_id: id, object: 'clinical_eligibility' as const, status }),
        clinical_elgibility_id: id,
      }),
    },
  },
  list: { summary: "List the account's clinical eligibility checks" },
  get: {
    summary: 'Get a clinical eligibility check with its per-drug results',
    description:
      '`outcome` (once completed) holds `results[]`, per drug: `drug`, `catalog_drug`, `status` (qualified, ' +
      'unqualified or unknown), `criteria[]` ({ id, description, status, evidence[] }), ' +
      '`unqualified_reasons[]`, `prior_authorization_requirement` (yes, no or not_applicable as benefit ' +
      'verification says it for the plan of `insurance_content`; without a plan, what most plans say; null ' +
      'for a drug outside the catalog) and `prior_authorization_required` (true exactly when that is yes); `diagnoses[]` as understood; `plan` ({ resolved: true, payer_name, ' +
      'plan_name, plan_type } or { resolved: false, reason }) when the request carried insurance_content; ' +
      'and `unread[]` when a text asset was cut by the reading caps.',
  },
  decisions: [],
  console: CLINICAL_ELIGIBILITY_CONSOLE,
});
