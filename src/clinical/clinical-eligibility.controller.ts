import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS } from '../../domain/cases/clinical-eligibility';
import type {
  ClinicalEligibilityCase,
  ClinicalEligibilityInput,
} from '../../domain/cases/clinical-eligibility';
import { Audited } from '../audit/audited.decorator';
import type { Principal } from '../auth/accounts.repository';
import { CurrentPrincipal, RequiresRole } from '../auth/auth.decorators';
import { casePatient, newCaseRecord, plain } from '../cases/case-request-mapping';
import { ListCasesQueryDto } from '../cases/case-requests.dto';
import { CaseTypeSpec, CasesService, IncomingDocument } from '../cases/cases.service';
import { IdempotencyKeyHeader } from '../cases/idempotency-key';
import { success } from '../common/envelope';
import { CreateClinicalEligibilityDto } from './clinical-eligibility.dto';

export const CLINICAL_ELIGIBILITY: CaseTypeSpec = {
  object: 'clinical_eligibility',
  idKind: 'clinicalEligibility',
  workflowType: 'clinicalEligibilityWorkflow',
  path: '/clinical-eligibility',
};

const ASSET_PREFIX = 'evidence_asset_';

@ApiTags('clinical eligibility')
@ApiBearerAuth()
@Controller('clinical-eligibility')
export class ClinicalEligibilityController {
  constructor(@Inject(CasesService) private readonly cases: CasesService) {}

  @Post()
  @RequiresRole('provider')
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @Audited('case.created', 'clinical_eligibility')
  @ApiOperation({
    summary: 'Start a clinical eligibility check for several drugs; answers 201 with clinical_elgibility_id',
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateClinicalEligibilityDto,
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const request = plain(body);
    const documents: IncomingDocument[] = [
      ...(request.patient.insurance ?? []).map((document, index) => ({
        name: `patient_insurance_${index + 1}`,
        base64: document.file_content,
      })),
      ...(request.evidence ?? []).flatMap((item, index) =>
        item.asset ? [{ name: `${ASSET_PREFIX}${index + 1}`, base64: item.asset.fileContent }] : [],
      ),
    ];
    const created = await this.cases.create<ClinicalEligibilityInput>({
      spec: CLINICAL_ELIGIBILITY,
      principal,
      rawBody: req.body,
      idempotencyKey,
      patientInternalId: request.patient.internal_id,
      documents,
      buildInput: (caseId, stored, now) => {
        const record: ClinicalEligibilityCase = {
          ...newCaseRecord(
            'clinical_eligibility',
            caseId,
            now,
            CLINICAL_ELIGIBILITY_STATUS_DESCRIPTIONS.processing,
            request.metadata ?? {},
          ),
          clinical_elgibility_id: caseId,
          request: {
            patient: casePatient(request.patient, stored),
            drugs: request.drugs,
            diagnoses: request.diagnoses,
            questionnaires: request.questionnaires ?? [],
            visit_notes: request.visit_notes ?? [],
            evidence: (request.evidence ?? []).map(({ asset, ...item }, index) => {
              const reference = stored.find((document) => document.name === `${ASSET_PREFIX}${index + 1}`);
              return asset && reference
                ? { ...item, asset: { ...reference, fileType: asset.fileType } }
                : item;
            }),
          },
        };
        return { case: record, accountId: principal.accountId };
      },
    });
    if (created.replayed) res.setHeader('Idempotent-Replayed', 'true');
    const { id, status } = created.case;
    // Contract section 1: the envelope, and the specification's top-level field (spelled exactly so).
    return {
      ...success({ id, clinical_elgibility_id: id, object: 'clinical_eligibility', status }),
      clinical_elgibility_id: id,
    };
  }

  @Get()
  @Audited('case.listed', 'clinical_eligibility')
  @ApiOperation({ summary: "List the account's clinical eligibility checks" })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListCasesQueryDto) {
    return success(await this.cases.list(principal, CLINICAL_ELIGIBILITY, query));
  }

  @Get(':id')
  @Audited('case.read', 'clinical_eligibility')
  @ApiOperation({ summary: 'Get a clinical eligibility check with its per-drug results' })
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.cases.get(principal, CLINICAL_ELIGIBILITY, id));
  }
}
