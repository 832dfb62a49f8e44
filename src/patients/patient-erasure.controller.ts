import { Body, Get, HttpCode, Inject, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ApiController } from '../common/api-controller';
import { Audited } from '../common/audited.decorator';
import { CurrentPrincipal } from '../common/route-access';
import { Identifier } from '../common/dto/request-vocabulary';
import { success } from '../common/envelope';
import { Answers } from '../contract/answers';
import { IdempotentPost } from '../idempotency/idempotency.module';
import { PatientErasureService } from './patient-erasure.service';

export class PatientErasureRequestDto {
  @Identifier({
    description: 'The patient reference your case requests carry (`patient.internal_id`).',
    example: 'patient-0001',
  })
  patient_internal_id!: string;
}

/** Erasure of one patient's data across the account's cases of the caller's mode, for its admins. */
@ApiController('patients', { role: 'admin' })
export class PatientErasureController {
  constructor(@Inject(PatientErasureService) private readonly erasures: PatientErasureService) {}

  @IdempotentPost('erasure')
  @HttpCode(202)
  @Audited('patient.erasure_requested', 'patient_erasure')
  @ApiOperation({
    summary:
      "Erase a patient's data: open cases are cancelled, then every case of the patient is removed; follow it with GET",
  })
  @Answers('PatientErasure')
  async request(@CurrentPrincipal() principal: Principal, @Body() body: PatientErasureRequestDto) {
    return success(await this.erasures.request(principal, body.patient_internal_id));
  }

  @Get('erasures/:id')
  @ApiOperation({ summary: 'A patient erasure: in progress, or completed with the number of cases erased' })
  @Answers('PatientErasure')
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.erasures.get(principal, id));
  }
}
