import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';

import type { ProgramType } from '../../domain/programs/program-model';
import { ApiController } from '../common/api-controller';
import { success, wholeList } from '../common/envelope';
import { ApiError } from '../common/errors';
import { Answers, AnswersList } from '../contract/answers';
import { shippedSupportPrograms } from '../../infrastructure/catalogs/shipped-catalogs';

const PROGRAM_TYPES: ProgramType[] = [
  'copay_card',
  'patient_assistance',
  'bridge_supply',
  'quick_start',
  'adherence',
  'education',
];

class ListProgramsQueryDto {
  @ApiPropertyOptional({ example: 'Ozempic' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  drug_name?: string;

  @ApiPropertyOptional({ example: 'Novo Nordisk' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  manufacturer?: string;

  @ApiPropertyOptional({ enum: PROGRAM_TYPES })
  @IsOptional()
  @IsIn(PROGRAM_TYPES)
  type?: ProgramType;
}

/** The program lookup the specification mentions: where an enrollment's programId comes from. */
@ApiController('support-programs')
export class SupportProgramsController {
  @Get()
  @AnswersList('SupportProgram')
  @ApiOperation({ summary: 'Find manufacturer support programs by drug, manufacturer or type' })
  list(@Query() query: ListProgramsQueryDto) {
    const programs = shippedSupportPrograms().list(query);
    return success(wholeList(programs));
  }

  @Get(':id')
  @Answers('SupportProgram')
  @ApiOperation({
    summary:
      'Get a support program with its eligibility rules, the patient authorization it requires ' +
      '(patient_authorization_required) and the confirmation its enrollments end in',
  })
  get(@Param('id') id: string) {
    const program = shippedSupportPrograms().find(id);
    if (!program) throw ApiError.notFound('No support program with this id exists.');
    return success(program);
  }
}
