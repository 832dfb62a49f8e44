import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS } from '../../domain/cases/benefit-verification';
import type {
  BenefitVerificationCase,
  BenefitVerificationInput,
} from '../../domain/cases/benefit-verification';
import type { AppConfig } from '../../infrastructure/config/config';
import { submitBenefitVerificationOutcomeUpdate } from '../../workflows/benefit-verification.messages';
import { requestCancellationUpdate } from '../../workflows/case.messages';
import { ApiDecisionConflict } from '../app/openapi';
import { APP_CONFIG } from '../app/tokens';
import { Audited } from '../audit/audited.decorator';
import type { Principal } from '../auth/accounts.repository';
import { CurrentPrincipal, RequiresRole } from '../auth/auth.decorators';
import { success } from '../common/envelope';
import {
  casePatient,
  incomingDocuments,
  newCaseRecord,
  plain,
  requestDocuments,
} from './case-request-mapping';
import {
  BenefitVerificationOutcomeDto,
  CancelCaseDto,
  CreateBenefitVerificationDto,
  ListCasesQueryDto,
} from './case-requests.dto';
import { CaseTypeSpec, CasesService } from './cases.service';
import { IdempotencyKeyHeader } from './idempotency-key';
import { timingsOf } from './prior-authorization.controller';

export const BENEFIT_VERIFICATION: CaseTypeSpec = {
  object: 'benefit_verification',
  idKind: 'benefitVerification',
  workflowType: 'benefitVerificationWorkflow',
  path: '/benefit-verification',
};

@ApiTags('benefit verification')
@ApiBearerAuth()
@Controller('benefit-verification')
export class BenefitVerificationController {
  constructor(
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @RequiresRole('provider')
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @Audited('case.created', 'benefit_verification')
  @ApiOperation({ summary: 'Run a benefit verification; it starts in processing' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateBenefitVerificationDto,
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const request = plain(body);
    const created = await this.cases.create<BenefitVerificationInput>({
      spec: BENEFIT_VERIFICATION,
      principal,
      rawBody: req.body,
      idempotencyKey,
      patientInternalId: request.patient.internal_id,
      documents: incomingDocuments(request),
      buildInput: (caseId, documents, now) => {
        const record: BenefitVerificationCase = {
          ...newCaseRecord(
            'benefit_verification',
            caseId,
            now,
            BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS.processing,
            request.metadata ?? {},
          ),
          error: null,
          request: {
            patient: casePatient(request.patient, documents),
            drugs: request.drugs,
            provider: request.provider,
            insurance: requestDocuments(documents),
            insurance_content: request.insurance_content ?? null,
            diagnoses: request.diagnoses ?? [],
            mock_result: request.mock_result ?? null,
          },
        };
        return { case: record, accountId: principal.accountId, timings: timingsOf(this.config) };
      },
    });
    if (created.replayed) res.setHeader('Idempotent-Replayed', 'true');
    return success(created.case);
  }

  @Get()
  @Audited('case.listed', 'benefit_verification')
  @ApiOperation({ summary: "List the account's benefit verifications, newest first" })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListCasesQueryDto) {
    return success(await this.cases.list(principal, BENEFIT_VERIFICATION, query));
  }

  @Get(':id')
  @Audited('case.read', 'benefit_verification')
  @ApiOperation({ summary: 'Get a benefit verification' })
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.cases.get(principal, BENEFIT_VERIFICATION, id));
  }

  @Post(':id/outcome')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('reviewer')
  @Audited('case.outcome_recorded', 'benefit_verification')
  @ApiOperation({ summary: 'Record the manual verification result (status awaiting_review)' })
  async outcome(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: BenefitVerificationOutcomeDto,
  ) {
    return success(
      await this.cases.decide(
        principal,
        BENEFIT_VERIFICATION,
        id,
        submitBenefitVerificationOutcomeUpdate,
        plain(body),
      ),
    );
  }

  @Post(':id/cancel')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('provider')
  @Audited('case.cancelled', 'benefit_verification')
  @ApiOperation({ summary: 'Cancel a benefit verification that is not final yet' })
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CancelCaseDto,
  ) {
    return success(
      await this.cases.decide(principal, BENEFIT_VERIFICATION, id, requestCancellationUpdate, plain(body)),
    );
  }
}
