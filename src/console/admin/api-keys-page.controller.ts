import { Body, Get, Inject, Param, Post, Query } from '@nestjs/common';

import { CreateApiKeyDto, ApiKeysService } from '../../auth/auth.module';
import { ApiError } from '../../common/errors';
import { PageNotice } from '../layout';
import { doneNotice } from '../views/markup';
import { API_KEYS_PATH, apiKeysView, EMPTY_KEY_FORM, KeyForm, newApiKeyView } from './api-keys-views';
import { checkAsTheApiDoes, formChoices, formField, refusalNotice } from '../forms';
import { principalOf } from '../console-principal';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

const DONE = { revoked: 'The key was revoked. Requests that send it are refused from now on.' };

/** The specification's account dashboard: the account's API keys, created and revoked by its admins. */
@ConsolePages('api-keys', 'admin')
export class ApiKeysPageController {
  constructor(@Inject(ApiKeysService) private readonly apiKeys: ApiKeysService) {}

  @Get()
  async show(@Page() page: ConsolePage, @Query('done') done?: string): Promise<void> {
    await this.sendKeysPage(page, { notice: doneNotice(DONE, done) });
  }

  @Post()
  async create(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const form = {
      label: formField(body, 'label') ?? '',
      roles: formChoices(body, 'roles'),
      mode: formField(body, 'mode') ?? 'test',
    };
    const checked = await checkAsTheApiDoes(CreateApiKeyDto, form);
    if (!checked.valid) {
      return this.sendKeysPage(page, { form, notice: refusalNotice(checked.messages) }, 400);
    }
    const principal = principalOf(page.req);
    const { key, secret } = await this.apiKeys.create(principal.accountId, checked.value);
    await page.audit('api_key.created', { object: 'api_key', id: key.id });
    page.send(
      {
        title: 'API key created',
        notice: { kind: 'success', text: `The key "${key.label}" was created.` },
        body: newApiKeyView(key, secret),
      },
      201,
    );
  }

  @Post(':id/revoke')
  async revoke(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    const principal = principalOf(page.req);
    const key = await this.apiKeys.revoke(principal.accountId, id);
    if (!key) throw ApiError.notFound('No active API key with this id exists in your account.');
    await page.audit('api_key.revoked', { object: 'api_key', id: key.id });
    page.seeOther(`${API_KEYS_PATH}?done=revoked`);
  }

  private async sendKeysPage(
    page: ConsolePage,
    shown: { form?: KeyForm; notice?: PageNotice },
    status = 200,
  ): Promise<void> {
    const principal = principalOf(page.req);
    const keys = await this.apiKeys.list(principal.accountId);
    const body = apiKeysView(keys, shown.form ?? EMPTY_KEY_FORM, page.csrf());
    page.send({ title: 'API keys', notice: shown.notice, body }, status);
  }
}
