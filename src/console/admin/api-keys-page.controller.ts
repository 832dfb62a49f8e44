import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import { CreateApiKeyDto, ApiKeysService } from '../../auth/auth.module';
import { ApiError } from '../../common/errors';
import { ConsoleAudit } from '../console-audit';
import { csrfField, PageNotice, sendPage } from '../layout';
import { doneNotice } from '../views/markup';
import { API_KEYS_PATH, apiKeysView, EMPTY_KEY_FORM, KeyForm, newApiKeyView } from './api-keys-views';
import { checkAsTheApiDoes, formChoices, formField, refusalNotice } from '../forms';
import { principalOf } from '../console-principal';
import { ConsolePages } from '../console-pages';

const DONE = { revoked: 'The key was revoked. Requests that send it are refused from now on.' };

/** The specification's account dashboard: the account's API keys, created and revoked by its admins. */
@ConsolePages('api-keys', 'admin')
export class ApiKeysPageController {
  constructor(
    @Inject(ApiKeysService) private readonly apiKeys: ApiKeysService,
    @Inject(ConsoleAudit) private readonly audit: ConsoleAudit,
  ) {}

  @Get()
  async show(@Req() req: Request, @Res() res: Response, @Query('done') done?: string): Promise<void> {
    await this.sendKeysPage(req, res, { notice: doneNotice(DONE, done) });
  }

  @Post()
  async create(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const form = {
      label: formField(body, 'label') ?? '',
      roles: formChoices(body, 'roles'),
      mode: formField(body, 'mode') ?? 'test',
    };
    const checked = await checkAsTheApiDoes(CreateApiKeyDto, form);
    if (!checked.valid) {
      return this.sendKeysPage(req, res, { form, notice: refusalNotice(checked.messages) }, 400);
    }
    const principal = principalOf(req);
    const { key, secret } = await this.apiKeys.create(principal.accountId, checked.value);
    await this.audit.record(req, 'api_key.created', { object: 'api_key', id: key.id });
    sendPage(
      req,
      res,
      {
        title: 'API key created',
        notice: { kind: 'success', text: `The key "${key.label}" was created.` },
        body: newApiKeyView(key, secret),
      },
      201,
    );
  }

  @Post(':id/revoke')
  async revoke(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const principal = principalOf(req);
    const key = await this.apiKeys.revoke(principal.accountId, id);
    if (!key) throw ApiError.notFound('No active API key with this id exists in your account.');
    await this.audit.record(req, 'api_key.revoked', { object: 'api_key', id: key.id });
    res.redirect(303, `${API_KEYS_PATH}?done=revoked`);
  }

  private async sendKeysPage(
    req: Request,
    res: Response,
    page: { form?: KeyForm; notice?: PageNotice },
    status = 200,
  ): Promise<void> {
    const principal = principalOf(req);
    const keys = await this.apiKeys.list(principal.accountId);
    const body = apiKeysView(keys, page.form ?? EMPTY_KEY_FORM, csrfField(req, res));
    sendPage(req, res, { title: 'API keys', notice: page.notice, body }, status);
  }
}
