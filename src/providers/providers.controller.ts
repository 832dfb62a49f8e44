import { Get, Inject, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ApiController } from '../common/api-controller';
import { success } from '../common/envelope';
import { CurrentPrincipal } from '../common/route-access';
import { ProviderLookupService } from './provider-lookup.service';
import { RegistryLookupQueryDto } from './registry-lookup.dto';
import { LOOKUP_ANSWER_SCHEMA } from './registry-record.schema';

/** The NPI registry as the API shows it (docs/providers.md, contract section 13). */
@ApiController('providers', { role: 'provider' })
export class ProvidersController {
  constructor(@Inject(ProviderLookupService) private readonly lookups: ProviderLookupService) {}

  @Get('lookup')
  @ApiOperation({
    summary: 'Look a prescriber up in the NPI registry, by NPI or by last name and state',
    description:
      "Live keys ask the NPPES NPI Registry, test keys the sandbox registry (docs/providers.md). With `npi`, the registry's record; " +
      'with `last_name` and `state`, the individuals of that last name practising in the state, at most 20, `has_more` saying whether the registry holds more. ' +
      'Answers are reused for a day. A registry that cannot be reached answers 503 `registry_unavailable` with Retry-After; ' +
      'a query the registry refuses answers 400 on its fields.',
  })
  @ApiOkResponse({
    description:
      'The record (with `npi`), or a list of records (with `last_name` and `state`), in the success envelope.',
    schema: LOOKUP_ANSWER_SCHEMA as SchemaObject,
  })
  @ApiNotFoundResponse({ description: 'The registry does not return this NPI (`not_found`).' })
  async lookup(@CurrentPrincipal() principal: Principal, @Query() query: RegistryLookupQueryDto) {
    if (query.npi) return success(await this.lookups.byNpi(principal, query.npi));
    return success(await this.lookups.byName(principal, query.last_name!, query.state!));
  }
}
