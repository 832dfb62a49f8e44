import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import type {
  ManualDrugResult,
  ManualInsuranceCorrection,
} from '../../../../domain/cases/benefit-verification';
import type { PriorAuthRequirement } from '../../../../domain/payers/payer-connector';
import {
  Field,
  FieldOptions,
  NestedArray,
  NestedObject,
  Stack,
  TextField,
} from '../../../common/dto/compose';
import { AtLeastOneOf, RequiredWhen } from '../../../common/dto/case-validators';
import {
  GroupNumber,
  Identifier,
  LIMITS,
  Notes,
  PayerName,
  Quantity,
  RxBin,
  RxCode,
  SandboxBenefitVerificationCase,
  SandboxMockResult,
} from '../../../common/dto/request-vocabulary';
import {
  DiagnosisDto,
  DrugDto,
  MockOutageDto,
  InsuredCaseRequestDto,
  OptionalDate,
} from '../../case-request-parts.dto';

/** Drugs a verification asks about, and so results a manual outcome records, at most. */
export const MAX_DRUGS = 20;

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

export class CreateBenefitVerificationDto extends InsuredCaseRequestDto {
  @NestedArray(() => DrugDto, { minItems: 1, maxItems: MAX_DRUGS })
  drugs!: DrugDto[];

  @NestedArray(() => DiagnosisDto, { optional: true, maxItems: 50 })
  diagnoses?: DiagnosisDto[];

  @SandboxMockResult(() => BenefitVerificationMockResultDto)
  mock_result?: BenefitVerificationMockResultDto;
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
    maxItems: MAX_DRUGS,
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
