import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { Transform } from 'class-transformer';
import type {
  Address,
  CasePatient,
  Diagnosis,
  InsuranceContent,
  PlanType,
  PolicySubscriber,
  Provider,
  Questionnaire,
  VisitNote,
} from '../../domain/cases/case-model';
import type { DrugRequest } from '../../domain/cases/benefit-verification-request';
import {
  Field,
  FieldOptions,
  JsonObjectField,
  NestedArray,
  NestedObject,
  Stack,
  TextField,
} from '../common/dto/compose';
import {
  AtLeastOneOf,
  ExactlyOneOf,
  IsBase64Document,
  IsCalendarDate,
  IsIsoDateTime,
  IsNotBefore,
  IsNpi,
  MaxCombinedItems,
  RequiresFieldsUnless,
} from '../common/dto/case-validators';
import {
  CaseMetadata,
  ClearinghousePayerId,
  DateOfBirth,
  DrugName,
  Email,
  GroupNumber,
  Icd10Code,
  Identifier,
  LIMITS,
  Ndc,
  PayerName,
  PersonName,
  Phone,
  PlanTypeField,
  Quantity,
  RxBin,
  RxCode,
  WrittenAt,
} from '../common/dto/request-vocabulary';

/*
 * Request pieces more than one case type's DTOs are built from: patient, insurance, provider,
 * diagnoses, drugs, evidence files, the sandbox's outage. A piece only one type uses lives in that
 * type's folder (src/cases/types/<type>/<type>.dto.ts).
 */

export const GENDERS = [
  'male',
  'female',
  'other',
  'not_specified',
] as const satisfies readonly CasePatient['gender'][];

/** Where a request may carry insurance data; one of them is required (contract section 3a). */
const INSURANCE_SOURCES = ['patient.insurance', 'insurance', 'insurance_content'];
const DOCUMENT_LISTS = ['patient.insurance', 'insurance'];
const INSURANCE_CONTENT_FIELDS = [
  'payer',
  'payer_id',
  'subscriber',
  'member_id',
  'group_number',
  'rx_bin',
  'rx_pcn',
  'rx_group',
  'plan_type',
] as const satisfies ReadonlyArray<keyof InsuranceContent>;
/** Contract section 7: base64 documents per request, insurance card images and evidence files together. */
export const MAX_DOCUMENTS = LIMITS.documentsPerRequest;

export class AddressDto implements Address {
  @TextField(LIMITS.label, { example: '100 Example Street' })
  street!: string;

  @TextField(LIMITS.label, { optional: true, example: 'Suite 4' })
  street_line_2?: string;

  @TextField(LIMITS.name, { example: 'Springfield' })
  city!: string;

  @TextField(LIMITS.name, { example: 'IL' })
  state_province!: string;

  @TextField(LIMITS.postalCode, { example: '62701' })
  zip_postal_code!: string;

  @TextField(LIMITS.name, { example: 'US' })
  country!: string;
}

export class InsuranceDocumentDto {
  @ApiProperty({
    description:
      'Base64 (standard alphabet, no line breaks) of an insurance card image; at most 10 MB decoded.',
    format: 'byte',
  })
  @IsBase64Document()
  file_content!: string;
}

export class CasePatientDto implements Omit<CasePatient, 'insurance'> {
  @Identifier({ description: "The caller's identifier of the patient.", example: 'patient-0001' })
  internal_id!: string;

  @PersonName('Alex')
  first_name!: string;

  @PersonName('Sample')
  last_name!: string;

  @ApiProperty({ enum: GENDERS })
  @IsIn(GENDERS)
  gender!: CasePatient['gender'];

  @DateOfBirth()
  date_of_birth!: string;

  @NestedObject(() => AddressDto, { optional: true })
  address?: AddressDto;

  @Email({ optional: true })
  email?: string;

  @Phone('+1 (555) 010-0100', { optional: true })
  phone?: string;

  @NestedArray(() => InsuranceDocumentDto, {
    optional: true,
    maxItems: MAX_DOCUMENTS,
    description: `Insurance card images; at most ${MAX_DOCUMENTS} documents per request in all.`,
  })
  insurance?: InsuranceDocumentDto[];
}

const SUBSCRIBER_RELATIONSHIPS = ['spouse', 'child', 'other'] as const;

export class PolicySubscriberDto implements PolicySubscriber {
  @PersonName('Morgan')
  first_name!: string;

  @PersonName('Example')
  last_name!: string;

  @DateOfBirth()
  date_of_birth!: string;

  @ApiProperty({
    enum: SUBSCRIBER_RELATIONSHIPS,
    description: "The patient's relationship to the subscriber.",
  })
  @IsIn(SUBSCRIBER_RELATIONSHIPS)
  relationship!: PolicySubscriber['relationship'];
}

/** What discrete insurance data must give when no card comes with it. */
export const INSURANCE_ESSENTIALS = ['payer', 'member_id'] as const;
const REQUIRED_WITHOUT_CARD =
  'Required unless the request carries an insurance card document, which fills it.';

/** Discrete insurance data: complete on its own, or any part of it beside a card (contract §3a). */
export class InsuranceContentDto implements InsuranceContent {
  @AtLeastOneOf(INSURANCE_CONTENT_FIELDS)
  @PayerName({ required: false, description: REQUIRED_WITHOUT_CARD })
  payer?: string;

  @ClearinghousePayerId()
  payer_id?: string;

  @NestedObject(() => PolicySubscriberDto, {
    optional: true,
    description:
      'The policy holder, when the patient is covered as their dependent; leave out when the patient is the subscriber.',
  })
  subscriber?: PolicySubscriberDto;

  @Identifier({ optional: true, description: REQUIRED_WITHOUT_CARD, example: 'ZZ1234567' })
  member_id?: string;

  @GroupNumber()
  group_number?: string;

  @RxBin()
  rx_bin?: string;

  @RxCode('MEDDPRIME')
  rx_pcn?: string;

  @RxCode('RX1234')
  rx_group?: string;

  @PlanTypeField()
  plan_type?: PlanType;
}

export class ProviderDto implements Provider {
  @ApiProperty({
    description: 'National Provider Identifier (10 digits, valid check digit).',
    example: '1234567893',
  })
  @IsNpi()
  npi!: string;

  @PersonName('Jordan')
  first_name!: string;

  @PersonName('Example')
  last_name!: string;

  @Phone('+1 555 010 0200', { optional: true })
  phone?: string;

  @Phone('+1 555 010 0201', { optional: true })
  fax?: string;

  @NestedObject(() => AddressDto, { optional: true })
  address?: AddressDto;
}

export class DiagnosisDto implements Diagnosis {
  @Icd10Code({ description: 'ICD-10-CM code, any letter case.', example: 'E11.9' })
  code!: string;

  @TextField(LIMITS.diagnosisDescription, {
    optional: true,
    example: 'Type 2 diabetes mellitus without complications',
  })
  description?: string;
}

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** A file sent as evidence: clinical eligibility's and prior authorization's. */
export class EvidenceAssetDto {
  @ApiProperty({
    description: 'MIME type of the file (type/subtype, no parameters), any letter case.',
    example: 'application/pdf',
  })
  // MIME types are case-insensitive; one canonical form lets later steps compare them exactly.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsString()
  @MaxLength(255)
  @Matches(MIME_TYPE, {
    message:
      'must be a MIME type such as application/pdf, image/png or text/plain (type/subtype, no parameters)',
  })
  fileType!: string;

  @ApiProperty({
    description: 'Base64 (standard alphabet, no line breaks) of the file; at most 10 MB decoded.',
    format: 'byte',
  })
  @IsBase64Document()
  fileContent!: string;
}

/** An evidence item's content as free-form JSON: given instead of a file, never with one. */
export function EvidenceContent(options: Pick<FieldOptions, 'example'> = {}): PropertyDecorator {
  return Stack(
    ExactlyOneOf(['content', 'asset']),
    JsonObjectField({
      required: false,
      description: 'Free-form JSON; exactly one of content or asset is required.',
      ...options,
    }),
  );
}

/**
 * Contract section 7 counts every base64 document in the request, wherever it sits: insurance card
 * images (`patient.insurance`, `insurance`) and evidence files together.
 */
export function WithinDocumentLimit(): PropertyDecorator {
  return ValidateBy({
    name: 'withinDocumentLimit',
    validator: {
      // Without evidence files, the card lists' own limit says it.
      validate: (_value, args) => {
        const { assets, total } = countDocuments(args!.object as RequestWithDocuments);
        return assets === 0 || total <= MAX_DOCUMENTS;
      },
      defaultMessage: () =>
        `must keep the request within ${MAX_DOCUMENTS} documents (insurance card images and evidence assets together)`,
    },
  });
}

interface RequestWithDocuments {
  patient?: { insurance?: unknown };
  insurance?: unknown;
  evidence?: unknown;
}

function countDocuments(request: RequestWithDocuments): { assets: number; total: number } {
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  const evidence: unknown[] = Array.isArray(request.evidence) ? request.evidence : [];
  const assets = evidence.filter((item) => (item as { asset?: unknown } | null)?.asset != null).length;
  return { assets, total: count(request.patient?.insurance) + count(request.insurance) + assets };
}

export class QuestionnaireQuestionDto {
  @TextField(2000, { example: 'Has the patient tried metformin?' })
  question!: string;

  @TextField(LIMITS.notes, { example: 'Yes' })
  answer!: string;

  @ApiPropertyOptional({ example: ['Yes', 'No'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 500, { each: true })
  choices?: string[];
}

export class QuestionnaireDto implements Questionnaire {
  @NestedArray(() => QuestionnaireQuestionDto, { minItems: 1, maxItems: 200 })
  questions!: QuestionnaireQuestionDto[];

  @ApiProperty({ description: 'ISO 8601 date-time with a zone (UTC).', example: '2024-03-01T10:00:00Z' })
  @IsIsoDateTime({ zone: 'required' })
  created_at!: string;
}

export class VisitNoteDto implements VisitNote {
  @TextField(100_000, { description: 'The note text, at most 100 000 characters.' })
  content!: string;

  @WrittenAt('2024-03-01T10:00:00Z')
  created_at!: string;
}

export class DrugDto implements DrugRequest {
  @DrugName('name')
  name?: string;

  @Ndc('name')
  ndc?: string;

  @TextField(LIMITS.label, { optional: true, example: '500 mg' })
  dosage?: string;

  @Quantity()
  quantity!: number;
}

export class PrescriptionDto {
  @DrugName('drug_name')
  drug_name?: string;

  @Ndc('drug_name')
  ndc?: string;

  @TextField(LIMITS.name, { optional: true, example: '500 mg' })
  strength?: string;

  @TextField(LIMITS.label, { optional: true, example: '1 tablet' })
  dosage?: string;

  @Quantity()
  quantity!: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 365, example: 30 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  days_supply?: number;

  @TextField(LIMITS.sentence, {
    optional: true,
    example: 'Take one tablet by mouth twice daily with meals.',
  })
  directions?: string;
}

/** The longest sandbox outage a request may ask for: past any case type's outage deadline. */
const MAX_MOCK_OUTAGE_SECONDS = 7 * 24 * 3600;

export class MockOutageDto {
  @ApiProperty({
    minimum: 1,
    maximum: MAX_MOCK_OUTAGE_SECONDS,
    example: 600,
    description:
      "How long after the case's creation the sandbox connector stays unavailable. Shorter than the " +
      'outage deadline: the case shows `attention`, then goes on; longer: it fails at the deadline.',
  })
  @IsInt()
  @Min(1)
  @Max(MAX_MOCK_OUTAGE_SECONDS)
  unavailable_for_seconds!: number;
}

/** What prior authorization and benefit verification requests share: who, who prescribes, and the insurance. */
export abstract class InsuredCaseRequestDto {
  @NestedObject(() => CasePatientDto)
  patient!: CasePatientDto;

  @NestedObject(() => ProviderDto)
  provider!: ProviderDto;

  @AtLeastOneOf(INSURANCE_SOURCES)
  @MaxCombinedItems(DOCUMENT_LISTS, MAX_DOCUMENTS, {
    message: `must keep the request within ${MAX_DOCUMENTS} documents (patient.insurance and insurance together)`,
  })
  @NestedArray(() => InsuranceDocumentDto, {
    required: false,
    description:
      'Insurance card images. Insurance data is required: patient.insurance, insurance or insurance_content. ' +
      `At most ${MAX_DOCUMENTS} documents per request, patient.insurance included.`,
  })
  insurance?: InsuranceDocumentDto[];

  @RequiresFieldsUnless(INSURANCE_ESSENTIALS, DOCUMENT_LISTS)
  @NestedObject(() => InsuranceContentDto, {
    optional: true,
    description:
      'Discrete insurance card data. Alone it gives payer and member_id; beside a card any of its fields ' +
      'will do, and the card fills the rest (discrete values win field by field).',
  })
  insurance_content?: InsuranceContentDto;

  @CaseMetadata({ order_id: 'ord-1001' })
  metadata?: Record<string, string>;
}

/** An optional calendar date; the end of a range names the property it may not come before. */
export const OptionalDate = (example: string, notBefore?: string) =>
  Stack(
    Field({ optional: true, example, ...(notBefore && { description: `Not before ${notBefore}.` }) }),
    IsCalendarDate(),
    ...(notBefore ? [IsNotBefore(notBefore)] : []),
  );
