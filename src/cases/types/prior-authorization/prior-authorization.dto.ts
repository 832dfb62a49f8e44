import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateBy } from 'class-validator';
import type {
  AnswerValue,
  QuestionnaireAnswerInput,
  QuestionnaireAnswers,
} from '../../../../domain/dtr/questionnaire';
import type { EvidenceItem } from '../../../../domain/cases/case-model';
import {
  PRIOR_AUTH_OUTCOME_RESULTS,
  type PriorAuthInformationAnswers,
  type PriorAuthOutcomeInput,
  type PriorAuthOutcomeResult,
  type ReviewDecisionInput,
} from '../../../../domain/cases/prior-authorization';
import {
  PRIOR_AUTH_MOCK_RESULTS,
  type InformationAnswer,
  type PriorAuthMockResult,
} from '../../../../domain/payers/prior-authorization-exchange';
import {
  MOCK_COVERAGE_REQUIREMENTS,
  type MockCoverageRequirements,
} from '../../../../domain/payers/coverage-requirements';
import {
  Field,
  JsonObjectField,
  NestedArray,
  NestedObject,
  Stack,
  TextField,
} from '../../../common/dto/compose';
import { IsIsoDateTime, OnlyWith, RequiredWhen } from '../../../common/dto/case-validators';
import {
  Identifier,
  LIMITS,
  Notes,
  SandboxMockResult,
  SnakeCaseCode,
  WrittenAt,
} from '../../../common/dto/request-vocabulary';
import {
  MAX_DOCUMENTS,
  DiagnosisDto,
  EvidenceAssetDto,
  EvidenceContent,
  WithinDocumentLimit,
  QuestionnaireDto,
  VisitNoteDto,
  PrescriptionDto,
  MockOutageDto,
  InsuredCaseRequestDto,
  OptionalDate,
} from '../../case-request-parts.dto';

/** Answers to a payer's information request, at most. */
export const MAX_INFORMATION_ANSWERS = 50;

export const URGENCIES = ['standard', 'expedited'] as const;
export type Urgency = (typeof URGENCIES)[number];

export type ReviewDecision = ReviewDecisionInput['decision'];
export const REVIEW_DECISIONS = ['approve', 'reject'] as const satisfies readonly ReviewDecision[];

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

  @EvidenceContent()
  content?: Record<string, unknown>;

  @NestedObject(() => EvidenceAssetDto, {
    optional: true,
    description:
      'A file (a PDF or a scan of a chart note, a lab report): read by the case, page by page, for the criteria. Exactly one of content or asset is required.',
  })
  asset?: EvidenceAssetDto;
}

export class PriorAuthMockResultDto {
  @ApiPropertyOptional({
    enum: PRIOR_AUTH_MOCK_RESULTS,
    description:
      "The simulated payer's answer. `other` with detail_code `more_information_required` (its default) " +
      'pends with an information request, decided once answered; `not_submitted` ends the case failed. ' +
      'Absent: the catalog and the criteria decide.',
  })
  @IsOptional()
  @IsIn(PRIOR_AUTH_MOCK_RESULTS)
  result?: PriorAuthMockResult;

  @ApiPropertyOptional({
    enum: MOCK_COVERAGE_REQUIREMENTS,
    description:
      "What the sandbox payer's CRD service answers before the case is prepared for review (docs/crd.md): " +
      '`no-auth` completes the case approved with detail `prior_auth_not_required`, with no review or ' +
      'submission; `auth-needed` goes on to review; `unavailable` goes on with `fallback_reason` ' +
      '`crd_unavailable`. Independent of `result` and `outage`; absent, the formulary decides.',
  })
  @IsOptional()
  @IsIn(MOCK_COVERAGE_REQUIREMENTS)
  coverage_requirements?: MockCoverageRequirements;

  @SnakeCaseCode({
    example: 'step_therapy_criteria_not_met',
    description: 'The detail of `result`, given only with it.',
  })
  @OnlyWith('result')
  detail_code?: string;

  @NestedObject(() => MockOutageDto, {
    optional: true,
    description:
      'Plays a payer outage before the payer prepares the request (see docs/workflows.md, outages).',
  })
  outage?: MockOutageDto;
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
    maxItems: MAX_INFORMATION_ANSWERS,
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

/** At most this many answers in one call: a questionnaire's items, with room for repeats. */
const MAX_QUESTIONNAIRE_ANSWERS = 200;

export class QuestionnaireAnswerDto implements QuestionnaireAnswerInput {
  @TextField(LIMITS.label, {
    description: "The item's linkId in the payer's Questionnaire (`questionnaire.items[].link_id`).",
    example: 'a1c_at_least_7',
  })
  link_id!: string;

  @ApiProperty({
    description:
      "The answer as the item's type reads it: a boolean; a number (integer, decimal); a string (date " +
      'YYYY-MM-DD, dateTime, time, string, text, url); a coding `{ system, code, display }` (choice, and ' +
      'open-choice, which also takes free text); `{ value, unit }` (quantity); `{ content_type, url, title }` ' +
      '(attachment). A list for a repeating item; null clears the answer. A wrong type is answered 400 ' +
      'naming the link_id.',
    nullable: true,
    oneOf: [
      { type: 'boolean' },
      { type: 'number' },
      { type: 'string' },
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
    example: true,
  })
  @ValidateBy({
    name: 'answerGiven',
    validator: {
      validate: (value: unknown) => value !== undefined,
      defaultMessage: () => 'value is required: the answer, or null to clear it',
    },
  })
  value!: AnswerValue | AnswerValue[] | null;
}

/** Answers to the payer's questionnaire (DTR) while the case awaits review. */
export class QuestionnaireAnswersDto implements QuestionnaireAnswers {
  @NestedArray(() => QuestionnaireAnswerDto, {
    minItems: 1,
    maxItems: MAX_QUESTIONNAIRE_ANSWERS,
    description: "Answers to items of the case's `questionnaire`, by link_id.",
  })
  answers!: QuestionnaireAnswerDto[];

  @TextField(LIMITS.label, {
    optional: true,
    description:
      "Who answered, as the QuestionnaireResponse names the author of answers a person gave; 'API client' when left out.",
    example: 'Reviewer One',
  })
  author?: string;
}
