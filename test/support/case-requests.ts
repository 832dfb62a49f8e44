import { randomUUID } from 'node:crypto';

import type {
  PatientAuthorization,
  PatientAuthorizationType,
} from '../../domain/programs/patient-authorization';
import { shippedSupportPrograms } from '../../infrastructure/catalogs/shipped-catalogs';

/** Synthetic people only: every name and id here is made up for tests. */
export function syntheticPatient(overrides: Record<string, unknown> = {}) {
  return {
    internal_id: `mrn-${randomUUID().slice(0, 8)}`,
    first_name: 'Corisande',
    last_name: `Testperson${randomUUID().slice(0, 6)}`,
    gender: 'female',
    date_of_birth: '1968-05-14',
    address: {
      street: '12 Example Way',
      city: 'Springfield',
      state_province: 'IL',
      zip_postal_code: '62701',
      country: 'US',
    },
    email: 'corisande@example.test',
    phone: '+1 217 555 0100',
    ...overrides,
  };
}

export const provider = { npi: '1234567893', first_name: 'Amadou', last_name: 'Reviewsworth' };

export const insuranceContent = {
  payer: 'Blue Horizon Health',
  member_id: 'ZZBHH123456789',
  plan_type: 'commercial',
};

/** An insurance card "image": the simulator reads card documents as text. */
export function insuranceCard(memberId = 'ZZBHH987654321'): { file_content: string } {
  const text = [
    'Payer: Blue Horizon Health',
    `Member ID: ${memberId}`,
    'RxBIN: 999901',
    'RxPCN: SBXBHHPPO',
    'Plan: Commercial',
  ].join('\n');
  return { file_content: Buffer.from(text).toString('base64') };
}

export function priorAuthorizationRequest(overrides: Record<string, unknown> = {}) {
  return {
    patient: syntheticPatient(),
    diagnoses: [{ code: 'E11.9' }],
    prescription: { drug_name: 'Ozempic 1 mg pen', quantity: 1, days_supply: 28 },
    provider,
    insurance_content: insuranceContent,
    evidence: [{ title: 'Lab results', date_created: '2026-10-01T09:30:00', content: { a1c: 'A1c 8.1 %' } }],
    visit_notes: [
      { content: 'Patient has taken metformin for 6 months; A1c 8.1 %.', created_at: '2026-10-02T10:00:00Z' },
    ],
    is_training_data: false,
    mock_result: { result: 'approved' },
    ...overrides,
  };
}

export function benefitVerificationRequest(overrides: Record<string, unknown> = {}) {
  return {
    patient: syntheticPatient(),
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    provider,
    insurance_content: insuranceContent,
    ...overrides,
  };
}

/**
 * A clinical eligibility check with nothing in the record: the criteria engine runs it in both
 * modes, so it is the case a live key can start without a connector.
 */
export function clinicalEligibilityRequest() {
  return {
    patient: syntheticPatient(),
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    diagnoses: [{ description: 'no relevant history' }],
  };
}

/** The Ozempic savings card program of the catalog: the hub answers its enrollments in test mode. */
export const OZEMPIC_SAVINGS_CARD = 'prog_01jnzn5t37ydrsw602nch4aqg1';

/** The patient's own signature on a program's form, a few days before the enrollment. */
export function signedAuthorization(
  type: PatientAuthorizationType = 'hipaa_authorization',
): PatientAuthorization {
  return {
    type,
    attested_by: { relationship: 'patient', name: 'Elowen Testperson' },
    attested_at: '2026-11-20T14:30:00Z',
    form_version: 'SBX-HUB-2026-01',
  };
}

/** The authorization the program requires, signed; nothing for a program that requires none. */
export function authorizationFor(programId: string): {
  patient_authorization?: PatientAuthorization;
} {
  const required = shippedSupportPrograms().find(programId)?.patient_authorization_required;
  return required ? { patient_authorization: signedAuthorization(required) } : {};
}

/** Evidence an assistance program takes from a patient who declares no insurance. */
export const uninsuredAttestation = {
  type: 'uninsured_attestation',
  date_created: '2026-11-01T10:00:00Z',
  content: { insured: false },
};

/** Evidence of a household's income, which an assistance program compares with its limit. */
export const incomeVerification = (annualHouseholdIncomeCents: number) => ({
  type: 'income_verification',
  date_created: '2026-11-01T10:00:00Z',
  content: { household_size: 2, annual_household_income_cents: annualHouseholdIncomeCents },
});

/** A patient as enrollments name one: no insurance, so a program may ask for proof of it. */
export function enrollmentPatient(overrides: Record<string, unknown> = {}) {
  return {
    first_name: 'Elowen',
    last_name: 'Testperson',
    date_of_birth: '1975-03-02',
    address: {
      street: '4 Example Road',
      city: 'Portland',
      state_province: 'OR',
      zip_postal_code: '97201',
      country: 'US',
    },
    email: 'elowen@example.test',
    phone: '+1 503 555 0199',
    ...overrides,
  };
}

export function patientEnrollmentRequest(patientOverrides: Record<string, unknown> = {}) {
  return {
    programId: OZEMPIC_SAVINGS_CARD,
    patient: enrollmentPatient({
      insurance_details: {
        data: { payer: 'Blue Horizon Health', membership_number: 'ZZBHH555000111', rx_bin: '999901' },
      },
      ...patientOverrides,
    }),
    prescription: { drug_name: 'Ozempic 1 mg pen', dosage: '1 mg weekly' },
  };
}

/**
 * The default prior authorization's record without its A1c (the lab result and the note that repeats
 * it): the payer's questionnaire then leaves `a1c_at_least_7` to a person.
 */
export const WITHOUT_A1C = {
  evidence: [],
  visit_notes: [{ content: 'Patient has taken metformin for 6 months.', created_at: '2026-10-02T10:00:00Z' }],
};

/**
 * What a Xeljanz prior authorization adds to a request for its record to meet what the sandbox's
 * adaptive package's CQL reads; tuberculosis screening is documentation only, left to a person.
 */
export const XELJANZ_MEETING_CRITERIA = {
  diagnoses: [{ code: 'M06.9' }],
  prescription: { drug_name: 'Xeljanz 5 mg tablet', quantity: 60, days_supply: 30 },
  evidence: [],
  visit_notes: [
    {
      content: 'Inadequate response to adalimumab for 6 months. QuantiFERON negative in January.',
      created_at: '2026-10-02T10:00:00Z',
    },
  ],
};
