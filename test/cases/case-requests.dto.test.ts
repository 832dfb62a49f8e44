import { ArgumentMetadata, BadRequestException } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';

import {
  CasePatientDto,
  DiagnosisDto,
  InsuranceDocumentDto,
  PrescriptionDto,
} from '../../src/cases/case-request-parts.dto';
import { CancelCaseDto, ListCasesQueryDto } from '../../src/cases/case-requests.dto';
import {
  BenefitVerificationOutcomeDto,
  CreateBenefitVerificationDto,
} from '../../src/cases/types/benefit-verification/benefit-verification.dto';
import {
  CreatePriorAuthorizationDto,
  PriorAuthOutcomeDto,
  ReviewDecisionDto,
} from '../../src/cases/types/prior-authorization/prior-authorization.dto';
import { ExactlyOneOf, IsBase64Document, MAX_DOCUMENT_BYTES } from '../../src/common/dto/case-validators';
import { createValidationPipe } from '../../src/common/validation';

type Metatype = NonNullable<ArgumentMetadata['metatype']>;
type Body = Record<string, unknown>;

const CARD_IMAGE = Buffer.from('synthetic insurance card, front side').toString('base64');
const VALID_NPI = '1234567893';

function syntheticPatient(overrides: Body = {}): Body {
  return {
    internal_id: 'patient-0001',
    first_name: 'Alex',
    last_name: 'Sample',
    gender: 'female',
    date_of_birth: '1980-04-12',
    address: {
      street: '100 Example Street',
      street_line_2: 'Apt 2',
      city: 'Springfield',
      state_province: 'IL',
      zip_postal_code: '62701',
      country: 'US',
    },
    email: 'alex.sample@example.com',
    phone: '+1 (555) 010-0100',
    insurance: [{ file_content: CARD_IMAGE }],
    ...overrides,
  };
}

function syntheticProvider(overrides: Body = {}): Body {
  return { npi: VALID_NPI, first_name: 'Jordan', last_name: 'Example', phone: '555-010-0200', ...overrides };
}

function documents(count: number): Body[] {
  return Array.from({ length: count }, () => ({ file_content: CARD_IMAGE }));
}

function priorAuthorizationRequest(overrides: Body = {}): Body {
  return {
    patient: syntheticPatient(),
    provider: syntheticProvider({ fax: '555.010.0201' }),
    insurance: [{ file_content: CARD_IMAGE }],
    insurance_content: {
      payer: 'Example Health Plan',
      member_id: 'ZZ1234567',
      group_number: 'GRP-0042',
      rx_bin: '999901',
      rx_pcn: 'MEDDPRIME',
      rx_group: 'RX1234',
      plan_type: 'commercial',
    },
    diagnoses: [
      { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' },
      { code: 'Z79.4' },
    ],
    prescription: {
      drug_name: 'Semaglutide',
      strength: '1 mg',
      dosage: '1 mg weekly',
      quantity: 4,
      days_supply: 28,
      directions: 'Inject 1 mg subcutaneously once weekly.',
    },
    evidence: [
      { title: 'HbA1c results', date_created: '2024-03-01T10:00:00', content: { hba1c_percent: 8.1 } },
    ],
    is_training_data: true,
    urgency: 'expedited',
    questionnaires: [
      {
        questions: [{ question: 'Has the patient tried metformin?', answer: 'Yes', choices: ['Yes', 'No'] }],
        created_at: '2024-03-01T10:05:00Z',
      },
    ],
    visit_notes: [{ content: 'Synthetic visit note for tests.', created_at: '2024-02-20T09:30:00-05:00' }],
    mock_result: { result: 'approved', detail_code: 'approval' },
    metadata: { order_id: 'ord-1001' },
    ...overrides,
  };
}

function benefitVerificationRequest(overrides: Body = {}): Body {
  return {
    patient: syntheticPatient(),
    provider: syntheticProvider(),
    drugs: [
      { name: 'Metformin', dosage: '500 mg', quantity: 60 },
      { ndc: '00093-7214-01', quantity: 30 },
    ],
    diagnoses: [{ code: 'E11.9' }],
    mock_result: { status: 'completed', case: 'drugs_covered__prior_auth_required__has_copay' },
    metadata: { order_id: 'ord-2002' },
    ...overrides,
  };
}

async function accepted<T>(
  metatype: new () => T,
  value: unknown,
  type: 'body' | 'query' = 'body',
): Promise<T> {
  return (await createValidationPipe().transform(value, { type, metatype })) as T;
}

/** The `field: issue` lines of the 400 the pipe raises; fails the test when the value passes. */
async function violations(
  metatype: Metatype,
  value: unknown,
  type: 'body' | 'query' = 'body',
): Promise<string[]> {
  try {
    await createValidationPipe().transform(value, { type, metatype });
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: string[] }).message;
  }
  throw new Error('the value passed validation');
}

function isoDateInDays(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

describe('prior authorization and benefit verification requests', () => {
  it('accepts a full prior authorization request and returns typed objects', async () => {
    const request = await accepted(CreatePriorAuthorizationDto, priorAuthorizationRequest());

    expect(request).toBeInstanceOf(CreatePriorAuthorizationDto);
    expect(request.patient).toBeInstanceOf(CasePatientDto);
    expect(request.patient.insurance?.[0]).toBeInstanceOf(InsuranceDocumentDto);
    expect(request.prescription).toBeInstanceOf(PrescriptionDto);
    expect(request.diagnoses[0]).toBeInstanceOf(DiagnosisDto);
    expect(request).toMatchObject({
      urgency: 'expedited',
      is_training_data: true,
      evidence: [{ date_created: '2024-03-01T10:00:00', content: { hba1c_percent: 8.1 } }],
      metadata: { order_id: 'ord-1001' },
    });
  });

  it('leaves urgency unset when the request omits it, for the service to default', async () => {
    const request = await accepted(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ urgency: undefined }),
    );

    expect(request.urgency).toBeUndefined();
  });

  it('accepts a benefit verification request with drugs named by name or by NDC', async () => {
    const request = await accepted(CreateBenefitVerificationDto, benefitVerificationRequest());

    expect(request).toBeInstanceOf(CreateBenefitVerificationDto);
    expect(request.drugs.map((drug) => drug.name ?? drug.ndc)).toEqual(['Metformin', '00093-7214-01']);
    expect(request.mock_result).toEqual({
      status: 'completed',
      case: 'drugs_covered__prior_auth_required__has_copay',
    });
  });

  it('accepts every field the specification lists for a prior authorization', async () => {
    const specificationFields = {
      is_training_data: false,
      diagnoses: [{ code: 'M06.9' }],
      evidence: [
        { content: { note: 'synthetic' }, date_created: '2024-03-01T10:00:00', title: 'Chart excerpt' },
      ],
      patient: syntheticPatient(),
      insurance: [{ file_content: CARD_IMAGE }],
    };

    const request = await accepted(CreatePriorAuthorizationDto, {
      ...specificationFields,
      prescription: { drug_name: 'Adalimumab', quantity: 2 },
      provider: syntheticProvider(),
    });

    expect(request).toMatchObject(specificationFields);
  });

  it('refuses unknown fields at the top level and inside nested objects', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ priority: 'high', patient: syntheticPatient({ ssn: '000-00-0000' }) }),
    );

    expect(messages).toEqual(
      expect.arrayContaining(['priority: is not a known field', 'patient.ssn: is not a known field']),
    );
  });

  it('refuses malformed ICD-10-CM codes and accepts lower-case ones as upper case', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({
        diagnoses: [
          { code: 'E11.9' },
          { code: '11.9' },
          { code: 'E11.12345' },
          { code: 'E119' },
          { code: 'E11.' },
        ],
      }),
    );
    expect(messages.filter((message) => message.includes('ICD-10-CM')).map((m) => m.split(':')[0])).toEqual([
      'diagnoses[1].code',
      'diagnoses[2].code',
      'diagnoses[3].code',
      'diagnoses[4].code',
    ]);

    const request = await accepted(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ diagnoses: [{ code: 'j45.50' }, { code: 'I10' }, { code: 'M1A.0710' }] }),
    );
    expect(request.diagnoses.map((diagnosis) => diagnosis.code)).toEqual(['J45.50', 'I10', 'M1A.0710']);
  });

  it('refuses an NPI whose check digit is wrong', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ provider: syntheticProvider({ npi: '1234567890' }) }),
    );

    expect(messages).toContain('provider.npi: must be a 10-digit NPI with a valid check digit');
  });

  it('refuses documents that are not whitespace-free standard base64', async () => {
    const notBase64 = ['not base64!', 'QUJD\nREVG', 'QUJD-_', 'QUJDRA=', 'QUJD==', 'Q', ''];

    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ insurance: notBase64.map((file_content) => ({ file_content })) }),
    );

    expect(messages).toEqual(
      notBase64.map(
        (_, index) =>
          `insurance[${index}].file_content: must be non-empty base64 (standard alphabet, no whitespace or line breaks)`,
      ),
    );
  });

  it('accepts base64 with or without padding', async () => {
    await expect(
      accepted(
        CreatePriorAuthorizationDto,
        priorAuthorizationRequest({ insurance: [{ file_content: 'QUJDRA==' }, { file_content: 'QUJDRA' }] }),
      ),
    ).resolves.toBeInstanceOf(CreatePriorAuthorizationDto);
  });

  it('measures a document by its decoded size and names the limit', async () => {
    class SmallDocument {
      @IsBase64Document({ maxBytes: 4 })
      file_content!: string;
    }
    const fourBytes = Buffer.from('ABCD').toString('base64');
    const fiveBytes = Buffer.from('ABCDE').toString('base64');

    await expect(accepted(SmallDocument, { file_content: fourBytes })).resolves.toEqual({
      file_content: fourBytes,
    });
    expect(await violations(SmallDocument, { file_content: fiveBytes })).toEqual([
      'file_content: must decode to at most 4 bytes',
    ]);
  });

  it('refuses a document larger than 10 MB decoded', async () => {
    const oversized = Buffer.alloc(MAX_DOCUMENT_BYTES + 1).toString('base64');

    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ insurance: [{ file_content: oversized }] }),
    );

    expect(messages).toEqual(['insurance[0].file_content: must decode to at most 10 MB (10485760 bytes)']);
  });

  it('refuses a birth date in the future', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ patient: syntheticPatient({ date_of_birth: isoDateInDays(2) }) }),
    );

    expect(messages).toEqual(['patient.date_of_birth: must not be in the future']);
  });

  it('refuses a calendar date that does not exist and accepts a leap day', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ patient: syntheticPatient({ date_of_birth: '2023-02-30' }) }),
    );
    expect(messages).toEqual(['patient.date_of_birth: must be a calendar date YYYY-MM-DD that exists']);

    await expect(
      accepted(
        CreatePriorAuthorizationDto,
        priorAuthorizationRequest({ patient: syntheticPatient({ date_of_birth: '2024-02-29' }) }),
      ),
    ).resolves.toBeInstanceOf(CreatePriorAuthorizationDto);
  });

  it('accepts evidence dates with and without a zone designator, and refuses other shapes', async () => {
    const evidence = (date_created: string) => ({ title: 'Lab', date_created, content: { value: 1 } });

    await expect(
      accepted(
        CreatePriorAuthorizationDto,
        priorAuthorizationRequest({
          evidence: [
            evidence('2024-03-01T10:00:00'),
            evidence('2024-03-01T10:00:00Z'),
            evidence('2024-03-01T10:00:00.123+02:00'),
          ],
        }),
      ),
    ).resolves.toBeInstanceOf(CreatePriorAuthorizationDto);

    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({
        evidence: [evidence('2024-03-01 10:00:00'), evidence('2024-03-01'), evidence('2024-02-30T10:00:00')],
      }),
    );
    expect(messages.map((message) => message.split(':')[0])).toEqual([
      'evidence[0].date_created',
      'evidence[1].date_created',
      'evidence[2].date_created',
    ]);
  });

  it('requires a zone on questionnaire times, which the specification gives in UTC', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({
        questionnaires: [{ questions: [{ question: 'Q?', answer: 'A' }], created_at: '2024-03-01T10:00:00' }],
      }),
    );

    expect(messages).toEqual([
      'questionnaires[0].created_at: must be an ISO 8601 date-time with a zone, e.g. 2024-03-01T10:00:00Z',
    ]);
  });

  it('requires insurance data and reports it on insurance', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({
        patient: syntheticPatient({ insurance: [] }),
        insurance: undefined,
        insurance_content: undefined,
      }),
    );

    expect(messages).toContain(
      'insurance: at least one of patient.insurance, insurance or insurance_content is required',
    );
    expect(messages.every((message) => message.startsWith('insurance: '))).toBe(true);
  });

  it.each([
    ['patient.insurance', {}],
    ['insurance', { patient: syntheticPatient({ insurance: undefined }), insurance: documents(1) }],
    [
      'insurance_content',
      {
        patient: syntheticPatient({ insurance: undefined }),
        insurance_content: { payer: 'Example Health Plan', member_id: 'ZZ1234567' },
      },
    ],
  ])('accepts insurance data given only as %s', async (_source, overrides) => {
    await expect(
      accepted(CreateBenefitVerificationDto, benefitVerificationRequest(overrides)),
    ).resolves.toBeInstanceOf(CreateBenefitVerificationDto);
  });

  it('accepts any part of insurance_content beside a card, for the card to fill the rest', async () => {
    const request = await accepted(
      CreateBenefitVerificationDto,
      benefitVerificationRequest({
        insurance: documents(1),
        insurance_content: { group_number: 'GRP-0042' },
      }),
    );

    expect(request.insurance_content).toEqual({ group_number: 'GRP-0042' });
  });

  it('requires payer and member_id in insurance_content when no card comes with it', async () => {
    const messages = await violations(
      CreateBenefitVerificationDto,
      benefitVerificationRequest({
        patient: syntheticPatient({ insurance: undefined }),
        insurance_content: { group_number: 'GRP-0042' },
      }),
    );

    expect(messages).toEqual([
      'insurance_content.payer: is required when the request carries no patient.insurance or insurance',
      'insurance_content.member_id: is required when the request carries no patient.insurance or insurance',
    ]);
  });

  it('refuses an empty insurance_content even beside a card', async () => {
    const messages = await violations(
      CreateBenefitVerificationDto,
      benefitVerificationRequest({ insurance_content: {} }),
    );

    expect(messages).toContain(
      'insurance_content.payer: at least one of payer, payer_id, subscriber, member_id, group_number, ' +
        'rx_bin, rx_pcn, rx_group or plan_type is required',
    );
  });

  it('requires a drug name or an NDC and reports it on the name field', async () => {
    const prescriptionMessages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({ prescription: { quantity: 4 } }),
    );
    expect(prescriptionMessages).toContain(
      'prescription.drug_name: at least one of drug_name or ndc is required',
    );
    expect(prescriptionMessages.every((message) => message.startsWith('prescription.drug_name: '))).toBe(
      true,
    );

    const drugMessages = await violations(
      CreateBenefitVerificationDto,
      benefitVerificationRequest({
        drugs: [
          { name: 'Metformin', quantity: 60 },
          { dosage: '5 mg', quantity: 30 },
        ],
      }),
    );
    expect(drugMessages).toContain('drugs[1].name: at least one of name or ndc is required');

    await expect(
      accepted(
        CreatePriorAuthorizationDto,
        priorAuthorizationRequest({ prescription: { ndc: '0093-7214-01', quantity: 4 } }),
      ),
    ).resolves.toBeInstanceOf(CreatePriorAuthorizationDto);
  });

  it('refuses NDCs outside the 11-digit and dashed package forms', async () => {
    const drugs = [
      '00093721401',
      '00093-7214-01',
      '0093-7214-01',
      '00093-214-01',
      '00093-7214-1',
      '0093721401',
    ];

    const messages = await violations(
      CreateBenefitVerificationDto,
      benefitVerificationRequest({ drugs: drugs.map((ndc) => ({ ndc, quantity: 1 })) }),
    );

    expect(messages).toEqual([
      'drugs[5].ndc: must be an NDC: 11 digits, or dashed as 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits',
    ]);
  });

  it('allows at most 20 documents per request, patient.insurance and insurance together', async () => {
    const combined = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({
        patient: syntheticPatient({ insurance: documents(12) }),
        insurance: documents(9),
      }),
    );
    expect(combined).toEqual([
      'insurance: must keep the request within 20 documents (patient.insurance and insurance together)',
    ]);

    const patientOnly = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({
        patient: syntheticPatient({ insurance: documents(21) }),
        insurance: undefined,
      }),
    );
    expect(patientOnly).toEqual(['patient.insurance: must contain no more than 20 elements']);

    await expect(
      accepted(
        CreatePriorAuthorizationDto,
        priorAuthorizationRequest({
          patient: syntheticPatient({ insurance: documents(10) }),
          insurance: documents(10),
        }),
      ),
    ).resolves.toBeInstanceOf(CreatePriorAuthorizationDto);
  });

  it('lists every violation in one error, each with its field path', async () => {
    const messages = await violations(
      CreatePriorAuthorizationDto,
      priorAuthorizationRequest({
        patient: syntheticPatient({ date_of_birth: '1980-13-01', gender: 'unknown', email: 'not-an-email' }),
        diagnoses: [{ code: 'E11.9' }, { code: 'diabetes' }],
        provider: syntheticProvider({ npi: '123' }),
        prescription: { drug_name: 'Semaglutide', quantity: 0, days_supply: 400 },
        urgency: 'urgent',
        metadata: { order_id: 42 },
      }),
    );

    expect(messages.map((message) => message.split(': ')[0]).sort()).toEqual(
      [
        'diagnoses[1].code',
        'metadata',
        'patient.date_of_birth',
        'patient.email',
        'patient.gender',
        'prescription.days_supply',
        'prescription.quantity',
        'provider.npi',
        'urgency',
      ].sort(),
    );
  });

  it('keeps metadata to 20 string values with short keys', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`key_${index}`, 'value']));
    const issue =
      'metadata: must be an object of at most 20 string values, with keys of 1 to 40 characters and values of at most 500 characters';

    for (const metadata of [
      tooMany,
      { ['k'.repeat(41)]: 'v' },
      { note: 'v'.repeat(501) },
      { nested: {} },
      ['x'],
    ]) {
      expect(
        await violations(CreateBenefitVerificationDto, benefitVerificationRequest({ metadata })),
      ).toEqual([issue]);
    }
  });

  it("refuses a sandbox PA's detail_code without the result it details", async () => {
    expect(
      await violations(
        CreatePriorAuthorizationDto,
        priorAuthorizationRequest({ mock_result: { detail_code: 'approval' } }),
      ),
    ).toEqual(['mock_result.detail_code: is given only with result']);
  });

  it('accepts a sandbox case the simulated payer can play, and refuses one it cannot, naming the cases', async () => {
    const played = await accepted(
      CreateBenefitVerificationDto,
      benefitVerificationRequest({ mock_result: { status: 'completed', case: 'coverage_expired' } }),
    );
    const refused = await violations(
      CreateBenefitVerificationDto,
      benefitVerificationRequest({ mock_result: { status: 'completed', case: 'drugs_covered' } }),
    );

    expect(played.mock_result?.case).toBe('coverage_expired');
    expect(refused).toEqual([
      expect.stringMatching(/^mock_result\.case: must be one of the sandbox's cases/),
    ]);
    expect(refused[0]).toContain('drugs_covered__prior_auth_required__has_copay');
  });
});

describe('the cross-field presence rules', () => {
  class EvidenceSource {
    @ExactlyOneOf(['content', 'asset'])
    content?: string;

    @IsOptional()
    @IsString()
    asset?: string;
  }

  it('report on the decorated field when none or more than one field holds a value', async () => {
    expect(await violations(EvidenceSource, {})).toEqual([
      'content: exactly one of content or asset is required',
    ]);
    expect(await violations(EvidenceSource, { content: 'a', asset: 'b' })).toContain(
      'content: only one of content or asset may be given',
    );
  });

  it('let the decorated field be absent once another field holds a value', async () => {
    await expect(accepted(EvidenceSource, { asset: 'b' })).resolves.toEqual({ asset: 'b' });
  });
});

describe('decision requests', () => {
  it('accept a review decision and refuse an unknown decision or a missing reviewer', async () => {
    await expect(
      accepted(ReviewDecisionDto, { decision: 'approve', reviewer: 'Reviewer One' }),
    ).resolves.toEqual({
      decision: 'approve',
      reviewer: 'Reviewer One',
    });

    const messages = await violations(ReviewDecisionDto, { decision: 'maybe', notes: 'n'.repeat(5001) });
    expect(messages.map((message) => message.split(': ')[0])).toEqual(
      expect.arrayContaining(['decision', 'reviewer', 'notes']),
    );
  });

  it('accept a prior authorization outcome with its authorization period, and refuse a period that ends before it starts', async () => {
    await expect(
      accepted(PriorAuthOutcomeDto, {
        result: 'approved',
        detail_code: 'approval',
        detail: 'Approved for 12 months.',
        payer_reference: 'PA-2024-000123',
        authorization_start_date: '2024-03-01',
        authorization_expiration: '2025-02-28',
      }),
    ).resolves.toBeInstanceOf(PriorAuthOutcomeDto);

    const messages = await violations(PriorAuthOutcomeDto, {
      result: 'approved',
      authorization_start_date: '2024-03-01',
      authorization_expiration: '2024-02-28',
    });
    expect(messages).toEqual(['authorization_expiration: must not be before authorization_start_date']);
  });

  it('require a coverage status when a manual benefit verification completes', async () => {
    expect(await violations(BenefitVerificationOutcomeDto, { status: 'completed' })).toContain(
      'coverage_status: is required when status is completed',
    );
    await expect(
      accepted(BenefitVerificationOutcomeDto, { status: 'completed', coverage_status: 'covered' }),
    ).resolves.toBeInstanceOf(BenefitVerificationOutcomeDto);
    await expect(
      accepted(BenefitVerificationOutcomeDto, { status: 'failed', notes: 'Plan unreachable.' }),
    ).resolves.toBeInstanceOf(BenefitVerificationOutcomeDto);
  });

  it('require a cancellation reason of 1 to 1000 characters', async () => {
    await expect(accepted(CancelCaseDto, { reason: 'Prescription changed.' })).resolves.toBeInstanceOf(
      CancelCaseDto,
    );
    expect(await violations(CancelCaseDto, { reason: '' })).toHaveLength(1);
    expect(await violations(CancelCaseDto, { reason: 'r'.repeat(1001) })).toHaveLength(1);
  });
});

describe('the case list query', () => {
  it('turns limit into a number', async () => {
    const query = await accepted(ListCasesQueryDto, { limit: '25', status: 'awaiting_review' }, 'query');

    expect(query.limit).toBe(25);
  });

  it.each(['0', '101', 'ten', '2.5'])('refuses limit=%s', async (limit) => {
    expect(await violations(ListCasesQueryDto, { limit }, 'query')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^limit: /)]),
    );
  });

  it('takes range bounds as calendar dates or zoned date-times, in order', async () => {
    await expect(
      accepted(
        ListCasesQueryDto,
        { created_after: '2024-03-01', created_before: '2024-03-02T00:00:00Z' },
        'query',
      ),
    ).resolves.toBeInstanceOf(ListCasesQueryDto);

    expect(await violations(ListCasesQueryDto, { created_after: '2024-03-01T00:00:00' }, 'query')).toEqual([
      'created_after: must be a calendar date YYYY-MM-DD or an ISO 8601 date-time with a zone, e.g. 2024-03-01T10:00:00Z',
    ]);
    expect(
      await violations(
        ListCasesQueryDto,
        { created_after: '2024-03-02', created_before: '2024-03-01' },
        'query',
      ),
    ).toEqual(['created_before: must not be before created_after']);
  });

  it('refuses an unknown status or parameter', async () => {
    const messages = await violations(ListCasesQueryDto, { status: 'pending', sort: 'asc' }, 'query');

    expect(messages).toEqual(
      expect.arrayContaining(['sort: is not a known field', expect.stringMatching(/^status: /)]),
    );
  });
});
