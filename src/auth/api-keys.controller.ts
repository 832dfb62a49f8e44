import { Body, Delete, Get, HttpCode, Inject, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';

import { ACCOUNT_ROLES, AccountRole } from '../../domain/accounts/roles';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { KEY_MODES, KeyMode } from '../../infrastructure/accounts/api-key-secret';
import { ApiController } from '../common/api-controller';
import { Audited } from '../common/audited.decorator';
import { success, wholeList } from '../common/envelope';
import { ApiError } from '../common/errors';
import { HasNoControlCharacters } from '../common/validators';
import { Answers, AnswersList } from '../contract/answers';
import { IdempotentPost } from '../idempotency/idempotency.module';
import { ApiKeysService } from './api-keys.service';
import { CurrentPrincipal } from '../common/route-access';
import { requireLiveKeyFor } from '../common/live-data';

export class CreateApiKeyDto {
  @IsString()
  @Length(1, 100)
  @HasNoControlCharacters()
  label!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(ACCOUNT_ROLES, {
    each: true,
    message:
      `each role must be one of ${ACCOUNT_ROLES.join(', ')}; the platform-wide operator role is ` +
      'granted only by the platform admin CLI (operator-keys:create)',
  })
  roles!: AccountRole[];

  /** Test (the default) runs on the simulators; live reaches the payers through the account's connectors. */
  @IsOptional()
  @IsIn(KEY_MODES)
  mode?: KeyMode;
}

/** An account's own keys, for its admins. Creating accounts is an operator task: see the admin CLI. */
@ApiController('api-keys', { role: 'admin' })
export class ApiKeysController {
  constructor(@Inject(ApiKeysService) private readonly apiKeys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: "List the account's API keys (secrets are never shown again)" })
  @AnswersList('ApiKey')
  async list(@CurrentPrincipal() principal: Principal) {
    return success(wholeList(await this.apiKeys.list(principal.accountId)));
  }

  @IdempotentPost()
  @Audited('api_key.created', 'api_key')
  @ApiOperation({ summary: 'Create an API key; its secret is in this response only' })
  @Answers('CreatedApiKey')
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto) {
    if (body.mode === 'live') requireLiveKeyFor(principal, 'Creating a live key');
    const { key, secret } = await this.apiKeys.create(principal.accountId, body);
    return success({ ...key, secret });
  }

  @Delete(':id')
  @HttpCode(200)
  @Audited('api_key.revoked', 'api_key')
  @ApiOperation({ summary: 'Revoke an API key at once' })
  @Answers('ApiKey')
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const target = await this.apiKeys.find(principal.accountId, id);
    if (target?.livemode) requireLiveKeyFor(principal, 'Revoking a live key');
    const key = await this.apiKeys.revoke(principal.accountId, id);
    if (!key) throw ApiError.notFound('No active API key with this id exists in your account.');
    return success(key);
  }
}
