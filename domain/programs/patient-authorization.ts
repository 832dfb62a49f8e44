/**
 * The patient's authorization to share their data with a manufacturer's program: which kind a
 * program requires before it accepts an enrollment, and what an enrollment records of it.
 */
/**
 * `hipaa_authorization`: the HIPAA authorization (45 CFR 164.508) letting the program receive the
 * patient's health information, as assistance and access hubs ask for. `program_consent`: the
 * program's own consent to be contacted and enrolled, as nurse and education programs ask for.
 */
export const PATIENT_AUTHORIZATION_TYPES = ['hipaa_authorization', 'program_consent'] as const;
export type PatientAuthorizationType = (typeof PATIENT_AUTHORIZATION_TYPES)[number];

export const ATTESTER_RELATIONSHIPS = ['patient', 'legal_representative'] as const;
export type AttesterRelationship = (typeof ATTESTER_RELATIONSHIPS)[number];

export interface PatientAuthorization {
  type: PatientAuthorizationType;
  /** Who signed: the patient, or a legal representative signing for them. */
  attested_by: { relationship: AttesterRelationship; name: string };
  /** When it was signed: an ISO 8601 date-time, never in the future. */
  attested_at: string;
  /** The program's form the patient signed, as the program numbers it (e.g. ACME-HUB-2026-01). */
  form_version: string;
}

const AUTHORIZATION_NAMES: Readonly<Record<PatientAuthorizationType, string>> = {
  hipaa_authorization: 'HIPAA authorization',
  program_consent: 'program consent',
};

/**
 * What is wrong with an enrollment's authorization for a program that requires `required` (its
 * `patient_authorization_required`), or undefined when the program accepts it.
 */
export function patientAuthorizationIssue(
  required: PatientAuthorizationType | null,
  authorization: Pick<PatientAuthorization, 'type'> | null | undefined,
): { field: string; issue: string } | undefined {
  if (!required) return undefined;
  const requirement = `this program requires the patient's ${AUTHORIZATION_NAMES[required]} (type ${required})`;
  if (!authorization) return { field: 'patient_authorization', issue: `is required: ${requirement}` };
  if (authorization.type !== required) {
    return { field: 'patient_authorization.type', issue: `must be ${required}: ${requirement}` };
  }
  return undefined;
}
