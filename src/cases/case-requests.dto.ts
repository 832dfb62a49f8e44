import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import {
  CASE_STATUSES,
  OPERATOR_FAILURE_REASONS,
  type OperatorFailureReason,
  type CaseStatus,
} from '../../domain/cases/case-model';
import { TextField } from '../common/dto/compose';
import { PageCursor, PageLimit, TimeRangeEnd, TimeRangeStart } from '../common/dto/page-query';
import { Identifier, LIMITS } from '../common/dto/request-vocabulary';

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

  @TimeRangeStart({
    description: 'Calendar date or ISO 8601 date-time with a zone.',
    example: '2024-03-01T00:00:00Z',
  })
  created_after?: string;

  @TimeRangeEnd('created_after', {
    description: 'Calendar date or ISO 8601 date-time with a zone; not before created_after.',
    example: '2024-04-01',
  })
  created_before?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}
