import type {
  EnrollmentInformation,
  EnrollmentOutcome,
  EnrollmentScreening,
  PatientEnrollmentRequest,
} from '../programs/enrollment-model';
import type { ProgramType } from '../programs/program-model';
import type { CaseBinding } from './case-binding';
import type { CaseRecord, CaseTimings } from './case-model';

/** The program's decision, recorded by a person when the program answered outside the hub. */
export interface EnrollmentOutcomeInput {
  result: 'enrolled' | 'denied' | 'inconclusive';
  /** Card identifiers: absent, or null as a JSON client may send, when the program issued no card. */
  member_id?: string | null;
  bin?: string | null;
  pcn?: string | null;
  group?: string | null;
  valid_until?: string;
  detail?: string;
}

export interface PatientEnrollmentCase extends CaseRecord {
  object: 'patient_enrollment';
  program_id: string;
  screening: EnrollmentScreening | null;
  /** What the program still needs, while awaiting_review. */
  missing_information: Array<{ field: string; reason: string }>;
  submission: { hub_reference: string; submitted_at: string } | null;
  outcome: EnrollmentOutcome | null;
  request: PatientEnrollmentRequest;
}

export interface PatientEnrollmentInput {
  case: PatientEnrollmentCase;
  accountId: string;
  /** Set by the API on cases started since the `verify-account-binding` patch. */
  binding?: CaseBinding;
  timings: CaseTimings;
  /** Set when the workflow continued as new while waiting for the program. */
  programChecksSoFar?: number;
}

/** Evidence an enrollment accumulates across information rounds, at most. */
export const MAX_ENROLLMENT_EVIDENCE = 100;

export const PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS = {
  processing: "Checking the program's eligibility rules.",
  awaiting_review: 'The program needs more information; see missing_information.',
  awaiting_outcome: 'Submitted to the program; waiting for its decision.',
  completed: 'Enrolled in the program.',
  failed: 'Not enrolled; see failure.',
  cancelled: 'Cancelled on request.',
} as const;

/**
 * The request once information sent later is added to it. The API refuses information that would
 * take the evidence past this cap (413); information signalled from outside the API is not checked
 * there, so the oldest evidence gives way instead of the case outgrowing Temporal's payload limit.
 */
export function mergeInformation(
  request: PatientEnrollmentRequest,
  information: EnrollmentInformation,
): PatientEnrollmentRequest {
  return {
    ...request,
    patient: { ...request.patient, ...information.patient },
    prescription: information.prescription ?? request.prescription,
    evidence: [...request.evidence, ...(information.evidence ?? [])].slice(-MAX_ENROLLMENT_EVIDENCE),
  };
}

const CARD_IDENTIFIERS = ['member_id', 'bin', 'pcn', 'group'] as const;

/**
 * What is wrong with a recorded outcome for a program of this type: a copay program's enrollment
 * needs the member id on the card, and no other program issues card identifiers at all.
 */
export function enrollmentOutcomeIssues(
  programType: ProgramType,
  outcome: EnrollmentOutcomeInput,
): Array<{ field: string; issue: string }> {
  if (programType === 'copay_card') {
    return outcome.result === 'enrolled' && !outcome.member_id
      ? [{ field: 'member_id', issue: 'is required when a copay program enrolls the patient' }]
      : [];
  }
  // An explicit null says the same as an absent identifier: the program issued no card.
  return CARD_IDENTIFIERS.filter((field) => outcome[field] != null).map((field) => ({
    field,
    issue: `must be absent: only copay programs issue card identifiers, and this is a ${programType} program`,
  }));
}
