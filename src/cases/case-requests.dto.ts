import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import {
  CASE_STATUSES,
  type Address,
  type CasePatient,
  type CaseStatus,
  type Diagnosis,
  type DrugRequest,
  type EvidenceItem,
  type InsuranceContent,
  type PlanType,
  type Provider,
  type Questionnaire,
  type VisitNote,
} from '../../domain/cases/case-model';
import {
  AtLeastOneOf,
  IsBase64Document,
  IsCalendarDate,
  IsIcd10Code,
  IsIsoDateTime,
  IsNdc,
  IsNotBefore,
  IsNpi,
  IsPhone,
  IsStringRecord,
  MaxCombinedItems,
  RequiredWhen,
} from './case-validators';

/** Contract section 7. */
const MAX_DOCUMENTS_PER_REQUEST = 20;
const NAME_MAX = 100;
const IDENTIFIER_MAX = 100;
const DRUG_TEXT_MAX = 200;
const NOTES_MAX = 5000;
const MAX_QUANTITY = 100_000;
const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;
const SNAKE_CASE_MAX = 80;
const METADATA_LIMITS = { maxEntries: 20, maxKeyLength: 40, maxValueLength: 500 };

/** The optional `metadata` of a case request: the caller's own string tags, within the same limits everywhere. */
export function CaseMetadata(example: Record<string, string>): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      description: `Caller's tags: at most ${METADATA_LIMITS.maxEntries} string values, keys up to ${METADATA_LIMITS.maxKeyLength} characters, values up to ${METADATA_LIMITS.maxValueLength}.`,
      type: 'object',
      additionalProperties: { type: 'string' },
      example,
    }),
    IsOptional(),
    IsStringRecord(METADATA_LIMITS),
  );
}

export const GENDERS = [
  'male',
  'female',
  'other',
  'not_specified',
] as const satisfies readonly CasePatient['gender'][];
export const PLAN_TYPES = [
  'commercial',
  'medicare',
  'medicare_advantage',
  'medicaid',
  'tricare',
  'other',
] as const satisfies readonly PlanType[];
export const URGENCIES = ['standard', 'expedited'] as const;
export type Urgency = (typeof URGENCIES)[number];
export const PRIOR_AUTH_RESULTS = ['approved', 'denied', 'other'] as const;
export type PriorAuthResult = (typeof PRIOR_AUTH_RESULTS)[number];
export const BENEFIT_VERIFICATION_STATUSES = ['completed', 'failed'] as const;
export type BenefitVerificationFinalStatus = (typeof BENEFIT_VERIFICATION_STATUSES)[number];
export const COVERAGE_STATUSES = [
  'covered',
  'patient_not_found',
  'coverage_expired',
  'coverage_not_started',
  'patient_consent_required',
] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];
export const REVIEW_DECISIONS = ['approve', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** Where a request may carry insurance data; one of them is required (contract section 3a). */
const INSURANCE_SOURCES = ['patient.insurance', 'insurance', 'insurance_content'];
const DOCUMENT_LISTS = ['patient.insurance', 'insurance'];
const SNAKE_CASE_MESSAGE = `must be snake_case (lower-case letters, digits, _), at most ${SNAKE_CASE_MAX} characters`;

export class AddressDto implements Address {
  @ApiProperty({ example: '100 Example Street' })
  @IsString()
  @Length(1, 200)
  street!: string;

  @ApiPropertyOptional({ example: 'Suite 4' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  street_line_2?: string;

  @ApiProperty({ example: 'Springfield' })
  @IsString()
  @Length(1, NAME_MAX)
  city!: string;

  @ApiProperty({ example: 'IL' })
  @IsString()
  @Length(1, NAME_MAX)
  state_province!: string;

  @ApiProperty({ example: '62701' })
  @IsString()
  @Length(1, 20)
  zip_postal_code!: string;

  @ApiProperty({ example: 'US' })
  @IsString()
  @Length(1, NAME_MAX)
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
  @ApiProperty({ description: "The caller's identifier of the patient.", example: 'patient-0001' })
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  internal_id!: string;

  @ApiProperty({ example: 'Alex' })
  @IsString()
  @Length(1, NAME_MAX)
  first_name!: string;

  @ApiProperty({ example: 'Sample' })
  @IsString()
  @Length(1, NAME_MAX)
  last_name!: string;

  @ApiProperty({ enum: GENDERS })
  @IsIn(GENDERS)
  gender!: CasePatient['gender'];

  @ApiProperty({ description: 'Calendar date, not in the future.', example: '1980-04-12' })
  @IsCalendarDate({ past: true })
  date_of_birth!: string;

  @ApiPropertyOptional({ type: () => AddressDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;

  @ApiPropertyOptional({ example: 'alex.sample@example.com' })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ example: '+1 (555) 010-0100' })
  @IsOptional()
  @IsPhone()
  phone?: string;

  @ApiPropertyOptional({
    type: () => [InsuranceDocumentDto],
    description: `Insurance card images; at most ${MAX_DOCUMENTS_PER_REQUEST} documents per request in all.`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_DOCUMENTS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => InsuranceDocumentDto)
  insurance?: InsuranceDocumentDto[];
}

export class InsuranceContentDto implements InsuranceContent {
  @ApiProperty({ example: 'Example Health Plan' })
  @IsString()
  @Length(1, NAME_MAX)
  payer!: string;

  @ApiProperty({ example: 'XZ1234567' })
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  member_id!: string;

  @ApiPropertyOptional({ example: 'GRP-0042' })
  @IsOptional()
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  group_number?: string;

  @ApiPropertyOptional({ description: 'Pharmacy BIN: 6 digits.', example: '610014' })
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'must be 6 digits' })
  rx_bin?: string;

  @ApiPropertyOptional({ example: 'MEDDPRIME' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  rx_pcn?: string;

  @ApiPropertyOptional({ example: 'RX1234' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  rx_group?: string;

  @ApiPropertyOptional({ enum: PLAN_TYPES })
  @IsOptional()
  @IsIn(PLAN_TYPES)
  plan_type?: PlanType;
}

export class ProviderDto implements Provider {
  @ApiProperty({
    description: 'National Provider Identifier (10 digits, valid check digit).',
    example: '1234567893',
  })
  @IsNpi()
  npi!: string;

  @ApiProperty({ example: 'Jordan' })
  @IsString()
  @Length(1, NAME_MAX)
  first_name!: string;

  @ApiProperty({ example: 'Example' })
  @IsString()
  @Length(1, NAME_MAX)
  last_name!: string;

  @ApiPropertyOptional({ example: '+1 555 010 0200' })
  @IsOptional()
  @IsPhone()
  phone?: string;

  @ApiPropertyOptional({ example: '+1 555 010 0201' })
  @IsOptional()
  @IsPhone()
  fax?: string;

  @ApiPropertyOptional({ type: () => AddressDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;
}

export class DiagnosisDto implements Diagnosis {
  @ApiProperty({ description: 'ICD-10-CM code, any letter case.', example: 'E11.9' })
  // Catalogs and payers compare codes in their canonical upper-case form.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIcd10Code()
  code!: string;

  @ApiPropertyOptional({ example: 'Type 2 diabetes mellitus without complications' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  description?: string;
}

export class PriorAuthEvidenceDto implements EvidenceItem {
  @ApiProperty({ example: 'HbA1c results' })
  @IsString()
  @Length(1, 200)
  title!: string;

  @ApiProperty({
    description: 'ISO 8601 date-time; a zone designator is optional.',
    example: '2024-03-01T10:00:00',
  })
  @IsIsoDateTime({ zone: 'optional' })
  date_created!: string;

  @ApiProperty({ description: 'Free-form JSON.', type: 'object', additionalProperties: true })
  @IsObject()
  content!: Record<string, unknown>;
}

export class QuestionnaireQuestionDto {
  @ApiProperty({ example: 'Has the patient tried metformin?' })
  @IsString()
  @Length(1, 2000)
  question!: string;

  @ApiProperty({ example: 'Yes' })
  @IsString()
  @Length(1, NOTES_MAX)
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
  @ApiProperty({ type: () => [QuestionnaireQuestionDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => QuestionnaireQuestionDto)
  questions!: QuestionnaireQuestionDto[];

  @ApiProperty({ description: 'ISO 8601 date-time with a zone (UTC).', example: '2024-03-01T10:00:00Z' })
  @IsIsoDateTime({ zone: 'required' })
  created_at!: string;
}

export class VisitNoteDto implements VisitNote {
  @ApiProperty({ description: 'The note text, at most 100 000 characters.' })
  @IsString()
  @Length(1, 100_000)
  content!: string;

  @ApiProperty({
    description: 'ISO 8601 date-time; a zone designator is optional.',
    example: '2024-03-01T10:00:00Z',
  })
  @IsIsoDateTime({ zone: 'optional' })
  created_at!: string;
}

export class DrugDto implements DrugRequest {
  @ApiPropertyOptional({ description: 'Required unless ndc is given.', example: 'Metformin' })
  @AtLeastOneOf(['name', 'ndc'])
  @IsString()
  @Length(1, DRUG_TEXT_MAX)
  name?: string;

  @ApiPropertyOptional({
    description: 'National Drug Code; required unless name is given.',
    example: '00093-7214-01',
  })
  @IsOptional()
  @IsNdc()
  ndc?: string;

  @ApiPropertyOptional({ example: '500 mg' })
  @IsOptional()
  @IsString()
  @Length(1, DRUG_TEXT_MAX)
  dosage?: string;

  @ApiProperty({ minimum: 1, maximum: MAX_QUANTITY, example: 60 })
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity!: number;
}

export class PrescriptionDto {
  @ApiPropertyOptional({ description: 'Required unless ndc is given.', example: 'Metformin' })
  @AtLeastOneOf(['drug_name', 'ndc'])
  @IsString()
  @Length(1, DRUG_TEXT_MAX)
  drug_name?: string;

  @ApiPropertyOptional({
    description: 'National Drug Code; required unless drug_name is given.',
    example: '00093-7214-01',
  })
  @IsOptional()
  @IsNdc()
  ndc?: string;

  @ApiPropertyOptional({ example: '500 mg' })
  @IsOptional()
  @IsString()
  @Length(1, NAME_MAX)
  strength?: string;

  @ApiPropertyOptional({ example: '1 tablet' })
  @IsOptional()
  @IsString()
  @Length(1, DRUG_TEXT_MAX)
  dosage?: string;

  @ApiProperty({ minimum: 1, maximum: MAX_QUANTITY, example: 60 })
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity!: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 365, example: 30 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  days_supply?: number;

  @ApiPropertyOptional({ example: 'Take one tablet by mouth twice daily with meals.' })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  directions?: string;
}

export class PriorAuthMockResultDto {
  @ApiProperty({ enum: PRIOR_AUTH_RESULTS, description: "The simulated payer's answer." })
  @IsIn(PRIOR_AUTH_RESULTS)
  result!: PriorAuthResult;

  @ApiPropertyOptional({ example: 'step_therapy_criteria_not_met' })
  @IsOptional()
  @Matches(SNAKE_CASE, { message: SNAKE_CASE_MESSAGE })
  @MaxLength(SNAKE_CASE_MAX)
  detail_code?: string;
}

export class BenefitVerificationMockResultDto {
  @ApiProperty({ enum: BENEFIT_VERIFICATION_STATUSES })
  @IsIn(BENEFIT_VERIFICATION_STATUSES)
  status!: BenefitVerificationFinalStatus;

  @ApiPropertyOptional({
    description: 'A sandbox case name; the service checks it against its catalog.',
    example: 'drugs_covered__prior_auth_required__has_copay',
  })
  @IsOptional()
  @Matches(SNAKE_CASE, { message: SNAKE_CASE_MESSAGE })
  @MaxLength(SNAKE_CASE_MAX)
  case?: string;
}

/** What prior authorization and benefit verification requests share: who, who prescribes, and the insurance. */
abstract class InsuredCaseRequestDto {
  @ApiProperty({ type: () => CasePatientDto })
  @IsObject()
  @ValidateNested()
  @Type(() => CasePatientDto)
  patient!: CasePatientDto;

  @ApiProperty({ type: () => ProviderDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ProviderDto)
  provider!: ProviderDto;

  @ApiPropertyOptional({
    type: () => [InsuranceDocumentDto],
    description:
      'Insurance card images. Insurance data is required: patient.insurance, insurance or insurance_content. ' +
      `At most ${MAX_DOCUMENTS_PER_REQUEST} documents per request, patient.insurance included.`,
  })
  @AtLeastOneOf(INSURANCE_SOURCES)
  @IsArray()
  @MaxCombinedItems(DOCUMENT_LISTS, MAX_DOCUMENTS_PER_REQUEST, {
    message: `must keep the request within ${MAX_DOCUMENTS_PER_REQUEST} documents (patient.insurance and insurance together)`,
  })
  @ValidateNested({ each: true })
  @Type(() => InsuranceDocumentDto)
  insurance?: InsuranceDocumentDto[];

  @ApiPropertyOptional({ type: () => InsuranceContentDto, description: 'Discrete insurance card data.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InsuranceContentDto)
  insurance_content?: InsuranceContentDto;

  @CaseMetadata({ order_id: 'ord-1001' })
  metadata?: Record<string, string>;
}

export class CreatePriorAuthorizationDto extends InsuredCaseRequestDto {
  @ApiProperty({ type: () => [DiagnosisDto], minItems: 1, maxItems: 50 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => DiagnosisDto)
  diagnoses!: DiagnosisDto[];

  @ApiProperty({ type: () => PrescriptionDto })
  @IsObject()
  @ValidateNested()
  @Type(() => PrescriptionDto)
  prescription!: PrescriptionDto;

  @ApiPropertyOptional({ type: () => [PriorAuthEvidenceDto], maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PriorAuthEvidenceDto)
  evidence?: PriorAuthEvidenceDto[];

  @ApiPropertyOptional({ description: 'Marks a request sent to train or test an integration.' })
  @IsOptional()
  @IsBoolean()
  is_training_data?: boolean;

  @ApiPropertyOptional({
    enum: URGENCIES,
    default: 'standard',
    description: 'Sets the payer decision deadline.',
  })
  @IsOptional()
  @IsIn(URGENCIES)
  urgency?: Urgency;

  @ApiPropertyOptional({ type: () => [QuestionnaireDto], maxItems: 20 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => QuestionnaireDto)
  questionnaires?: QuestionnaireDto[];

  @ApiPropertyOptional({ type: () => [VisitNoteDto], maxItems: 50 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => VisitNoteDto)
  visit_notes?: VisitNoteDto[];

  @ApiPropertyOptional({
    type: () => PriorAuthMockResultDto,
    description: 'Sandbox only: forces the outcome.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PriorAuthMockResultDto)
  mock_result?: PriorAuthMockResultDto;
}

export class CreateBenefitVerificationDto extends InsuredCaseRequestDto {
  @ApiProperty({ type: () => [DrugDto], minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => DrugDto)
  drugs!: DrugDto[];

  @ApiPropertyOptional({ type: () => [DiagnosisDto], maxItems: 50 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => DiagnosisDto)
  diagnoses?: DiagnosisDto[];

  @ApiPropertyOptional({
    type: () => BenefitVerificationMockResultDto,
    description: 'Sandbox only: forces the outcome.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BenefitVerificationMockResultDto)
  mock_result?: BenefitVerificationMockResultDto;
}

export class ReviewDecisionDto {
  @ApiProperty({ enum: REVIEW_DECISIONS })
  @IsIn(REVIEW_DECISIONS)
  decision!: ReviewDecision;

  @ApiProperty({ description: 'Who decided, as the audit trail shows it.', example: 'Reviewer One' })
  @IsString()
  @Length(1, 200)
  reviewer!: string;

  @ApiPropertyOptional({ example: 'Chart notes support medical necessity.' })
  @IsOptional()
  @IsString()
  @MaxLength(NOTES_MAX)
  notes?: string;
}

export class PriorAuthOutcomeDto {
  @ApiProperty({ enum: PRIOR_AUTH_RESULTS })
  @IsIn(PRIOR_AUTH_RESULTS)
  result!: PriorAuthResult;

  @ApiPropertyOptional({ example: 'approval' })
  @IsOptional()
  @Matches(SNAKE_CASE, { message: SNAKE_CASE_MESSAGE })
  @MaxLength(SNAKE_CASE_MAX)
  detail_code?: string;

  @ApiPropertyOptional({ example: 'Approved for 12 months.' })
  @IsOptional()
  @IsString()
  @Length(1, NOTES_MAX)
  detail?: string;

  @ApiPropertyOptional({
    description: "The payer's reference for the determination.",
    example: 'PA-2024-000123',
  })
  @IsOptional()
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  payer_reference?: string;

  @ApiPropertyOptional({ example: '2024-03-01' })
  @IsOptional()
  @IsCalendarDate()
  authorization_start_date?: string;

  @ApiPropertyOptional({ description: 'Not before authorization_start_date.', example: '2025-02-28' })
  @IsOptional()
  @IsCalendarDate()
  @IsNotBefore('authorization_start_date')
  authorization_expiration?: string;
}

export class BenefitVerificationOutcomeDto {
  @ApiProperty({ enum: BENEFIT_VERIFICATION_STATUSES })
  @IsIn(BENEFIT_VERIFICATION_STATUSES)
  status!: BenefitVerificationFinalStatus;

  @ApiPropertyOptional({ enum: COVERAGE_STATUSES, description: 'Required when status is completed.' })
  @RequiredWhen('status', ['completed'])
  @IsIn(COVERAGE_STATUSES)
  coverage_status?: CoverageStatus;

  @ApiPropertyOptional({ example: 'Confirmed by phone with the plan.' })
  @IsOptional()
  @IsString()
  @MaxLength(NOTES_MAX)
  notes?: string;
}

export class CancelCaseDto {
  @ApiProperty({ example: 'Prescription changed.' })
  @IsString()
  @Length(1, 1000)
  reason!: string;
}

export class ListCasesQueryDto {
  @ApiPropertyOptional({ enum: CASE_STATUSES })
  @IsOptional()
  @IsIn(CASE_STATUSES)
  status?: CaseStatus;

  @ApiPropertyOptional({ example: 'patient-0001' })
  @IsOptional()
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  patient_internal_id?: string;

  @ApiPropertyOptional({
    description: 'Calendar date or ISO 8601 date-time with a zone.',
    example: '2024-03-01T00:00:00Z',
  })
  @IsOptional()
  @IsIsoDateTime({ zone: 'required', orCalendarDate: true })
  created_after?: string;

  @ApiPropertyOptional({
    description: 'Calendar date or ISO 8601 date-time with a zone; not before created_after.',
    example: '2024-04-01',
  })
  @IsOptional()
  @IsIsoDateTime({ zone: 'required', orCalendarDate: true })
  @IsNotBefore('created_after')
  created_before?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page.' })
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  // Cursors are base64url; anything else cannot be one, and is refused before its signature is checked.
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'must be a next_cursor this list returned (base64url)' })
  cursor?: string;
}
