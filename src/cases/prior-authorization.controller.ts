import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS } from '../../domain/cases/prior-authorization';
import type { PriorAuthorizationCase, PriorAuthorizationInput } from '../../domain/cases/prior-authorization';
import type { AppConfig } from '../../infrastructure/config/config';
import { requestCancellationUpdate } from '../../workflows/case.messages';
import {
  submitPriorAuthorizationOutcomeUpdate,
  submitReviewDecisionUpdate,
} from '../../workflows/prior-authorization.messages';
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
  CancelCaseDto,
  CreatePriorAuthorizationDto,
  ListCasesQueryDto,
  PriorAuthOutcomeDto,
  ReviewDecisionDto,
} from './case-requests.dto';
import { CaseTypeSpec, CasesService } from './cases.service';
import { IdempotencyKeyHeader } from './idempotency-key';

export const PRIOR_AUTHORIZATION: CaseTypeSpec = {
  object: 'prior_authorization',
  idKind: 'priorAuthorization',
  workflowType: 'priorAuthorizationWorkflow',
  path: '/prior-authorization',
};

@ApiTags('prior authorization')
@ApiBearerAuth()
@Controller('prior-authorization')
export class PriorAuthorizationController {
  constructor(
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @RequiresRole('provider')
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @Audited('case.created', 'prior_authorization')
  @ApiOperation({ summary: 'Send a prior authorization; it starts in processing' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreatePriorAuthorizationDto,
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const request = plain(body);
    const created = await this.cases.create<PriorAuthorizationInput>({
      spec: PRIOR_AUTHORIZATION,
      principal,
      rawBody: req.body,
      idempotencyKey,
      patientInternalId: request.patient.internal_id,
      documents: incomingDocuments(request),
      buildInput: (caseId, documents, now) => {
        const urgency: 'standard' | 'expedited' = request.urgency ?? 'standard';
        const record: PriorAuthorizationCase = {
          ...newCaseRecord(
            'prior_authorization',
            caseId,
            now,
            PRIOR_AUTHORIZATION_STATUS_DESCRIPTIONS.processing,
            request.metadata ?? {},
          ),
          urgency,
          due_at: new Date(now.getTime() + this.config.cases.dueWithinMs[urgency]).toISOString(),
          overdue: false,
          plan: null,
          coverage: null,
          criteria: [],
          review: null,
          review_reminder_at: null,
          submission: null,
          request: {
            patient: casePatient(request.patient, documents),
            diagnoses: request.diagnoses,
            prescription: request.prescription,
            provider: request.provider,
            insurance: requestDocuments(documents),
            insurance_content: request.insurance_content ?? null,
            evidence: request.evidence ?? [],
            questionnaires: request.questionnaires ?? [],
            visit_notes: request.visit_notes ?? [],
            is_training_data: request.is_training_data ?? false,
            urgency,
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
  @Audited('case.listed', 'prior_authorization')
  @ApiOperation({ summary: "List the account's prior authorizations, newest first" })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListCasesQueryDto) {
    return success(await this.cases.list(principal, PRIOR_AUTHORIZATION, query));
  }

  @Get(':id')
  @Audited('case.read', 'prior_authorization')
  @ApiOperation({ summary: 'Get a prior authorization' })
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.cases.get(principal, PRIOR_AUTHORIZATION, id));
  }

  @Post(':id/review')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('reviewer')
  @Audited('case.decision_recorded', 'prior_authorization')
  @ApiOperation({ summary: 'Approve or reject at clinical review (status awaiting_review)' })
  async review(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: ReviewDecisionDto,
  ) {
    return success(
      await this.cases.decide(principal, PRIOR_AUTHORIZATION, id, submitReviewDecisionUpdate, plain(body)),
    );
  }

  @Post(':id/outcome')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('reviewer')
  @Audited('case.outcome_recorded', 'prior_authorization')
  @ApiOperation({ summary: "Record the payer's determination (status awaiting_outcome)" })
  async outcome(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: PriorAuthOutcomeDto,
  ) {
    return success(
      await this.cases.decide(
        principal,
        PRIOR_AUTHORIZATION,
        id,
        submitPriorAuthorizationOutcomeUpdate,
        plain(body),
      ),
    );
  }

  @Post(':id/cancel')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('provider')
  @Audited('case.cancelled', 'prior_authorization')
  @ApiOperation({ summary: 'Cancel a prior authorization that is not final yet' })
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CancelCaseDto,
  ) {
    return success(
      await this.cases.decide(principal, PRIOR_AUTHORIZATION, id, requestCancellationUpdate, plain(body)),
    );
  }
}

export function timingsOf(config: AppConfig) {
  return {
    reviewReminderMs: config.cases.reviewReminderMs,
    reviewExpiryMs: config.cases.reviewExpiryMs,
    payerPollIntervalMs: config.cases.payerPollIntervalMs,
  };
}
