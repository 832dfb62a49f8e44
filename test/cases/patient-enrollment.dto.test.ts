import { ArgumentMetadata, BadRequestException } from '@nestjs/common';

import { createValidationPipe } from '../../src/common/validation';
import {
  AttesterDto,
  CreatePatientEnrollmentDto,
  EnrollmentAddressDto,
  EnrollmentAssetDto,
  EnrollmentEvidenceDto,
  EnrollmentInformationDto,
  EnrollmentOutcomeDto,
  EnrollmentPatientDto,
  EnrollmentPatientUpdateDto,
  EnrollmentPrescriptionDto,
  InsuranceDetailsDto,
  PatientAuthorizationDto,
} from '../../src/cases/types/patient-enrollment/patient-enrollment.dto';

type Metatype = NonNullable<ArgumentMetadata['metatype']>;
type Body = Record<string, unknown>;

const PROGRAM_ID = 'prog_01hzx3k8q9v7m2n4p6r8s0t2w4';

function syntheticAddress(overrides: Body = {}): Body {
  return {
    street: '300 Example Road',
    city: 'Springfield',
    state_province: 'IL',
    zip_postal_code: '62703',
    country: 'US',
    ...overrides,
  };
}

function asset(overrides: Body = {}): Body {
  return {
    name: 'insurance-card-front.png',
    type: 'image/png',
    url: 'https://files.example.com/cards/front.png?signature=abc123',
    ...overrides,
  };
}

function insuranceDetails(overrides: Body = {}): Body {
  return {
    data: {
      group_number: 'GRP-0042',
      payer: 'Example Health Plan',
      membership_number: 'ZZ1234567',
      rx_bin: '999901',
      rx_group: 'RX1234',
    },
    assets: [asset()],
    ...overrides,
  };
}

function syntheticPatient(overrides: Body = {}): Body {
  return {
    first_name: 'Sam',
    last_name: 'Placeholder',
    date_of_birth: '1990-06-15',
    address: syntheticAddress(),
    email: 'sam.placeholder@example.com',
    phone: '+1 555 010 0400',
    insurance_details: insuranceDetails(),
    metadata: { patient_id: 'patient-0077' },
    ...overrides,
  };
}

function prescription(overrides: Body = {}): Body {
  return {
    drug_name: 'Semaglutide',
    dosage: '1 mg weekly',
    directions: 'Inject 1 mg subcutaneously once weekly.',
    extra: { days_supply: 28 },
    ...overrides,
  };
}

function evidence(overrides: Body = {}): Body {
  return {
    type: 'lab_result',
    date_created: '2024-03-01T10:00:00Z',
    content: { hba1c_percent: 8.1 },
    assets: [
      asset({ name: 'lab-report.pdf', type: 'application/pdf', url: 'https://files.example.com/lab.pdf' }),
    ],
    ...overrides,
  };
}

function enrollmentRequest(overrides: Body = {}): Body {
  return {
    patient: syntheticPatient(),
    programId: PROGRAM_ID,
    prescription: prescription(),
    evidence: [evidence(), evidence({ type: 'prior_therapy', assets: undefined })],
    metadata: { enrollment_id: 'enr-1001' },
    ...overrides,
  };
}

async function accepted<T>(metatype: new () => T, value: unknown): Promise<T> {
  return (await createValidationPipe().transform(value, { type: 'body', metatype })) as T;
}

/** The `field: issue` lines of the 400 the pipe raises; fails the test when the value passes. */
async function violations(metatype: Metatype, value: unknown): Promise<string[]> {
  try {
    await createValidationPipe().transform(value, { type: 'body', metatype });
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: string[] }).message;
  }
  throw new Error('the value passed validation');
}

function fieldsOf(messages: string[]): string[] {
  return [...new Set(messages.map((message) => message.split(': ')[0]))].sort();
}

describe('the patient enrollment request', () => {
  it('accepts every field the specification lists and returns typed objects', async () => {
    const body = enrollmentRequest();

    const request = await accepted(CreatePatientEnrollmentDto, body);

    expect(request).toBeInstanceOf(CreatePatientEnrollmentDto);
    expect(request.patient).toBeInstanceOf(EnrollmentPatientDto);
    expect(request.patient.address).toBeInstanceOf(EnrollmentAddressDto);
    expect(request.patient.insurance_details).toBeInstanceOf(InsuranceDetailsDto);
    expect(request.patient.insurance_details?.assets?.[0]).toBeInstanceOf(EnrollmentAssetDto);
    expect(request.prescription).toBeInstanceOf(EnrollmentPrescriptionDto);
    expect(request.evidence?.[0]).toBeInstanceOf(EnrollmentEvidenceDto);
    expect(request).toMatchObject(body);
  });

  it('needs only the patient with address and contact details, and the program', async () => {
    await expect(
      accepted(CreatePatientEnrollmentDto, {
        patient: syntheticPatient({ insurance_details: undefined, metadata: undefined }),
        programId: PROGRAM_ID,
      }),
    ).resolves.toBeInstanceOf(CreatePatientEnrollmentDto);

    const messages = await violations(CreatePatientEnrollmentDto, {
      patient: syntheticPatient({ address: undefined, email: undefined, phone: undefined }),
    });
    expect(fieldsOf(messages)).toEqual(['patient.address', 'patient.email', 'patient.phone', 'programId']);
  });

  it('refuses unknown fields at the top level and inside nested objects', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({ program_id: PROGRAM_ID, patient: syntheticPatient({ gender: 'female' }) }),
    );

    expect(messages).toEqual(['program_id: is not a known field', 'patient.gender: is not a known field']);
  });

  it.each([
    ['a program name', 'copay-card'],
    ['another kind of id', 'pe_01hzx3k8q9v7m2n4p6r8s0t2w4'],
    ['upper-case letters', 'prog_01HZX3K8Q9V7M2N4P6R8S0T2W4'],
    ['a short token', 'prog_01hzx3k8q9'],
    ['a number', 42],
  ])('refuses a programId that is %s', async (_case, programId) => {
    expect(await violations(CreatePatientEnrollmentDto, enrollmentRequest({ programId }))).toContain(
      'programId: must be a support program id: prog_ followed by 26 lower-case letters or digits',
    );
  });

  it('requires the address country as an ISO 3166-1 alpha-2 code', async () => {
    const missing = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({ patient: syntheticPatient({ address: syntheticAddress({ country: undefined }) }) }),
    );
    expect(missing).toContain(
      'patient.address.country: must be an ISO 3166-1 alpha-2 country code of 2 upper-case letters',
    );
    expect(fieldsOf(missing)).toEqual(['patient.address.country']);

    for (const country of ['us', 'USA', 'United States']) {
      const messages = await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ patient: syntheticPatient({ address: syntheticAddress({ country }) }) }),
      );
      expect(fieldsOf(messages)).toEqual(['patient.address.country']);
    }
  });

  it('refuses asset URLs that are not https or carry credentials', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({
        patient: syntheticPatient({
          insurance_details: insuranceDetails({
            assets: [asset({ url: 'http://files.example.com/front.png' })],
          }),
        }),
        evidence: [
          evidence({
            assets: [
              asset({ url: 'https://user:secret@files.example.com/lab.pdf' }),
              asset({ url: 'files.example.com/lab.pdf' }),
              asset({ url: 'ftp://files.example.com/lab.pdf' }),
            ],
          }),
        ],
      }),
    );

    expect(messages.sort()).toEqual(
      [
        'patient.insurance_details.assets[0].url: must be an absolute https URL without credentials',
        'evidence[0].assets[0].url: must be an absolute https URL without credentials',
        'evidence[0].assets[1].url: must be an absolute https URL without credentials',
        'evidence[0].assets[2].url: must be an absolute https URL without credentials',
      ].sort(),
    );
  });

  it('refuses metadata keys other than enrollment_id and patient_id', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({
        metadata: { enrollment_id: 'enr-1001', order_id: 'ord-1' },
        patient: syntheticPatient({ metadata: { patient_id: 'patient-0077', mrn: '12345' } }),
      }),
    );

    expect(messages.sort()).toEqual(
      ['metadata.order_id: is not a known field', 'patient.metadata.mrn: is not a known field'].sort(),
    );
  });

  it('caps enrollment_id at 100 characters and requires it to be a string', async () => {
    for (const enrollment_id of ['e'.repeat(101), 1001]) {
      const messages = await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ metadata: { enrollment_id } }),
      );
      expect(fieldsOf(messages)).toEqual(['metadata.enrollment_id']);
    }
  });

  it('checks insurance data: a 6-digit BIN and a data object', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({
        patient: syntheticPatient({
          insurance_details: { data: { rx_bin: '61001' }, assets: [asset({ name: '' })] },
        }),
      }),
    );
    expect(messages.sort()).toEqual(
      [
        'patient.insurance_details.data.rx_bin: must be 6 digits',
        'patient.insurance_details.assets[0].name: must be longer than or equal to 1 characters',
      ].sort(),
    );

    expect(
      await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ patient: syntheticPatient({ insurance_details: { assets: [asset()] } }) }),
      ),
    ).toContain('patient.insurance_details.data: must be an object');
  });

  it('requires a drug name on the prescription and keeps directions to 1000 characters', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({
        prescription: prescription({ drug_name: undefined, directions: 'd'.repeat(1001) }),
      }),
    );

    expect(fieldsOf(messages)).toEqual(['prescription.directions', 'prescription.drug_name']);
  });

  describe('evidence', () => {
    it('takes a snake_case type', async () => {
      const messages = await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({
          evidence: [
            evidence({ type: 'Lab Result' }),
            evidence({ type: 'x'.repeat(61) }),
            evidence({ type: '' }),
          ],
        }),
      );

      expect(fieldsOf(messages)).toEqual(['evidence[0].type', 'evidence[1].type', 'evidence[2].type']);
    });

    it('needs content, assets or both', async () => {
      await expect(
        accepted(
          CreatePatientEnrollmentDto,
          enrollmentRequest({
            evidence: [evidence({ content: undefined }), evidence({ assets: undefined })],
          }),
        ),
      ).resolves.toBeInstanceOf(CreatePatientEnrollmentDto);

      const messages = await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ evidence: [evidence({ content: undefined, assets: [] })] }),
      );
      expect(messages).toContain('evidence[0].content: at least one of content or assets is required');
    });

    it('allows at most 50 items', async () => {
      const messages = await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ evidence: Array.from({ length: 51 }, () => evidence()) }),
      );

      expect(messages).toEqual(['evidence: must contain no more than 50 elements']);
    });
  });

  it('lists every violation in one error, each with its field path', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({
        patient: syntheticPatient({
          date_of_birth: '1990-13-01',
          email: 'not-an-email',
          phone: 'call me',
          address: syntheticAddress({ country: undefined, city: '' }),
        }),
        programId: 'prog_unknown',
        prescription: prescription({ extra: 'none' }),
        evidence: [
          evidence({ date_created: 'yesterday', assets: [asset({ url: 'http://files.example.com/a' })] }),
        ],
        metadata: { enrollment_id: '' },
      }),
    );

    expect(fieldsOf(messages)).toEqual(
      [
        'evidence[0].assets[0].url',
        'evidence[0].date_created',
        'metadata.enrollment_id',
        'patient.address.city',
        'patient.address.country',
        'patient.date_of_birth',
        'patient.email',
        'patient.phone',
        'prescription.extra',
        'programId',
      ].sort(),
    );
  });
});

function patientAuthorization(overrides: Body = {}): Body {
  return {
    type: 'hipaa_authorization',
    attested_by: { relationship: 'legal_representative', name: 'Jordan Placeholder' },
    attested_at: '2026-11-20T14:30:00Z',
    form_version: 'ACME-HUB-2026-01',
    ...overrides,
  };
}

describe("the patient's authorization on an enrollment", () => {
  it('is recorded as sent: its type, who signed and how they relate to the patient, when, and the form version', async () => {
    const request = await accepted(
      CreatePatientEnrollmentDto,
      enrollmentRequest({ patient_authorization: patientAuthorization() }),
    );

    expect(request.patient_authorization).toBeInstanceOf(PatientAuthorizationDto);
    expect(request.patient_authorization?.attested_by).toBeInstanceOf(AttesterDto);
    expect(request.patient_authorization).toEqual(patientAuthorization());
  });

  it.each(['hipaa_authorization', 'program_consent'])('accepts an authorization of type %s', async (type) => {
    await expect(
      accepted(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ patient_authorization: patientAuthorization({ type }) }),
      ),
    ).resolves.toBeInstanceOf(CreatePatientEnrollmentDto);
  });

  it('names each missing part of an authorization by its path', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({ patient_authorization: {} }),
    );

    expect(fieldsOf(messages)).toEqual([
      'patient_authorization.attested_at',
      'patient_authorization.attested_by',
      'patient_authorization.form_version',
      'patient_authorization.type',
    ]);
  });

  it('refuses an unknown type and an attester who is neither the patient nor their legal representative', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({
        patient_authorization: patientAuthorization({
          type: 'marketing_opt_in',
          attested_by: { relationship: 'caregiver', name: 'Jordan Placeholder' },
        }),
      }),
    );

    expect(fieldsOf(messages)).toEqual([
      'patient_authorization.attested_by.relationship',
      'patient_authorization.type',
    ]);
  });

  it('refuses a signature dated in the future', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();

    expect(
      await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ patient_authorization: patientAuthorization({ attested_at: tomorrow }) }),
      ),
    ).toEqual(['patient_authorization.attested_at: must not be in the future']);
  });

  it.each([
    ['a calendar date only', '2026-11-20'],
    ['a time without a zone', '2026-11-20T14:30:00'],
    ['words', 'last Tuesday'],
  ])('refuses a signature time that is %s', async (_case, attestedAt) => {
    expect(
      await violations(
        CreatePatientEnrollmentDto,
        enrollmentRequest({ patient_authorization: patientAuthorization({ attested_at: attestedAt }) }),
      ),
    ).toEqual([
      'patient_authorization.attested_at: must be an ISO 8601 date-time with a zone, e.g. 2026-11-20T14:30:00Z',
    ]);
  });

  it('refuses an empty signer name and an empty form version', async () => {
    const messages = await violations(
      CreatePatientEnrollmentDto,
      enrollmentRequest({
        patient_authorization: patientAuthorization({
          attested_by: { relationship: 'patient', name: '' },
          form_version: '',
        }),
      }),
    );

    expect(fieldsOf(messages)).toEqual([
      'patient_authorization.attested_by.name',
      'patient_authorization.form_version',
    ]);
  });
});

describe('the information an enrollment awaiting review asked for', () => {
  it.each([
    ['evidence', { evidence: [evidence()] }],
    ['a patient update', { patient: { date_of_birth: '1990-06-16' } }],
    ['a new address', { patient: { address: syntheticAddress({ state_province: 'WI' }) } }],
    ['new insurance details', { patient: { insurance_details: insuranceDetails() } }],
    ['a prescription', { prescription: prescription() }],
  ])('is accepted as %s alone', async (_case, body) => {
    await expect(accepted(EnrollmentInformationDto, body)).resolves.toBeInstanceOf(EnrollmentInformationDto);
  });

  it('returns typed objects for every part', async () => {
    const information = await accepted(EnrollmentInformationDto, {
      evidence: [evidence()],
      patient: { date_of_birth: '1990-06-16', address: syntheticAddress() },
      prescription: prescription(),
    });

    expect(information.evidence?.[0]).toBeInstanceOf(EnrollmentEvidenceDto);
    expect(information.patient).toBeInstanceOf(EnrollmentPatientUpdateDto);
    expect(information.patient?.address).toBeInstanceOf(EnrollmentAddressDto);
    expect(information.prescription).toBeInstanceOf(EnrollmentPrescriptionDto);
  });

  it('needs at least one of evidence, patient or prescription', async () => {
    for (const body of [{}, { evidence: [] }]) {
      expect(await violations(EnrollmentInformationDto, body)).toContain(
        'evidence: at least one of evidence, patient or prescription is required',
      );
    }
  });

  it('needs a patient update to change something', async () => {
    expect(await violations(EnrollmentInformationDto, { patient: {} })).toContain(
      'patient.date_of_birth: at least one of date_of_birth, address or insurance_details is required',
    );
  });

  it('lets a patient update change only the birth date, address and insurance details', async () => {
    const messages = await violations(EnrollmentInformationDto, {
      patient: {
        first_name: 'Other',
        email: 'other@example.com',
        address: syntheticAddress({ country: 'usa' }),
      },
    });

    expect(fieldsOf(messages)).toEqual(
      ['patient.address.country', 'patient.email', 'patient.first_name'].sort(),
    );
    expect(messages).toContain('patient.first_name: is not a known field');
  });
});

describe("the program's decision on an enrollment", () => {
  it('accepts an enrollment with its benefit details', async () => {
    const body = {
      result: 'enrolled',
      member_id: 'ZZMBR-000123',
      bin: '610020',
      pcn: 'COPAY01',
      group: 'EC12345',
      valid_until: '2025-12-31',
      detail: 'Enrolled in the copay program for 12 months.',
    };

    await expect(accepted(EnrollmentOutcomeDto, body)).resolves.toEqual(body);
  });

  // Whether card identifiers are needed or refused depends on the program's type, checked against the case.
  it('accepts an enrollment without card identifiers', async () => {
    await expect(accepted(EnrollmentOutcomeDto, { result: 'enrolled' })).resolves.toBeInstanceOf(
      EnrollmentOutcomeDto,
    );
  });

  it.each(['denied', 'inconclusive'])('accepts %s without a member id', async (result) => {
    await expect(
      accepted(EnrollmentOutcomeDto, { result, detail: 'Household income above the program limit.' }),
    ).resolves.toBeInstanceOf(EnrollmentOutcomeDto);
  });

  it('lists every violation in one error', async () => {
    const messages = await violations(EnrollmentOutcomeDto, {
      result: 'approved',
      member_id: '',
      bin: '6100',
      valid_until: '2025-02-30',
      detail: 'd'.repeat(1001),
      program_id: PROGRAM_ID,
    });

    expect(fieldsOf(messages)).toEqual(['bin', 'detail', 'member_id', 'program_id', 'result', 'valid_until']);
  });
});
