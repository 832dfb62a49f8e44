import { Body, Get, HttpCode, Inject, Param, Patch, Query, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiOperation } from '@nestjs/swagger';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { actorOf } from '../common/actor';
import { ApiController } from '../common/api-controller';
import { success } from '../common/envelope';
import type { ContextualRequest } from '../common/request-context';
import { Audited } from '../common/audited.decorator';
import { CurrentPrincipal } from '../common/route-access';
import { Answers, AnswersList } from '../contract/answers';
import { IdempotentPost } from '../idempotency/idempotency.module';
import {
  CreateProviderAuthorizationDto,
  ListProviderAuthorizationsQuery,
  UpdateAccountSettingsDto,
} from './provider-authorizations.dto';
import { ProviderAuthorizationsService } from './provider-authorizations.service';
import { requestOrigin } from './request-origin';

/** Prescribers' authorizations of the account (contract section 13). */
@ApiController('provider-authorizations', { role: 'provider' })
export class ProviderAuthorizationsController {
  constructor(
    @Inject(ProviderAuthorizationsService) private readonly authorizations: ProviderAuthorizationsService,
  ) {}

  @IdempotentPost()
  @ApiOperation({
    summary: 'Ask a prescriber to authorize the account; they are mailed a signing link',
    description:
      'The NPI is checked against the NPI registry (NPPES in live mode, the sandbox registry in test mode): ' +
      'an NPI it does not know, lists as deactivated or as an organization answers 400 `validation_error` on `npi`, ' +
      'a name that does not match its record 400 on `first_name` and `last_name` (the record is never echoed), ' +
      'and a registry that cannot be reached 503 `registry_unavailable` with Retry-After; nothing is created then. ' +
      'Each change of the authorization is a `provider_authorization.updated` event.',
  })
  @ApiConflictResponse({
    description:
      'The NPI already has a pending authorization, or a signed one not yet due for renewal, in this account and mode; the message names it (`invalid_state`). Or the Idempotency-Key conflicts (`idempotency_conflict`).',
  })
  @Answers('ProviderAuthorization')
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateProviderAuthorizationDto,
    @Req() req: ContextualRequest,
  ) {
    return success(
      await this.authorizations.create(principal, body, actorOf(req.context), {
        requestId: req.context.requestId,
        clientAddress: requestOrigin(req).address,
      }),
    );
  }

  @Get()
  @ApiOperation({ summary: "List the account's provider authorizations, newest first" })
  @AnswersList('ProviderAuthorization')
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListProviderAuthorizationsQuery) {
    return success(await this.authorizations.list(principal, query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a provider authorization' })
  @Answers('ProviderAuthorization')
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return success(await this.authorizations.get(principal, id));
  }

  @IdempotentPost(':id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a pending or signed provider authorization' })
  @ApiConflictResponse({
    description: 'The authorization has expired or was revoked already (`invalid_state`).',
  })
  @Answers('ProviderAuthorization')
  async revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Req() req: ContextualRequest,
  ) {
    return success(
      await this.authorizations.revoke(principal, id, actorOf(req.context), req.context.requestId),
    );
  }
}

/** The account's settings of provider authorizations, for its admins. */
@ApiController('account-settings', { role: 'admin' })
export class AccountSettingsController {
  constructor(
    @Inject(ProviderAuthorizationsService) private readonly authorizations: ProviderAuthorizationsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The account's settings: enforcement of provider authorizations per mode, and their period",
  })
  @Answers('AccountSettings')
  async get(@CurrentPrincipal() principal: Principal) {
    return success({
      object: 'account_settings' as const,
      ...(await this.authorizations.accountSettings(principal)),
    });
  }

  @Patch()
  @Audited('account_settings.updated', 'account_settings')
  @ApiOperation({ summary: "Change the account's settings; fields left out keep their values" })
  @Answers('AccountSettings')
  async update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateAccountSettingsDto) {
    return success({
      object: 'account_settings' as const,
      ...(await this.authorizations.updateAccountSettings(principal, body)),
    });
  }
}
