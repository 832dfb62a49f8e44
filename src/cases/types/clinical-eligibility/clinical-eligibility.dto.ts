import { PickType } from '@nestjs/swagger';

import type { ClinicalDiagnosisInput, ClinicalRecord } from '../../../../domain/clinical/clinical-model';
import {
  CasePatientDto,
  DrugDto,
  INSURANCE_ESSENTIALS,
  InsuranceContentDto,
  QuestionnaireDto,
  VisitNoteDto,
  EvidenceAssetDto,
  EvidenceContent,
  MAX_DOCUMENTS,
  WithinDocumentLimit,
} from '../../case-request-parts.dto';
import { AtLeastOneOf, RequiresFieldsUnless } from '../../../common/dto/case-validators';
import { CaseMetadata, Icd10Code, LIMITS, WrittenAt } from '../../../common/dto/request-vocabulary';
import { NestedArray, NestedObject, TextField } from '../../../common/dto/compose';

type ClinicalDrug = ClinicalRecord['drugs'][number];

/** The specification's clinical eligibility drug has a name and no NDC alternative. */
export class ClinicalDrugDto
  extends PickType(DrugDto, ['dosage', 'quantity'] as const)
  implements ClinicalDrug
{
  @TextField(LIMITS.label, { example: 'Semaglutide' })
  name!: string;
}

export class ClinicalDiagnosisDto implements ClinicalDiagnosisInput {
  @AtLeastOneOf(['code', 'description'])
  @Icd10Code({
    required: false,
    description: 'ICD-10-CM code, any letter case; required unless description is given, and wins over it.',
    example: 'E11.9',
  })
  code?: string;

  @TextField(LIMITS.diagnosisDescription, {
    optional: true,
    description: 'Free-text diagnosis; required unless code is given.',
    example: 'Type 2 diabetes mellitus without complications',
  })
  description?: string;
}

export class ClinicalEvidenceDto {
  @WrittenAt('2024-03-01T10:00:00Z')
  date_created!: string;

  @TextField(LIMITS.label, { example: 'Lipid panel' })
  title!: string;

  @EvidenceContent({ example: { ldl_mg_dl: 131 } })
  content?: Record<string, unknown>;

  @NestedObject(() => EvidenceAssetDto, {
    optional: true,
    description: 'A file; exactly one of content or asset is required.',
  })
  asset?: EvidenceAssetDto;
}

export class CreateClinicalEligibilityDto {
  @NestedObject(() => CasePatientDto, { description: 'Demographics and insurance card images.' })
  patient!: CasePatientDto;

  @NestedArray(() => ClinicalDrugDto, { minItems: 1, maxItems: 10 })
  drugs!: ClinicalDrugDto[];

  @NestedArray(() => ClinicalDiagnosisDto, { minItems: 1, maxItems: 50 })
  diagnoses!: ClinicalDiagnosisDto[];

  @NestedArray(() => QuestionnaireDto, { optional: true, maxItems: 20 })
  questionnaires?: QuestionnaireDto[];

  @NestedArray(() => VisitNoteDto, { optional: true, maxItems: 50 })
  visit_notes?: VisitNoteDto[];

  @WithinDocumentLimit()
  @NestedArray(() => ClinicalEvidenceDto, {
    optional: true,
    maxItems: 100,
    description:
      'Supporting evidence that fits no other field. At most ' +
      `${MAX_DOCUMENTS} documents per request, patient.insurance and evidence assets together.`,
  })
  evidence?: ClinicalEvidenceDto[];

  // A check reads no card for its plan, so the discrete data must name payer and member id itself.
  @RequiresFieldsUnless(INSURANCE_ESSENTIALS, [])
  @NestedObject(() => InsuranceContentDto, {
    optional: true,
    description:
      'Discrete insurance card data with payer and member_id, as for benefit verification and prior authorization. When the plan is ' +
      "found in the catalog, its formulary gives each drug's criteria and prior_authorization_required; " +
      "without it, each drug's own criteria apply and prior_authorization_required is what most plans say.",
  })
  insurance_content?: InsuranceContentDto;

  @CaseMetadata({ order_id: 'ord-3003' })
  metadata?: Record<string, string>;
}
