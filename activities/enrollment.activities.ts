import type { PlanType } from '../domain/cases/case-model';
import type { PayerConnector } from '../domain/payers/payer-connector';
import type {
  EnrollmentOutcome,
  EnrollmentScreening,
  PatientEnrollmentRequest,
} from '../domain/programs/enrollment-model';
import type { PatientAuthorization } from '../domain/programs/patient-authorization';
import type { EnrollmentFacts } from '../domain/programs/program-model';
import {
  evaluateProgramEligibility,
  INCOME_EVIDENCE_CONTENT_FIELDS,
  INCOME_EVIDENCE_TYPE,
} from '../domain/programs/program-rules';
import type { ProgramHubConnector } from '../infrastructure/connectors/program-hub';
import { callConnector } from './connector-failures';
import { shippedSupportPrograms } from '../infrastructure/catalogs/shipped-catalogs';

/** Evidence a provider sends to declare that the patient has no insurance at all. */
export const UNINSURED_ATTESTATION_TYPE = 'uninsured_attestation';

export interface EnrollmentActivityDependencies {
  payer: PayerConnector;
  hub: ProgramHubConnector;
}

export const createEnrollmentActivities = ({ payer, hub }: EnrollmentActivityDependencies) => ({
  /** Runs the program's eligibility rules on what the enrollment says, resolving the insurance type first. */
  async screenEnrollment(input: { request: PatientEnrollmentRequest }): Promise<EnrollmentScreening> {
    const { request } = input;
    const program = shippedSupportPrograms().find(request.programId);
    const insuranceType = await insuranceTypeOf(request, payer);
    const income = request.evidence.find((item) => item.type === INCOME_EVIDENCE_TYPE)?.content ?? {};
    const facts: EnrollmentFacts = {
      drug_name: request.prescription?.drug_name,
      date_of_birth: request.patient.date_of_birth,
      asOf: new Date().toISOString().slice(0, 10),
      country: request.patient.address.country,
      state_province: request.patient.address.state_province,
      insurance_type: insuranceType,
      household_size: numberOrUndefined(income[INCOME_EVIDENCE_CONTENT_FIELDS.householdSize]),
      annual_household_income_cents: numberOrUndefined(
        income[INCOME_EVIDENCE_CONTENT_FIELDS.annualHouseholdIncomeCents],
      ),
    };
    const decision = program
      ? evaluateProgramEligibility(program, facts)
      : {
          decision: 'ineligible' as const,
          reasons: [{ rule: 'program_unknown', description: 'The program no longer exists in the catalog.' }],
          missing_information: [],
        };
    return { ...decision, insurance_type: insuranceType ?? null, screened_at: new Date().toISOString() };
  },

  /**
   * Enrollments started before authorizations were recorded send none (undefined, not null): they
   * were accepted without one, and a deploy must not fail them at the hub.
   */
  async submitEnrollment(input: {
    programId: string;
    caseId: string;
    patient_authorization?: PatientAuthorization | null;
    mockOutageUntil?: string;
  }): Promise<{ hub_reference: string }> {
    return callConnector('programHub', () => hub.submitEnrollment(input));
  },

  async checkEnrollment(input: {
    programId: string;
    hub_reference: string;
    checksSoFar: number;
  }): Promise<EnrollmentOutcome | null> {
    return callConnector('programHub', () => hub.checkEnrollment(input));
  },
});

/**
 * The plan type behind the insurance details: known when the payer resolves the plan, null when the
 * provider attested the patient is uninsured, undefined when the rules must ask.
 */
async function insuranceTypeOf(
  request: PatientEnrollmentRequest,
  payer: PayerConnector,
): Promise<PlanType | null | undefined> {
  if (request.evidence.some((item) => item.type === UNINSURED_ATTESTATION_TYPE)) return null;
  const data = request.patient.insurance_details?.data;
  if (!data?.payer && !data?.rx_bin) return undefined;
  const resolution = await callConnector('payer', () =>
    payer.resolvePlan({
      content: {
        payer: data.payer ?? '',
        member_id: data.membership_number ?? '',
        group_number: data.group_number,
        rx_bin: data.rx_bin,
        rx_group: data.rx_group,
      },
      cardTexts: [],
    }),
  );
  return resolution.resolved ? resolution.plan.plan_type : undefined;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
