import { ArgumentMetadata, BadRequestException } from '@nestjs/common';

import {
  CasePatientDto,
  EvidenceAssetDto,
  InsuranceContentDto,
  QuestionnaireDto,
  VisitNoteDto,
} from '../../src/cases/case-request-parts.dto';
import {
  ClinicalDiagnosisDto,
  ClinicalDrugDto,
  ClinicalEvidenceDto,
  CreateClinicalEligibilityDto,
} from '../../src/cases/types/clinical-eligibility/clinical-eligibility.dto';
import { createValidationPipe } from '../../src/common/validation';

type Metatype = NonNullable<ArgumentMetadata['metatype']>;
type Body = Record<string, unknown>;

const CARD_IMAGE = Buffer.from('synthetic insurance card, front side').toString('base64');
const LAB_REPORT = Buffer.from('synthetic lab report: LDL 131 mg/dL').toString('base64');

function syntheticPatient(overrides: Body = {}): Body {
  return {
    internal_id: 'patient-0042',
    first_name: 'Robin',
    last_name: 'Testcase',
    gender: 'not_specified',
    date_of_birth: '1975-09-30',
    address: {
      street: '200 Sample Avenue',
      street_line_2: 'Unit 5',
      city: 'Springfield',
      state_province: 'IL',
      zip_postal_code: '62702',
      country: 'US',
    },
    email: 'robin.testcase@example.com',
    phone: '+1 555 010 0300',
    insurance: [{ file_content: CARD_IMAGE }],
    ...overrides,
  };
}

function contentEvidence(overrides: Body = {}): Body {
  return {
    date_created: '2024-03-01T10:00:00Z',
    title: 'HbA1c results',
    content: { hba1c_percent: 8.1 },
    ...overrides,
  };
}

function assetEvidence(overrides: Body = {}): Body {
  return {
    date_created: '2024-03-02T08:30:00',
    title: 'Lipid panel',
    asset: { fileType: 'text/plain', fileContent: LAB_REPORT },
    ...overrides,
  };
}

function clinicalEligibilityRequest(overrides: Body = {}): Body {
  return {
    patient: syntheticPatient(),
    drugs: [
      { name: 'Semaglutide', dosage: '1 mg weekly', quantity: 4 },
      { name: 'Metformin', quantity: 60 },
    ],
    diagnoses: [
      { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' },
      { code: 'Z79.4' },
      { description: 'Obesity' },
    ],
    questionnaires: [
      {
        questions: [{ question: 'Has the patient tried metformin?', answer: 'Yes', choices: ['Yes', 'No'] }],
        created_at: '2024-03-01T10:05:00Z',
      },
    ],
    visit_notes: [{ content: 'Synthetic visit note for tests.', created_at: '2024-02-20T09:30:00-05:00' }],
    evidence: [contentEvidence(), assetEvidence()],
    metadata: { order_id: 'ord-3003' },
    ...overrides,
  };
}

function assetEvidenceItems(count: number): Body[] {
  return Array.from({ length: count }, () => assetEvidence());
}

function cards(count: number): Body[] {
  return Array.from({ length: count }, () => ({ file_content: CARD_IMAGE }));
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

describe('the clinical eligibility request', () => {
  it('accepts every field the specification lists and returns typed objects', async () => {
    const body = clinicalEligibilityRequest();

    const request = await accepted(CreateClinicalEligibilityDto, body);

    expect(request).toBeInstanceOf(CreateClinicalEligibilityDto);
    expect(request.patient).toBeInstanceOf(CasePatientDto);
    expect(request.drugs[0]).toBeInstanceOf(ClinicalDrugDto);
    expect(request.diagnoses[0]).toBeInstanceOf(ClinicalDiagnosisDto);
    expect(request.questionnaires?.[0]).toBeInstanceOf(QuestionnaireDto);
    expect(request.visit_notes?.[0]).toBeInstanceOf(VisitNoteDto);
    expect(request.evidence?.[0]).toBeInstanceOf(ClinicalEvidenceDto);
    expect(request.evidence?.[1]?.asset).toBeInstanceOf(EvidenceAssetDto);
    expect(request).toMatchObject(body);
  });

  it('accepts the patient’s insurance_content, validated as for prior authorization', async () => {
    const insurance = { payer: 'Summit Mutual Health', member_id: 'ZZSMH0001', plan_type: 'commercial' };
    const request = await accepted(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({ insurance_content: insurance }),
    );
    expect(request.insurance_content).toBeInstanceOf(InsuranceContentDto);
    expect(request.insurance_content).toMatchObject(insurance);
    const refused = await violations(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({
        insurance_content: { payer: 'Summit Mutual Health', plan_type: 'dental' },
      }),
    );
    expect(fieldsOf(refused)).toEqual(['insurance_content.member_id', 'insurance_content.plan_type']);
  });

  it('takes codes and MIME types in any letter case and keeps their canonical form', async () => {
    const request = await accepted(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({
        diagnoses: [{ code: 'e66.01' }],
        evidence: [assetEvidence({ asset: { fileType: 'Application/PDF', fileContent: LAB_REPORT } })],
      }),
    );

    expect(request.diagnoses[0]?.code).toBe('E66.01');
    expect(request.evidence?.[0]?.asset?.fileType).toBe('application/pdf');
  });

  it('needs only the patient, drugs and diagnoses', async () => {
    const request = await accepted(CreateClinicalEligibilityDto, {
      patient: syntheticPatient({
        address: undefined,
        email: undefined,
        phone: undefined,
        insurance: undefined,
      }),
      drugs: [{ name: 'Metformin', quantity: 60 }],
      diagnoses: [{ code: 'E11.9' }],
    });

    expect(request.evidence).toBeUndefined();
  });

  it('refuses unknown fields at the top level and inside nested objects', async () => {
    const messages = await violations(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({
        urgency: 'expedited',
        drugs: [{ name: 'Metformin', ndc: '00093-7214-01', quantity: 60 }],
      }),
    );

    expect(messages).toEqual(['urgency: is not a known field', 'drugs[0].ndc: is not a known field']);
  });

  it('requires the patient, at least one drug and at least one diagnosis', async () => {
    const messages = await violations(CreateClinicalEligibilityDto, { drugs: [], diagnoses: [] });

    expect(fieldsOf(messages)).toEqual(['diagnoses', 'drugs', 'patient']);
  });

  it('allows at most 10 drugs, each with a name and a positive whole quantity', async () => {
    const eleven = Array.from({ length: 11 }, () => ({ name: 'Metformin', quantity: 1 }));
    expect(
      await violations(CreateClinicalEligibilityDto, clinicalEligibilityRequest({ drugs: eleven })),
    ).toEqual(['drugs: must contain no more than 10 elements']);

    const messages = await violations(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({
        drugs: [{ quantity: 1 }, { name: 'Metformin', quantity: 0 }, { name: 'Metformin', quantity: 1.5 }],
      }),
    );
    expect(fieldsOf(messages)).toEqual(['drugs[0].name', 'drugs[1].quantity', 'drugs[2].quantity']);
  });

  describe('diagnoses', () => {
    it.each([
      ['a code only', { code: 'M06.9' }],
      ['a description only', { description: 'Rheumatoid arthritis, unspecified' }],
      ['both', { code: 'M06.9', description: 'Rheumatoid arthritis, unspecified' }],
    ])('accept %s', async (_case, diagnosis) => {
      await expect(
        accepted(CreateClinicalEligibilityDto, clinicalEligibilityRequest({ diagnoses: [diagnosis] })),
      ).resolves.toBeInstanceOf(CreateClinicalEligibilityDto);
    });

    it('refuse an item with neither code nor description, on its code', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({ diagnoses: [{ code: 'E11.9' }, {}] }),
      );

      expect(messages).toContain('diagnoses[1].code: at least one of code or description is required');
      expect(fieldsOf(messages)).toEqual(['diagnoses[1].code']);
    });

    it('refuse a code that is not ICD-10-CM even when a description is given', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({ diagnoses: [{ code: 'diabetes', description: 'Diabetes' }] }),
      );

      expect(messages).toEqual([expect.stringMatching(/^diagnoses\[0\]\.code: must be an ICD-10-CM code/)]);
    });

    it('refuse a description longer than 500 characters', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({ diagnoses: [{ description: 'd'.repeat(501) }] }),
      );

      expect(fieldsOf(messages)).toEqual(['diagnoses[0].description']);
    });
  });

  describe('evidence', () => {
    it('refuses an item with both content and asset', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({ evidence: [contentEvidence({ asset: assetEvidence().asset })] }),
      );

      expect(messages).toEqual(['evidence[0].content: only one of content or asset may be given']);
    });

    it('refuses an item with neither content nor asset', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({ evidence: [contentEvidence({ content: undefined })] }),
      );

      expect(messages).toContain('evidence[0].content: exactly one of content or asset is required');
      expect(fieldsOf(messages)).toEqual(['evidence[0].content']);
    });

    it('refuses an asset whose content is not base64 or whose type is not a MIME type', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({
          evidence: [
            assetEvidence({ asset: { fileType: 'text/plain', fileContent: 'not base64!' } }),
            assetEvidence({ asset: { fileType: 'pdf', fileContent: LAB_REPORT } }),
            assetEvidence({ asset: { fileType: 'text/plain; charset=utf-8', fileContent: LAB_REPORT } }),
          ],
        }),
      );

      expect(messages).toEqual([
        'evidence[0].asset.fileContent: must be non-empty base64 (standard alphabet, no whitespace or line breaks)',
        'evidence[1].asset.fileType: must be a MIME type such as application/pdf, image/png or text/plain (type/subtype, no parameters)',
        'evidence[2].asset.fileType: must be a MIME type such as application/pdf, image/png or text/plain (type/subtype, no parameters)',
      ]);
    });

    it('refuses content that is not a JSON object and an asset that is not an object', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({
          evidence: [contentEvidence({ content: ['a'] }), assetEvidence({ asset: 'file.pdf' })],
        }),
      );

      expect(fieldsOf(messages)).toEqual(['evidence[0].content', 'evidence[1].asset']);
    });

    it('allows at most 100 items', async () => {
      const messages = await violations(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({ evidence: Array.from({ length: 101 }, () => contentEvidence()) }),
      );

      expect(messages).toEqual(['evidence: must contain no more than 100 elements']);
    });
  });

  it('allows at most 20 documents, insurance card images and evidence assets together', async () => {
    await expect(
      accepted(
        CreateClinicalEligibilityDto,
        clinicalEligibilityRequest({
          patient: syntheticPatient({ insurance: cards(10) }),
          evidence: [...assetEvidenceItems(10), contentEvidence()],
        }),
      ),
    ).resolves.toBeInstanceOf(CreateClinicalEligibilityDto);

    const messages = await violations(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({
        patient: syntheticPatient({ insurance: cards(11) }),
        evidence: assetEvidenceItems(10),
      }),
    );
    expect(messages).toEqual([
      'evidence: must keep the request within 20 documents (insurance card images and evidence assets together)',
    ]);
  });

  it('keeps metadata to flat string values', async () => {
    const messages = await violations(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({ metadata: { order_id: 3003 } }),
    );

    expect(fieldsOf(messages)).toEqual(['metadata']);
  });

  it('lists every violation in one error, each with its field path', async () => {
    const messages = await violations(
      CreateClinicalEligibilityDto,
      clinicalEligibilityRequest({
        patient: syntheticPatient({
          gender: 'unknown',
          date_of_birth: '1975-02-30',
          address: {
            street: '200 Sample Avenue',
            city: 'Springfield',
            state_province: 'IL',
            zip_postal_code: '62702',
          },
          insurance: [{ file_content: 'Q' }],
        }),
        drugs: [{ name: '', quantity: 1 }],
        diagnoses: [{ code: '11.9' }],
        questionnaires: [{ questions: [], created_at: '2024-03-01T10:00:00' }],
        visit_notes: [{ content: '', created_at: 'yesterday' }],
        evidence: [
          contentEvidence({ title: '', date_created: '2024-03-01' }),
          assetEvidence({ asset: { fileType: 'image/png' } }),
        ],
        metadata: ['x'],
      }),
    );

    expect(fieldsOf(messages)).toEqual(
      [
        'diagnoses[0].code',
        'drugs[0].name',
        'evidence[0].date_created',
        'evidence[0].title',
        'evidence[1].asset.fileContent',
        'metadata',
        'patient.address.country',
        'patient.date_of_birth',
        'patient.gender',
        'patient.insurance[0].file_content',
        'questionnaires[0].created_at',
        'questionnaires[0].questions',
        'visit_notes[0].content',
        'visit_notes[0].created_at',
      ].sort(),
    );
  });
});
