import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';

import { Audited } from '../audit/audited.decorator';
import { ApiError } from '../common/errors';
import { HasNoControlCharacters } from '../common/validators';
import { success, wholeList } from '../common/envelope';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { AccountsRepository, Principal } from './accounts.repository';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { KEY_MODES, KeyMode } from './api-key-secret';
import { CurrentPrincipal, RequiresRole } from './auth.decorators';
import { ACCOUNT_ROLES, AccountRole } from './roles';
import { requireLiveKeyFor } from './live-data';
import { Answers, AnswersList } from '../contract/answers';

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
@ApiTags('api keys')
@ApiBearerAuth()
@Controller('api-keys')
@RequiresRole('admin')
export class ApiKeysController {
  constructor(
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  @Get()
  @ApiOperation({ summary: "List the account's API keys (secrets are never shown again)" })
  @AnswersList('ApiKey')
  async list(@CurrentPrincipal() principal: Principal) {
    return success(wholeList(await this.accounts.listApiKeys(principal.accountId)));
  }

  @Post()
  @Idempotent()
  @Audited('api_key.created', 'api_key')
  @ApiOperation({ summary: 'Create an API key; its secret is in this response only' })
  @Answers('CreatedApiKey')
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto) {
    if (body.mode === 'live') requireLiveKeyFor(principal, 'Creating a live key');
    const { key, secret } = await this.accounts.createApiKey({ accountId: principal.accountId, ...body });
    return success({ ...key, secret });
  }

  @Delete(':id')
  @HttpCode(200)
  @Audited('api_key.revoked', 'api_key')
  @ApiOperation({ summary: 'Revoke an API key at once' })
  @Answers('ApiKey')
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const target = (await this.accounts.listApiKeys(principal.accountId)).find((key) => key.id === id);
    if (target?.livemode) requireLiveKeyFor(principal, 'Revoking a live key');
    const key = await this.accounts.revokeApiKey(id, principal.accountId);
    if (!key) throw ApiError.notFound('No active API key with this id exists in your account.');
    this.authenticator.forget(key.id);
    return success(key);
  }
}
