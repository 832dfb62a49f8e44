/** Patient enrollment in a support program: the request as the case keeps it, and the outcome. Pure types. */
import type { Address, MockOutage } from '../cases/case-model';
import type { EnrollmentConfirmation } from './confirmation-model';
import type { PatientAuthorization } from './patient-authorization';
import type { ProgramDecision } from './program-model';

export interface EnrollmentAsset {
  name: string;
  type: string;
  url: string;
}

export interface EnrollmentPatient {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  address: Address;
  email: string;
  phone: string;
  insurance_details?: {
    data: {
      group_number?: string;
      payer?: string;
      membership_number?: string;
      rx_bin?: string;
      rx_group?: string;
    };
    assets?: EnrollmentAsset[];
  };
  metadata?: { patient_id?: string };
}

export interface EnrollmentEvidence {
  type: string;
  date_created: string;
  content?: Record<string, unknown>;
  assets?: EnrollmentAsset[];
}

export interface EnrollmentPrescription {
  drug_name: string;
  dosage?: string;
  directions?: string;
  extra?: Record<string, unknown>;
}

export interface PatientEnrollmentRequest {
  patient: EnrollmentPatient;
  programId: string;
  prescription: EnrollmentPrescription | null;
  evidence: EnrollmentEvidence[];
  /** null when none was given; absent on enrollments created before authorizations were recorded. */
  patient_authorization?: PatientAuthorization | null;
  /** Sandbox only: a program hub outage to play (absent in every other request). */
  mock_result?: { outage: MockOutage };
}

/** What a provider sends when the program asked for more information. */
export interface EnrollmentInformation {
  evidence?: EnrollmentEvidence[];
  patient?: Partial<Pick<EnrollmentPatient, 'date_of_birth' | 'address' | 'insurance_details'>>;
  prescription?: EnrollmentPrescription;
}

export interface EnrollmentOutcome {
  result: 'enrolled' | 'denied' | 'inconclusive';
  program_id: string;
  /** member_id, bin, pcn and group are a copay card's identifiers: null for every other kind of program. */
  member_id: string | null;
  bin: string | null;
  pcn: string | null;
  group: string | null;
  valid_until: string | null;
  detail: string | null;
  /**
   * What the program hub confirmed, by kind. Absent on denials, on decisions a reviewer recorded and
   * on cases completed before confirmations existed.
   */
  confirmation?: EnrollmentConfirmation;
}

/** The rules' verdict as the case shows it, with the insurance type they worked from. */
export interface EnrollmentScreening extends ProgramDecision {
  insurance_type: string | null;
  screened_at: string;
}
