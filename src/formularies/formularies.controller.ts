import { Body, Delete, Get, HttpCode, Inject, Param, Put, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiParam,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { PAYER_ID_PATTERN } from '../../infrastructure/formularies/formulary-entry';
import { FORMULARY_LIMITS } from '../../infrastructure/formularies/formulary-file';
import { ApiController } from '../common/api-controller';
import { actorOf } from '../common/actor';
import { Audited } from '../common/audited.decorator';
import { CurrentPrincipal } from '../common/route-access';
import { requireLiveKeyFor } from '../common/live-data';
import { success, wholeList } from '../common/envelope';
import { ApiError } from '../common/errors';
import type { ContextualRequest } from '../common/request-context';
import { Answers, AnswersList } from '../contract/answers';
import { FormulariesService } from './formularies.service';

const PAYER_ID_PARAMETER = ApiParam({
  name: 'payer_id',
  description: "The clearinghouse's payer id, as the account's eligibility requests name the payer.",
  schema: { type: 'string', pattern: PAYER_ID_PATTERN.source },
});

/**
 * An account's formularies: the per-drug answers of live benefit verifications, which a 271 cannot
 * give (it answers per service type). Test mode's simulator has its own catalog and never reads them.
 */
@ApiController('formularies', { role: 'admin' })
export class FormulariesController {
  constructor(@Inject(FormulariesService) private readonly formularies: FormulariesService) {}

  @Get()
  @ApiOperation({
    summary: "List the account's formularies: payer id, rows and when and by whom each was loaded",
  })
  @AnswersList('Formulary')
  async list(@CurrentPrincipal() principal: Principal) {
    const formularies = await this.formularies.list(principal.accountId);
    return success(wholeList(formularies));
  }

  @Put(':payer_id')
  @HttpCode(200)
  @Audited('formulary.replaced', 'formulary')
  @PAYER_ID_PARAMETER
  @ApiConsumes('text/csv')
  @ApiBody({
    description:
      `The formulary as CSV with a header row (docs/formularies.md), at most ${FORMULARY_LIMITS.maxRows} rows ` +
      "and 10 MB. It replaces the payer's formulary whole; a file with any problem changes nothing.",
    schema: { type: 'string', format: 'formulary-csv' },
  })
  @ApiUnsupportedMediaTypeResponse({ description: 'The body is not `text/csv` (`unsupported_media_type`).' })
  @ApiOperation({ summary: "Load or replace the account's formulary for a payer" })
  @Answers('Formulary')
  async replace(
    @CurrentPrincipal() principal: Principal,
    @Req() request: ContextualRequest,
    @Param('payer_id') payerId: string,
    @Body() body: unknown,
  ) {
    requireLiveKeyFor(principal, 'Loading a formulary');
    checkPayerId(payerId);
    const csv = typeof body === 'string' ? body : '';
    const loadedBy = actorOf(request.context);
    return success(await this.formularies.replace(principal.accountId, payerId, csv, loadedBy));
  }

  @Delete(':payer_id')
  @Audited('formulary.deleted', 'formulary')
  @PAYER_ID_PARAMETER
  @ApiOperation({ summary: "Delete the account's formulary for a payer; its drugs answer `unknown` again" })
  @Answers('Formulary')
  async remove(@CurrentPrincipal() principal: Principal, @Param('payer_id') payerId: string) {
    requireLiveKeyFor(principal, 'Deleting a formulary');
    checkPayerId(payerId);
    return success(await this.formularies.remove(principal.accountId, payerId));
  }
}

function checkPayerId(payerId: string): void {
  if (!PAYER_ID_PATTERN.test(payerId)) {
    throw new ApiError('validation_error', 'The request is invalid; see details.', [
      {
        field: 'payer_id',
        issue: 'must be 1 to 80 letters, digits, ".", "_" or "-", starting with a letter or digit',
      },
    ]);
  }
}
