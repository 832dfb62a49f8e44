import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';

import {
  CRITERION_ANSWERS,
  FEEDBACK_PARTS,
  FEEDBACK_RATINGS,
  type CriterionExpectation,
  type FeedbackPart,
  type FeedbackRating,
  type NewFeedback,
} from '../../../domain/cases/case-feedback';
import { NestedArray, TextField } from '../../common/dto/compose';
import { IsIsoDateTime } from '../../common/dto/case-validators';
import { LIMITS } from '../../common/dto/request-vocabulary';

/** Criteria one feedback may name: more than any plan asks of one drug. */
const MAX_CRITERIA_PER_FEEDBACK = 100;

export class CriterionExpectationDto implements CriterionExpectation {
  @TextField(LIMITS.label, {
    description: 'A criterion of the case, as its `criteria[].id` names it; any other is answered 400.',
    example: 'metformin_trial',
  })
  id!: string;

  @ApiProperty({
    enum: CRITERION_ANSWERS,
    description: "The answer the reviewer expected, in the words of the case's `criteria[].answer`.",
  })
  @IsIn(CRITERION_ANSWERS)
  expected_answer!: CriterionExpectation['expected_answer'];
}

/** `POST /prior-authorization/{id}/feedback`: how right the case was, and where it went wrong. */
export class GiveFeedbackDto implements NewFeedback {
  @ApiProperty({ enum: FEEDBACK_RATINGS })
  @IsIn(FEEDBACK_RATINGS)
  rating!: FeedbackRating;

  @ApiPropertyOptional({
    enum: FEEDBACK_PARTS,
    isArray: true,
    uniqueItems: true,
    description:
      'The parts of the case the feedback concerns: the plan found, the criteria answers, the documents read, ' +
      'the determination. Each at most once; at least one unless the rating is `correct`.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(FEEDBACK_PARTS.length)
  @ArrayUnique()
  @IsIn(FEEDBACK_PARTS, { each: true })
  parts?: FeedbackPart[];

  @TextField(LIMITS.notes, {
    optional: true,
    description: 'Free text; stored encrypted, never in the audit trail or the report.',
    example: 'The A1c in the lab report was missed.',
  })
  comment?: string;

  @NestedArray(() => CriterionExpectationDto, {
    optional: true,
    maxItems: MAX_CRITERIA_PER_FEEDBACK,
    description: 'Per criterion of the case, the answer the reviewer expected; each criterion at most once.',
  })
  @ArrayUnique((expectation: CriterionExpectationDto) => expectation?.id, {
    message: 'criteria must name each criterion at most once',
  })
  criteria?: CriterionExpectationDto[];
}

/** `GET /prior-authorization-feedback/report`: the period, the last 30 days by default. */
export class FeedbackReportQueryDto {
  @ApiPropertyOptional({
    description:
      'Feedback given at or after this instant (ISO 8601 with a zone); 30 days before `to` by default.',
    example: '2026-11-01T00:00:00Z',
  })
  @IsOptional()
  @IsIsoDateTime({ zone: 'required' })
  from?: string;

  @ApiPropertyOptional({
    description: 'Feedback given before this instant (ISO 8601 with a zone); now by default.',
    example: '2026-12-01T00:00:00Z',
  })
  @IsOptional()
  @IsIsoDateTime({ zone: 'required' })
  to?: string;
}
