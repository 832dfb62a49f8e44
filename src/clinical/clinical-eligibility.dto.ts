import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';

import type { ClinicalDiagnosisInput, ClinicalRecord } from '../../domain/clinical/clinical-model';
import {
  CaseMetadata,
  CasePatientDto,
  DrugDto,
  QuestionnaireDto,
  VisitNoteDto,
} from '../cases/case-requests.dto';
import {
  AtLeastOneOf,
  ExactlyOneOf,
  IsBase64Document,
  IsIcd10Code,
  IsIsoDateTime,
} from '../cases/case-validators';

/** Contract section 7: base64 documents per request, insurance card images and evidence files together. */
export const MAX_CLINICAL_DOCUMENTS = 20;
/** RFC 6838 restricted names, without parameters: the type alone decides how a file is read. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

type ClinicalDrug = ClinicalRecord['drugs'][number];

/** The specification's clinical eligibility drug has a name and no NDC alternative. */
export class ClinicalDrugDto
  extends PickType(DrugDto, ['dosage', 'quantity'] as const)
  implements ClinicalDrug
{
  @ApiProperty({ example: 'Semaglutide' })
  @IsString()
  @Length(1, 200)
  name!: string;
}

export class ClinicalDiagnosisDto implements ClinicalDiagnosisInput {
  @ApiPropertyOptional({
    description: 'ICD-10-CM code, any letter case; required unless description is given, and wins over it.',
    example: 'E11.9',
  })
  // Criteria compare codes in their canonical upper-case form.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @AtLeastOneOf(['code', 'description'])
  @IsIcd10Code()
  code?: string;

  @ApiPropertyOptional({
    description: 'Free-text diagnosis; required unless code is given.',
    example: 'Type 2 diabetes mellitus without complications',
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  description?: string;
}

export class ClinicalEvidenceAssetDto {
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

export class ClinicalEvidenceDto {
  @ApiProperty({
    description: 'ISO 8601 date-time; a zone designator is optional.',
    example: '2024-03-01T10:00:00Z',
  })
  @IsIsoDateTime({ zone: 'optional' })
  date_created!: string;

  @ApiProperty({ example: 'Lipid panel' })
  @IsString()
  @Length(1, 200)
  title!: string;

  @ApiPropertyOptional({
    description: 'Free-form JSON; exactly one of content or asset is required.',
    type: 'object',
    additionalProperties: true,
    example: { ldl_mg_dl: 131 },
  })
  @ExactlyOneOf(['content', 'asset'])
  @IsObject()
  content?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: () => ClinicalEvidenceAssetDto,
    description: 'A file; exactly one of content or asset is required.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ClinicalEvidenceAssetDto)
  asset?: ClinicalEvidenceAssetDto;
}

/** Contract section 7 counts every base64 document in the request, wherever it sits. */
function WithinClinicalDocumentLimit(): PropertyDecorator {
  return ValidateBy({
    name: 'withinClinicalDocumentLimit',
    validator: {
      validate: (_value, args) =>
        countDocuments(args!.object as CreateClinicalEligibilityDto) <= MAX_CLINICAL_DOCUMENTS,
      defaultMessage: () =>
        `must keep the request within ${MAX_CLINICAL_DOCUMENTS} documents (patient.insurance and evidence assets together)`,
    },
  });
}

function countDocuments(request: CreateClinicalEligibilityDto): number {
  const cards = request.patient?.insurance;
  const evidence: unknown[] = Array.isArray(request.evidence) ? request.evidence : [];
  const assets = evidence.filter((item) => (item as ClinicalEvidenceDto | null)?.asset != null);
  return (Array.isArray(cards) ? cards.length : 0) + assets.length;
}

export class CreateClinicalEligibilityDto {
  @ApiProperty({ type: () => CasePatientDto, description: 'Demographics and insurance card images.' })
  @IsObject()
  @ValidateNested()
  @Type(() => CasePatientDto)
  patient!: CasePatientDto;

  @ApiProperty({ type: () => [ClinicalDrugDto], minItems: 1, maxItems: 10 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ClinicalDrugDto)
  drugs!: ClinicalDrugDto[];

  @ApiProperty({ type: () => [ClinicalDiagnosisDto], minItems: 1, maxItems: 50 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ClinicalDiagnosisDto)
  diagnoses!: ClinicalDiagnosisDto[];

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
    type: () => [ClinicalEvidenceDto],
    maxItems: 100,
    description:
      'Supporting evidence that fits no other field. At most ' +
      `${MAX_CLINICAL_DOCUMENTS} documents per request, patient.insurance and evidence assets together.`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @WithinClinicalDocumentLimit()
  @ValidateNested({ each: true })
  @Type(() => ClinicalEvidenceDto)
  evidence?: ClinicalEvidenceDto[];

  @CaseMetadata({ order_id: 'ord-3003' })
  metadata?: Record<string, string>;
}
