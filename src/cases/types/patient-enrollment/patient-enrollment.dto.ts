import { ApiProperty, ApiPropertyOptional, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';

import { ID_PREFIXES } from '../../../../domain/ids';
import {
  ATTESTER_RELATIONSHIPS,
  PATIENT_AUTHORIZATION_TYPES,
} from '../../../../domain/programs/patient-authorization';
import type {
  AttesterRelationship,
  PatientAuthorizationType,
} from '../../../../domain/programs/patient-authorization';
import { AddressDto, MockOutageDto, PrescriptionDto } from '../../case-request-parts.dto';
import { AtLeastOneOf, IsCalendarDate, IsPastDateTime } from '../../../common/dto/case-validators';
import {
  DateOfBirth,
  Email,
  GroupNumber,
  Identifier,
  LIMITS,
  PayerName,
  PersonName,
  Phone,
  RxBin,
  RxCode,
  WrittenAt,
} from '../../../common/dto/request-vocabulary';
import { JsonObjectField, NestedArray, NestedObject, TextField } from '../../../common/dto/compose';

export const ENROLLMENT_RESULTS = ['enrolled', 'denied', 'inconclusive'] as const;
export type EnrollmentResult = (typeof ENROLLMENT_RESULTS)[number];

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
  @TextField(LIMITS.label, { example: 'insurance-card-front.png' })
  name!: string;

  @TextField(LIMITS.name, {
    description: 'What the file is, e.g. its MIME type or a category.',
    example: 'image/png',
  })
  type!: string;

  @ApiProperty({
    description: `Where the program fetches the file: an absolute https URL without credentials, at most ${LIMITS.url} characters.`,
    example: 'https://files.example.com/cards/front.png',
  })
  @IsString()
  @MaxLength(LIMITS.url)
  // Files carry PHI, so they travel encrypted; credentials in a URL would leak into logs.
  @IsUrl(
    { protocols: ['https'], require_protocol: true, require_valid_protocol: true, disallow_auth: true },
    { message: 'must be an absolute https URL without credentials' },
  )
  url!: string;
}

export class InsuranceDataDto {
  @GroupNumber()
  group_number?: string;

  @PayerName({ optional: true })
  payer?: string;

  @Identifier({ optional: true, description: "The patient's member id on the card.", example: 'ZZ1234567' })
  membership_number?: string;

  @RxBin()
  rx_bin?: string;

  @RxCode('RX1234')
  rx_group?: string;
}

export class InsuranceDetailsDto {
  @NestedObject(() => InsuranceDataDto, { description: 'Discrete insurance card data.' })
  data!: InsuranceDataDto;

  @NestedArray(() => EnrollmentAssetDto, {
    optional: true,
    maxItems: MAX_ASSETS,
    description: 'Insurance card files.',
  })
  assets?: EnrollmentAssetDto[];
}

export class EnrollmentPatientMetadataDto {
  @Identifier({
    optional: true,
    description: "The caller's reference for the patient.",
    example: 'patient-0001',
  })
  patient_id?: string;
}

export class EnrollmentPatientDto {
  @PersonName('Alex')
  first_name!: string;

  @PersonName('Sample')
  last_name!: string;

  @DateOfBirth()
  date_of_birth!: string;

  @NestedObject(() => EnrollmentAddressDto, {
    description: 'Programs check residency, so the address is required.',
  })
  address!: EnrollmentAddressDto;

  @Email()
  email!: string;

  @Phone('+1 (555) 010-0100')
  phone!: string;

  @NestedObject(() => InsuranceDetailsDto, { optional: true })
  insurance_details?: InsuranceDetailsDto;

  @NestedObject(() => EnrollmentPatientMetadataDto, { optional: true })
  metadata?: EnrollmentPatientMetadataDto;
}

/** The prior authorization prescription's dosage and directions, for a drug named by name only. */
export class EnrollmentPrescriptionDto extends PickType(PrescriptionDto, ['dosage', 'directions'] as const) {
  @TextField(LIMITS.label, { example: 'Semaglutide' })
  drug_name!: string;

  @JsonObjectField({
    optional: true,
    description: 'Free-form JSON the program needs beyond the fields above.',
    example: { days_supply: 28 },
  })
  extra?: Record<string, unknown>;
}

export class EnrollmentEvidenceDto {
  @TextField(EVIDENCE_TYPE_MAX, {
    description: `Category of the evidence: snake_case, at most ${EVIDENCE_TYPE_MAX} characters.`,
    example: 'lab_result',
  })
  @Matches(EVIDENCE_TYPE, { message: 'must be snake_case (lower-case letters, digits, _)' })
  type!: string;

  @WrittenAt('2024-03-01T10:00:00Z')
  date_created!: string;

  // A category and a date alone tell the program nothing.
  @AtLeastOneOf(['content', 'assets'])
  @JsonObjectField({
    required: false,
    description: 'Free-form JSON; content, assets or both are required.',
    example: { hba1c_percent: 8.1 },
  })
  content?: Record<string, unknown>;

  @NestedArray(() => EnrollmentAssetDto, { optional: true, maxItems: MAX_ASSETS })
  assets?: EnrollmentAssetDto[];
}

export class AttesterDto {
  @ApiProperty({
    enum: ATTESTER_RELATIONSHIPS,
    description:
      'The patient, or a legal representative (parent, guardian, health care proxy) signing for them.',
  })
  @IsIn(ATTESTER_RELATIONSHIPS)
  relationship!: AttesterRelationship;

  @PersonName('Alex Sample', { description: 'The name of the person who signed, as on the form.' })
  name!: string;
}

/** The patient's authorization to share their data with the program, as signed on the program's form. */
export class PatientAuthorizationDto {
  @ApiProperty({
    enum: PATIENT_AUTHORIZATION_TYPES,
    description:
      "hipaa_authorization: the patient's HIPAA authorization to disclose their health information to the " +
      "program; program_consent: the program's own consent to enroll and contact the patient. A program " +
      'states the one it requires in `patient_authorization_required` (GET /support-programs).',
  })
  @IsIn(PATIENT_AUTHORIZATION_TYPES)
  type!: PatientAuthorizationType;

  @NestedObject(() => AttesterDto, { description: 'Who signed.' })
  attested_by!: AttesterDto;

  @ApiProperty({ description: 'When the form was signed.', example: '2026-11-20T14:30:00Z' })
  @IsPastDateTime()
  attested_at!: string;

  @TextField(LIMITS.identifier, {
    description: "The version of the program's form that was signed, as the program numbers it.",
    example: 'ACME-HUB-2026-01',
  })
  form_version!: string;
}

export class EnrollmentMetadataDto {
  @Identifier({
    optional: true,
    description: "The caller's reference for the enrollment.",
    example: 'enr-1001',
  })
  enrollment_id?: string;
}

export class EnrollmentMockResultDto {
  @NestedObject(() => MockOutageDto, {
    description: 'The sandbox program hub stays unavailable this long before it takes the submission.',
  })
  outage!: MockOutageDto;
}

export class CreatePatientEnrollmentDto {
  @NestedObject(() => EnrollmentPatientDto)
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

  @NestedObject(() => EnrollmentPrescriptionDto, { optional: true })
  prescription?: EnrollmentPrescriptionDto;

  @NestedArray(() => EnrollmentEvidenceDto, { optional: true, maxItems: MAX_EVIDENCE })
  evidence?: EnrollmentEvidenceDto[];

  @NestedObject(() => PatientAuthorizationDto, {
    optional: true,
    description:
      "The patient's authorization to share their data with the program, passed to the program hub as " +
      'proof of consent. Required, of the type the program names, when the program has ' +
      '`patient_authorization_required` (GET /support-programs); a program that requires none records it too.',
  })
  patient_authorization?: PatientAuthorizationDto;

  @NestedObject(() => EnrollmentMetadataDto, { optional: true })
  metadata?: EnrollmentMetadataDto;

  @NestedObject(() => EnrollmentMockResultDto, {
    optional: true,
    description: 'Sandbox only: plays a program hub outage (see docs/workflows.md, outages).',
  })
  mock_result?: EnrollmentMockResultDto;
}

/** What a reviewer may ask to correct about the patient; an address or insurance replaces the old one whole. */
export class EnrollmentPatientUpdateDto extends PartialType(
  PickType(EnrollmentPatientDto, ['address', 'insurance_details'] as const),
) {
  @AtLeastOneOf(['date_of_birth', 'address', 'insurance_details'])
  @DateOfBirth({
    required: false,
    description:
      'Calendar date, not in the future. The update needs date_of_birth, address or insurance_details.',
  })
  date_of_birth?: string;
}

/** The information an enrollment in awaiting_review asked for (contract section 4). */
export class EnrollmentInformationDto {
  @AtLeastOneOf(['evidence', 'patient', 'prescription'])
  @NestedArray(() => EnrollmentEvidenceDto, {
    required: false,
    maxItems: MAX_EVIDENCE,
    description:
      'Added to the evidence already submitted. At least one of evidence, patient or prescription.',
  })
  evidence?: EnrollmentEvidenceDto[];

  @NestedObject(() => EnrollmentPatientUpdateDto, { optional: true })
  patient?: EnrollmentPatientUpdateDto;

  @NestedObject(() => EnrollmentPrescriptionDto, {
    optional: true,
    description: 'Replaces the prescription.',
  })
  prescription?: EnrollmentPrescriptionDto;
}

/** The program's decision on an enrollment (contract sections 3 and 4). */
export class EnrollmentOutcomeDto {
  @ApiProperty({ enum: ENROLLMENT_RESULTS })
  @IsIn(ENROLLMENT_RESULTS)
  result!: EnrollmentResult;

  @Identifier({
    optional: true,
    description:
      "The patient's member id on a copay card; required when a copay program enrolls the patient, refused for other program types.",
    example: 'ZZMBR-000123',
  })
  member_id?: string;

  @RxBin({ description: 'Pharmacy BIN of a copay card: 6 digits; copay programs only.', example: '999911' })
  bin?: string;

  @RxCode('SBXCPN1', { description: 'Processor control number of a copay card; copay programs only.' })
  pcn?: string;

  @RxCode('SBXOZM24', { description: 'Pharmacy group of a copay card; copay programs only.' })
  group?: string;

  @ApiPropertyOptional({ description: 'Last day of the enrollment, a calendar date.', example: '2025-12-31' })
  @IsOptional()
  @IsCalendarDate()
  valid_until?: string;

  @TextField(LIMITS.sentence, { optional: true, example: 'Enrolled in the copay program for 12 months.' })
  detail?: string;
}
