import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
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

import {
  CASE_STATUSES,
  OPERATOR_FAILURE_REASONS,
  type OperatorFailureReason,
  type Address,
  type CasePatient,
  type CaseStatus,
  type Diagnosis,
  type DrugRequest,
  type EvidenceItem,
  type InsuranceContent,
  type PlanType,
  type PolicySubscriber,
  type Provider,
  type Questionnaire,
  type VisitNote,
} from '../../domain/cases/case-model';
import {
  PRIOR_AUTH_OUTCOME_RESULTS,
  type PriorAuthInformationAnswers,
  type PriorAuthOutcomeInput,
  type PriorAuthOutcomeResult,
  type ReviewDecisionInput,
} from '../../domain/cases/prior-authorization';
import {
  PRIOR_AUTH_MOCK_RESULTS,
  type InformationAnswer,
  type PriorAuthMockResult,
} from '../../domain/payers/prior-authorization-exchange';
import type { ManualDrugResult, ManualInsuranceCorrection } from '../../domain/cases/benefit-verification';
import type { PriorAuthRequirement } from '../../domain/payers/payer-connector';
import {
  Field,
  FieldOptions,
  JsonObjectField,
  NestedArray,
  NestedObject,
  Stack,
  TextField,
} from '../common/dto/compose';
import { PageCursor, PageLimit } from '../common/dto/page-query';
import {
  AtLeastOneOf,
  ExactlyOneOf,
  IsBase64Document,
  IsCalendarDate,
  IsIsoDateTime,
  IsNotBefore,
  IsNpi,
  MaxCombinedItems,
  RequiredWhen,
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
  Notes,
  PayerName,
  PersonName,
  Phone,
  PlanTypeField,
  Quantity,
  RxBin,
  RxCode,
  SandboxBenefitVerificationCase,
  SandboxMockResult,
  SnakeCaseCode,
  WrittenAt,
} from '../common/dto/request-vocabulary';

export const GENDERS = [
  'male',
  'female',
  'other',
  'not_specified',
] as const satisfies readonly CasePatient['gender'][];
export const URGENCIES = ['standard', 'expedited'] as const;
export type Urgency = (typeof URGENCIES)[number];
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
export type ReviewDecision = ReviewDecisionInput['decision'];
export const REVIEW_DECISIONS = ['approve', 'reject'] as const satisfies readonly ReviewDecision[];
export const MANUAL_DRUG_COVERAGES = [
  'covered',
  'not_covered',
  'unknown',
] as const satisfies readonly ManualDrugResult['coverage'][];
export const PRIOR_AUTH_REQUIREMENTS = [
  'yes',
  'no',
  'not_applicable',
] as const satisfies readonly PriorAuthRequirement[];
/** $1,000,000: above any deductible, out-of-pocket total or copay a plan reports. */
const MAX_AMOUNT_CENTS = 100_000_000;
const MAX_DAYS = 365;

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
const MAX_DOCUMENTS = LIMITS.documentsPerRequest;

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

/** A document sent later, with answers to a payer's questions: its content as JSON. */
export class PriorAuthInformationDocumentDto implements EvidenceItem {
  @TextField(LIMITS.label, { example: 'HbA1c results' })
  title!: string;

  @WrittenAt('2024-03-01T10:00:00')
  date_created!: string;

  @JsonObjectField({ description: 'Free-form JSON.' })
  content!: Record<string, unknown>;
}

export class PriorAuthEvidenceDto {
  @TextField(LIMITS.label, { example: 'HbA1c results' })
  title!: string;

  @WrittenAt('2024-03-01T10:00:00')
  date_created!: string;

  @ExactlyOneOf(['content', 'asset'])
  @JsonObjectField({
    required: false,
    description: 'Free-form JSON; exactly one of content or asset is required.',
  })
  content?: Record<string, unknown>;

  @NestedObject(() => EvidenceAssetDto, {
    optional: true,
    description:
      'A file (a PDF or a scan of a chart note, a lab report): read by the case, page by page, for the criteria. Exactly one of content or asset is required.',
  })
  asset?: EvidenceAssetDto;
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

export class PriorAuthMockResultDto {
  @ApiProperty({
    enum: PRIOR_AUTH_MOCK_RESULTS,
    description:
      "The simulated payer's answer. `other` with detail_code `more_information_required` (its default) " +
      'pends with an information request, decided once answered; `not_submitted` ends the case failed.',
  })
  @IsIn(PRIOR_AUTH_MOCK_RESULTS)
  result!: PriorAuthMockResult;

  @SnakeCaseCode({ example: 'step_therapy_criteria_not_met' })
  detail_code?: string;

  @NestedObject(() => MockOutageDto, {
    optional: true,
    description:
      'Plays a payer outage before the payer prepares the request (see docs/workflows.md, outages).',
  })
  outage?: MockOutageDto;
}

export class BenefitVerificationMockResultDto {
  @ApiProperty({ enum: BENEFIT_VERIFICATION_STATUSES })
  @IsIn(BENEFIT_VERIFICATION_STATUSES)
  status!: BenefitVerificationFinalStatus;

  @SandboxBenefitVerificationCase()
  case?: string;

  @NestedObject(() => MockOutageDto, {
    optional: true,
    description: 'Plays a payer outage before the payer answers (see docs/workflows.md, outages).',
  })
  outage?: MockOutageDto;
}

/** What prior authorization and benefit verification requests share: who, who prescribes, and the insurance. */
abstract class InsuredCaseRequestDto {
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

export class CreatePriorAuthorizationDto extends InsuredCaseRequestDto {
  @NestedArray(() => DiagnosisDto, { minItems: 1, maxItems: 50 })
  diagnoses!: DiagnosisDto[];

  @NestedObject(() => PrescriptionDto)
  prescription!: PrescriptionDto;

  @WithinDocumentLimit()
  @NestedArray(() => PriorAuthEvidenceDto, {
    optional: true,
    maxItems: 100,
    description: `At most ${MAX_DOCUMENTS} documents per request, insurance card images and evidence assets together.`,
  })
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

  @NestedArray(() => QuestionnaireDto, { optional: true, maxItems: 20 })
  questionnaires?: QuestionnaireDto[];

  @NestedArray(() => VisitNoteDto, { optional: true, maxItems: 50 })
  visit_notes?: VisitNoteDto[];

  @SandboxMockResult(() => PriorAuthMockResultDto)
  mock_result?: PriorAuthMockResultDto;
}

export class CreateBenefitVerificationDto extends InsuredCaseRequestDto {
  @NestedArray(() => DrugDto, { minItems: 1, maxItems: 20 })
  drugs!: DrugDto[];

  @NestedArray(() => DiagnosisDto, { optional: true, maxItems: 50 })
  diagnoses?: DiagnosisDto[];

  @SandboxMockResult(() => BenefitVerificationMockResultDto)
  mock_result?: BenefitVerificationMockResultDto;
}

export class ReviewDecisionDto {
  @ApiProperty({ enum: REVIEW_DECISIONS })
  @IsIn(REVIEW_DECISIONS)
  decision!: ReviewDecision;

  @TextField(LIMITS.label, {
    description: 'Who decided, as the audit trail shows it.',
    example: 'Reviewer One',
  })
  reviewer!: string;

  @Notes('Chart notes support medical necessity.')
  notes?: string;
}

/** An optional calendar date; the end of a range names the property it may not come before. */
const OptionalDate = (example: string, notBefore?: string) =>
  Stack(
    Field({ optional: true, example, ...(notBefore && { description: `Not before ${notBefore}.` }) }),
    IsCalendarDate(),
    ...(notBefore ? [IsNotBefore(notBefore)] : []),
  );

export class PriorAuthOutcomeDto implements PriorAuthOutcomeInput {
  @ApiProperty({
    enum: PRIOR_AUTH_OUTCOME_RESULTS,
    description:
      'approved, denied and partially_approved complete the case; not_submitted (the payer did not accept ' +
      'the request) fails it; other completes it, except with detail_code more_information_required, ' +
      'which records the payer’s information request as pending_request and keeps the case awaiting_outcome.',
  })
  @IsIn(PRIOR_AUTH_OUTCOME_RESULTS)
  result!: PriorAuthOutcomeResult;

  @SnakeCaseCode({ example: 'approval' })
  detail_code?: string;

  @TextField(LIMITS.notes, { optional: true, example: 'Approved for 12 months.' })
  detail?: string;

  @Identifier({
    optional: true,
    description: "The payer's reference for the determination.",
    example: 'PA-2024-000123',
  })
  payer_reference?: string;

  @OptionalDate('2024-03-01')
  authorization_start_date?: string;

  @OptionalDate('2025-02-28', 'authorization_start_date')
  authorization_expiration?: string;

  @Identifier({ optional: true, description: "The payer's authorization number.", example: 'AUTH-2024-0042' })
  authorization_number?: string;

  @RequiredWhen('result', ['partially_approved'])
  @Stack(
    Field({
      required: false,
      minimum: 1,
      maximum: LIMITS.quantity,
      description: 'The quantity the payer approved; required when partially_approved.',
      example: 30,
    }),
    IsInt(),
    Min(1),
    Max(LIMITS.quantity),
  )
  approved_quantity?: number;

  @ApiPropertyOptional({
    description:
      'With other + more_information_required: when the payer wants the answers (ISO 8601 date-time with zone); ' +
      "the payer's decision deadline when absent.",
    example: '2026-11-20T17:00:00Z',
  })
  @IsOptional()
  @IsIsoDateTime({ zone: 'required' })
  information_due_at?: string;
}

export class InformationAnswerDto implements InformationAnswer {
  @Identifier({ description: 'The id of a question of the pending request.', example: 'bmi_30' })
  question_id!: string;

  @TextField(LIMITS.notes, { example: 'BMI 32.4 on 2026-10-01; weight 98 kg.' })
  answer!: string;
}

/** The provider's answers to the payer's information request (`pending_request`). */
export class PriorAuthInformationDto implements PriorAuthInformationAnswers {
  @NestedArray(() => InformationAnswerDto, {
    minItems: 1,
    maxItems: 50,
    description: "Answers to the questions of the case's pending_request, by question id.",
  })
  answers!: InformationAnswerDto[];

  @NestedArray(() => PriorAuthInformationDocumentDto, {
    optional: true,
    maxItems: 20,
    description:
      "Supporting documents; they join the request's evidence and go to the payer with the answers.",
  })
  documents?: PriorAuthInformationDocumentDto[];
}

const Cents = (options: FieldOptions) =>
  Stack(Field({ minimum: 0, maximum: MAX_AMOUNT_CENTS, ...options }), IsInt(), Min(0), Max(MAX_AMOUNT_CENTS));

const Days = (options: FieldOptions) =>
  Stack(Field({ minimum: 1, maximum: MAX_DAYS, ...options }), IsInt(), Min(1), Max(MAX_DAYS));

export class ManualCopayDto {
  @Cents({ example: 4500 })
  amount_cents!: number;

  @Days({ example: 30 })
  supply_duration_days!: number;
}

export class ManualQuantityLimitDto {
  @Quantity()
  quantity!: number;

  @Days({ example: 30 })
  period_days!: number;
}

export class ManualBalanceDto {
  @Cents({ example: 150000 })
  total_cents!: number;

  @Cents({ description: 'Not more than total_cents.', example: 42000 })
  met_cents!: number;
}

export class ManualCoverageDatesDto {
  @OptionalDate('2026-01-01')
  start_date?: string;

  @OptionalDate('2026-12-31', 'start_date')
  end_date?: string;
}

export class ManualDrugResultDto implements ManualDrugResult {
  @TextField(LIMITS.label, {
    description: "A requested drug's name or NDC, as the benefit verification request gave it.",
    example: 'Ozempic',
  })
  drug!: string;

  @ApiProperty({ enum: MANUAL_DRUG_COVERAGES })
  @IsIn(MANUAL_DRUG_COVERAGES)
  coverage!: ManualDrugResult['coverage'];

  @ApiProperty({ enum: PRIOR_AUTH_REQUIREMENTS })
  @IsIn(PRIOR_AUTH_REQUIREMENTS)
  prior_authorization_required!: PriorAuthRequirement;

  @NestedObject(() => ManualCopayDto, { optional: true })
  copay?: ManualCopayDto;

  @ApiPropertyOptional({ minimum: 0, maximum: 100, example: 20 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  coinsurance_percent?: number;

  @NestedObject(() => ManualQuantityLimitDto, { optional: true })
  quantity_limit?: ManualQuantityLimitDto;

  @Notes('Tier 3 on the plan portal; PA form faxed.')
  notes?: string;
}

const CORRECTABLE_INSURANCE_FIELDS = ['payer', 'member_id', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group'];

/** Insurance fields a reviewer confirmed with the plan, correcting or completing what the card gave. */
export class ManualInsuranceDto implements ManualInsuranceCorrection {
  @AtLeastOneOf(CORRECTABLE_INSURANCE_FIELDS)
  @PayerName({ required: false })
  payer?: string;

  @Identifier({ optional: true, example: 'W123456789' })
  member_id?: string;

  @GroupNumber()
  group_number?: string;

  @RxBin()
  rx_bin?: string;

  @RxCode('SBXBHHPPO')
  rx_pcn?: string;

  @RxCode('SBXBHH0100')
  rx_group?: string;
}

export class BenefitVerificationOutcomeDto {
  @ApiProperty({ enum: BENEFIT_VERIFICATION_STATUSES })
  @IsIn(BENEFIT_VERIFICATION_STATUSES)
  status!: BenefitVerificationFinalStatus;

  @ApiPropertyOptional({ enum: COVERAGE_STATUSES, description: 'Required when status is completed.' })
  @RequiredWhen('status', ['completed'])
  @IsIn(COVERAGE_STATUSES)
  coverage_status?: CoverageStatus;

  @Notes('Confirmed by phone with the plan.')
  notes?: string;

  @NestedArray(() => ManualDrugResultDto, {
    optional: true,
    maxItems: 20,
    description:
      'One result per requested drug, each naming it by name or NDC; a requested drug left out is recorded as coverage unknown.',
  })
  drugs?: ManualDrugResultDto[];

  @NestedObject(() => ManualBalanceDto, { optional: true })
  deductible?: ManualBalanceDto;

  @NestedObject(() => ManualBalanceDto, { optional: true })
  out_of_pocket?: ManualBalanceDto;

  @NestedObject(() => ManualCoverageDatesDto, { optional: true })
  coverage_dates?: ManualCoverageDatesDto;

  @NestedObject(() => ManualInsuranceDto, {
    optional: true,
    description:
      'Insurance fields the reviewer confirmed with the plan (at least one), for a card that could not be read or was read wrong. The case uses them and shows them as supplied by a reviewer.',
  })
  insurance?: ManualInsuranceDto;
}

export class CancelCaseDto {
  @TextField(LIMITS.sentence, { example: 'Prescription changed.' })
  reason!: string;
}

/** The longest note an operator may keep with `failNow`, for other operators reading the history. */
const MAX_OPERATOR_NOTE_LENGTH = 500;

export class FailCaseDto {
  @ApiProperty({
    enum: Object.keys(OPERATOR_FAILURE_REASONS),
    description: "Why the operator ends the case; the case's `failure.message` says it in words.",
  })
  @IsIn(Object.keys(OPERATOR_FAILURE_REASONS))
  reason!: OperatorFailureReason;

  @TextField(MAX_OPERATOR_NOTE_LENGTH, {
    optional: true,
    description:
      'For other operators only: kept in the workflow history (encrypted), never in the case, its events or the audit trail.',
    example: 'Payer portal down for maintenance until Monday.',
  })
  note?: string;
}

export class ListCasesQueryDto {
  @ApiPropertyOptional({ enum: CASE_STATUSES })
  @IsOptional()
  @IsIn(CASE_STATUSES)
  status?: CaseStatus;

  @Identifier({ optional: true, example: 'patient-0001' })
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

  @PageLimit()
  limit?: number;

  @PageCursor(2000)
  // Cursors are base64url; anything else cannot be one, and is refused before its signature is checked.
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'must be a next_cursor this list returned (base64url)' })
  cursor?: string;
}
