import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import {
  MAX_ENROLLMENT_EVIDENCE,
  PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS,
  mergeInformation,
} from '../../domain/cases/patient-enrollment';
import type { PatientEnrollmentCase, PatientEnrollmentInput } from '../../domain/cases/patient-enrollment';
import type { EnrollmentInformation } from '../../domain/programs/enrollment-model';
import { findProgram } from '../../domain/programs/program-catalog';
import type { AppConfig } from '../../infrastructure/config/config';
import { requestCancellationUpdate } from '../../workflows/case.messages';
import {
  awaitScreeningUpdate,
  submitEnrollmentInformationUpdate,
  submitEnrollmentOutcomeUpdate,
} from '../../workflows/patient-enrollment.messages';
import { ApiDecisionConflict } from '../app/openapi';
import { APP_CONFIG } from '../app/tokens';
import { Audited } from '../audit/audited.decorator';
import type { Principal } from '../auth/accounts.repository';
import { CurrentPrincipal, RequiresRole } from '../auth/auth.decorators';
import { newCaseRecord, plain } from '../cases/case-request-mapping';
import { CancelCaseDto, ListCasesQueryDto } from '../cases/case-requests.dto';
import { CaseTypeSpec, CasesService } from '../cases/cases.service';
import { IdempotencyKeyHeader } from '../cases/idempotency-key';
import { timingsOf } from '../cases/prior-authorization.controller';
import { success } from '../common/envelope';
import { ApiError } from '../common/errors';
import {
  CreatePatientEnrollmentDto,
  EnrollmentInformationDto,
  EnrollmentOutcomeDto,
} from './patient-enrollment.dto';

export const PATIENT_ENROLLMENT: CaseTypeSpec = {
  object: 'patient_enrollment',
  idKind: 'patientEnrollment',
  workflowType: 'patientEnrollmentWorkflow',
  path: '/patient-enrollment',
};

/** The program's rules take milliseconds; this bounds the wait when no worker is running. */
const SCREENING_WAIT_MS = 15_000;

@ApiTags('patient enrollment')
@ApiBearerAuth()
@Controller('patient-enrollment')
export class PatientEnrollmentController {
  constructor(
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @RequiresRole('provider')
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @Audited('case.created', 'patient_enrollment')
  @ApiOperation({
    summary:
      "Enroll a patient in a support program. Answers once the program's rules ran: awaiting_outcome " +
      '(submitted), awaiting_review with missing_information (more information needed) or failed (ineligible).',
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreatePatientEnrollmentDto,
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const request = plain(body);
    if (!findProgram(request.programId)) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'programId', issue: 'must name a support program (see GET /support-programs)' },
      ]);
    }
    const created = await this.cases.create<PatientEnrollmentInput>({
      spec: PATIENT_ENROLLMENT,
      principal,
      rawBody: req.body,
      idempotencyKey,
      // The caller's own patient reference, when it gives one, makes the patient filter work.
      patientInternalId:
        request.patient.metadata?.patient_id ?? `unreferenced:${request.metadata?.enrollment_id ?? ''}`,
      documents: [],
      buildInput: (caseId, _documents, now) => {
        const record: PatientEnrollmentCase = {
          ...newCaseRecord(
            'patient_enrollment',
            caseId,
            now,
            PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS.processing,
            request.metadata?.enrollment_id ? { enrollment_id: request.metadata.enrollment_id } : {},
          ),
          program_id: request.programId,
          screening: null,
          missing_information: [],
          submission: null,
          request: {
            patient: request.patient,
            programId: request.programId,
            prescription: request.prescription ?? null,
            evidence: request.evidence ?? [],
          },
        };
        return { case: record, accountId: principal.accountId, timings: timingsOf(this.config) };
      },
    });
    if (created.replayed) res.setHeader('Idempotent-Replayed', 'true');
    const screened = await this.cases.waitFor(
      principal,
      PATIENT_ENROLLMENT,
      created.case.id,
      awaitScreeningUpdate,
      SCREENING_WAIT_MS,
    );
    return success(screened);
  }

  @Get()
  @Audited('case.listed', 'patient_enrollment')
  @ApiOperation({ summary: "List the account's enrollments" })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListCasesQueryDto) {
    return success(await this.cases.list(principal, PATIENT_ENROLLMENT, query));
  }

  @Get(':id')
  @Audited('case.read', 'patient_enrollment')
  @ApiOperation({ summary: 'Get an enrollment' })
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.cases.get(principal, PATIENT_ENROLLMENT, id));
  }

  @Post(':id/information')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('provider')
  @Audited('case.information_provided', 'patient_enrollment')
  @ApiOperation({ summary: 'Send the information the program asked for (status awaiting_review)' })
  async information(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: EnrollmentInformationDto,
  ) {
    const information = plain(body) as EnrollmentInformation;
    return success(
      await this.cases.decide(
        principal,
        PATIENT_ENROLLMENT,
        id,
        submitEnrollmentInformationUpdate,
        information,
        (record) => this.assertInformationFits(record as PatientEnrollmentCase, information),
      ),
    );
  }

  /**
   * The enrollment with the information merged in must stay storable (it is the workflow's state,
   * its memo and the input of a continued run), so growth is refused here with 413 and nothing is
   * sent. A case in another status gets the workflow's own 409.
   */
  private assertInformationFits(record: PatientEnrollmentCase, information: EnrollmentInformation): void {
    if (record.status !== 'awaiting_review') return;
    const evidenceCount = record.request.evidence.length + (information.evidence?.length ?? 0);
    if (evidenceCount > MAX_ENROLLMENT_EVIDENCE) {
      throw new ApiError(
        'payload_too_large',
        `An enrollment holds at most ${MAX_ENROLLMENT_EVIDENCE} evidence items; with this information it would hold ${evidenceCount}.`,
      );
    }
    const merged: PatientEnrollmentCase = {
      ...record,
      request: mergeInformation(record.request, information),
    };
    this.cases.assertStorable(merged);
  }

  @Post(':id/outcome')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('reviewer')
  @Audited('case.outcome_recorded', 'patient_enrollment')
  @ApiOperation({ summary: "Record the program's decision (status awaiting_outcome)" })
  async outcome(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: EnrollmentOutcomeDto,
  ) {
    return success(
      await this.cases.decide(principal, PATIENT_ENROLLMENT, id, submitEnrollmentOutcomeUpdate, plain(body)),
    );
  }

  @Post(':id/cancel')
  @ApiDecisionConflict()
  @HttpCode(200)
  @RequiresRole('provider')
  @Audited('case.cancelled', 'patient_enrollment')
  @ApiOperation({ summary: 'Cancel an enrollment that is not final yet' })
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CancelCaseDto,
  ) {
    return success(
      await this.cases.decide(principal, PATIENT_ENROLLMENT, id, requestCancellationUpdate, plain(body)),
    );
  }
}
