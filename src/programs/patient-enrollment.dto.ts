import { ApiProperty, ApiPropertyOptional, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { ID_PREFIXES } from '../../domain/ids';
import { AddressDto, PrescriptionDto } from '../cases/case-requests.dto';
import { AtLeastOneOf, IsCalendarDate, IsIsoDateTime, IsPhone, RequiredWhen } from '../cases/case-validators';

export const ENROLLMENT_RESULTS = ['enrolled', 'denied', 'inconclusive'] as const;
export type EnrollmentResult = (typeof ENROLLMENT_RESULTS)[number];

const NAME_MAX = 100;
const IDENTIFIER_MAX = 100;
const URL_MAX = 2048;
const MAX_ASSETS = 20;
const MAX_EVIDENCE = 50;
const PROGRAM_ID = new RegExp(`^${ID_PREFIXES.supportProgram}_[0-9a-z]{26}$`);
const EVIDENCE_TYPE = /^[a-z][a-z0-9_]*$/;
const EVIDENCE_TYPE_MAX = 60;

export class EnrollmentAddressDto extends OmitType(AddressDto, ['country'] as const) {
  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country code, upper case.', example: 'US' })
  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code of 2 upper-case letters' })
  country!: string;
}

export class EnrollmentAssetDto {
  @ApiProperty({ example: 'insurance-card-front.png' })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ description: 'What the file is, e.g. its MIME type or a category.', example: 'image/png' })
  @IsString()
  @Length(1, NAME_MAX)
  type!: string;

  @ApiProperty({
    description: `Where the program fetches the file: an absolute https URL without credentials, at most ${URL_MAX} characters.`,
    example: 'https://files.example.com/cards/front.png',
  })
  @IsString()
  @MaxLength(URL_MAX)
  // Files carry PHI, so they travel encrypted; credentials in a URL would leak into logs.
  @IsUrl(
    { protocols: ['https'], require_protocol: true, require_valid_protocol: true, disallow_auth: true },
    { message: 'must be an absolute https URL without credentials' },
  )
  url!: string;
}

export class InsuranceDataDto {
  @ApiPropertyOptional({ example: 'GRP-0042' })
  @IsOptional()
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  group_number?: string;

  @ApiPropertyOptional({ example: 'Example Health Plan' })
  @IsOptional()
  @IsString()
  @Length(1, NAME_MAX)
  payer?: string;

  @ApiPropertyOptional({ description: "The patient's member id on the card.", example: 'XZ1234567' })
  @IsOptional()
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  membership_number?: string;

  @ApiPropertyOptional({ description: 'Pharmacy BIN: 6 digits.', example: '610014' })
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'must be 6 digits' })
  rx_bin?: string;

  @ApiPropertyOptional({ example: 'RX1234' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  rx_group?: string;
}

export class InsuranceDetailsDto {
  @ApiProperty({ type: () => InsuranceDataDto, description: 'Discrete insurance card data.' })
  @IsObject()
  @ValidateNested()
  @Type(() => InsuranceDataDto)
  data!: InsuranceDataDto;

  @ApiPropertyOptional({
    type: () => [EnrollmentAssetDto],
    maxItems: MAX_ASSETS,
    description: 'Insurance card files.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ASSETS)
  @ValidateNested({ each: true })
  @Type(() => EnrollmentAssetDto)
  assets?: EnrollmentAssetDto[];
}

export class EnrollmentPatientMetadataDto {
  @ApiPropertyOptional({ description: "The caller's reference for the patient.", example: 'patient-0001' })
  @IsOptional()
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  patient_id?: string;
}

export class EnrollmentPatientDto {
  @ApiProperty({ example: 'Alex' })
  @IsString()
  @Length(1, NAME_MAX)
  first_name!: string;

  @ApiProperty({ example: 'Sample' })
  @IsString()
  @Length(1, NAME_MAX)
  last_name!: string;

  @ApiProperty({ description: 'Calendar date, not in the future.', example: '1980-04-12' })
  @IsCalendarDate({ past: true })
  date_of_birth!: string;

  @ApiProperty({
    type: () => EnrollmentAddressDto,
    description: 'Programs check residency, so the address is required.',
  })
  @IsObject()
  @ValidateNested()
  @Type(() => EnrollmentAddressDto)
  address!: EnrollmentAddressDto;

  @ApiProperty({ example: 'alex.sample@example.com' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ example: '+1 (555) 010-0100' })
  @IsPhone()
  phone!: string;

  @ApiPropertyOptional({ type: () => InsuranceDetailsDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InsuranceDetailsDto)
  insurance_details?: InsuranceDetailsDto;

  @ApiPropertyOptional({ type: () => EnrollmentPatientMetadataDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EnrollmentPatientMetadataDto)
  metadata?: EnrollmentPatientMetadataDto;
}

/** The prior authorization prescription's dosage and directions, for a drug named by name only. */
export class EnrollmentPrescriptionDto extends PickType(PrescriptionDto, ['dosage', 'directions'] as const) {
  @ApiProperty({ example: 'Semaglutide' })
  @IsString()
  @Length(1, 200)
  drug_name!: string;

  @ApiPropertyOptional({
    description: 'Free-form JSON the program needs beyond the fields above.',
    type: 'object',
    additionalProperties: true,
    example: { days_supply: 28 },
  })
  @IsOptional()
  @IsObject()
  extra?: Record<string, unknown>;
}

export class EnrollmentEvidenceDto {
  @ApiProperty({
    description: `Category of the evidence: snake_case, at most ${EVIDENCE_TYPE_MAX} characters.`,
    example: 'lab_result',
  })
  @IsString()
  @Length(1, EVIDENCE_TYPE_MAX)
  @Matches(EVIDENCE_TYPE, { message: 'must be snake_case (lower-case letters, digits, _)' })
  type!: string;

  @ApiProperty({
    description: 'ISO 8601 date-time; a zone designator is optional.',
    example: '2024-03-01T10:00:00Z',
  })
  @IsIsoDateTime({ zone: 'optional' })
  date_created!: string;

  @ApiPropertyOptional({
    description: 'Free-form JSON; content, assets or both are required.',
    type: 'object',
    additionalProperties: true,
    example: { hba1c_percent: 8.1 },
  })
  // A category and a date alone tell the program nothing.
  @AtLeastOneOf(['content', 'assets'])
  @IsObject()
  content?: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => [EnrollmentAssetDto], maxItems: MAX_ASSETS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ASSETS)
  @ValidateNested({ each: true })
  @Type(() => EnrollmentAssetDto)
  assets?: EnrollmentAssetDto[];
}

export class EnrollmentMetadataDto {
  @ApiPropertyOptional({ description: "The caller's reference for the enrollment.", example: 'enr-1001' })
  @IsOptional()
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  enrollment_id?: string;
}

export class CreatePatientEnrollmentDto {
  @ApiProperty({ type: () => EnrollmentPatientDto })
  @IsObject()
  @ValidateNested()
  @Type(() => EnrollmentPatientDto)
  patient!: EnrollmentPatientDto;

  @ApiProperty({
    description: 'A support program id from GET /support-programs; the service checks that it exists.',
    format: 'support-program-id',
    example: 'prog_01jnzn5t37ydrsw602nch4aqg1',
  })
  @IsString()
  @Matches(PROGRAM_ID, {
    message: 'must be a support program id: prog_ followed by 26 lower-case letters or digits',
  })
  programId!: string;

  @ApiPropertyOptional({ type: () => EnrollmentPrescriptionDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EnrollmentPrescriptionDto)
  prescription?: EnrollmentPrescriptionDto;

  @ApiPropertyOptional({ type: () => [EnrollmentEvidenceDto], maxItems: MAX_EVIDENCE })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_EVIDENCE)
  @ValidateNested({ each: true })
  @Type(() => EnrollmentEvidenceDto)
  evidence?: EnrollmentEvidenceDto[];

  @ApiPropertyOptional({ type: () => EnrollmentMetadataDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EnrollmentMetadataDto)
  metadata?: EnrollmentMetadataDto;
}

/** What a reviewer may ask to correct about the patient; an address or insurance replaces the old one whole. */
export class EnrollmentPatientUpdateDto extends PartialType(
  PickType(EnrollmentPatientDto, ['address', 'insurance_details'] as const),
) {
  @ApiPropertyOptional({
    description:
      'Calendar date, not in the future. The update needs date_of_birth, address or insurance_details.',
    example: '1980-04-12',
  })
  @AtLeastOneOf(['date_of_birth', 'address', 'insurance_details'])
  @IsCalendarDate({ past: true })
  date_of_birth?: string;
}

/** The information an enrollment in awaiting_review asked for (contract section 4). */
export class EnrollmentInformationDto {
  @ApiPropertyOptional({
    type: () => [EnrollmentEvidenceDto],
    maxItems: MAX_EVIDENCE,
    description:
      'Added to the evidence already submitted. At least one of evidence, patient or prescription.',
  })
  @AtLeastOneOf(['evidence', 'patient', 'prescription'])
  @IsArray()
  @ArrayMaxSize(MAX_EVIDENCE)
  @ValidateNested({ each: true })
  @Type(() => EnrollmentEvidenceDto)
  evidence?: EnrollmentEvidenceDto[];

  @ApiPropertyOptional({ type: () => EnrollmentPatientUpdateDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EnrollmentPatientUpdateDto)
  patient?: EnrollmentPatientUpdateDto;

  @ApiPropertyOptional({ type: () => EnrollmentPrescriptionDto, description: 'Replaces the prescription.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EnrollmentPrescriptionDto)
  prescription?: EnrollmentPrescriptionDto;
}

/** The program's decision on an enrollment (contract sections 3 and 4). */
export class EnrollmentOutcomeDto {
  @ApiProperty({ enum: ENROLLMENT_RESULTS })
  @IsIn(ENROLLMENT_RESULTS)
  result!: EnrollmentResult;

  @ApiPropertyOptional({
    description: "The patient's program member id; required when enrolled.",
    example: 'MBR-000123',
  })
  @RequiredWhen('result', ['enrolled'])
  @IsString()
  @Length(1, IDENTIFIER_MAX)
  member_id?: string;

  @ApiPropertyOptional({ description: 'Pharmacy BIN of the benefit: 6 digits.', example: '610020' })
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'must be 6 digits' })
  bin?: string;

  @ApiPropertyOptional({ description: 'Processor control number of the benefit.', example: 'COPAY01' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  pcn?: string;

  @ApiPropertyOptional({ description: 'Pharmacy group of the benefit.', example: 'EC12345' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  group?: string;

  @ApiPropertyOptional({ description: 'Last day of the enrollment, a calendar date.', example: '2025-12-31' })
  @IsOptional()
  @IsCalendarDate()
  valid_until?: string;

  @ApiPropertyOptional({ example: 'Enrolled in the copay program for 12 months.' })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  detail?: string;
}
