import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { ACCOUNT_ROLES } from '../../../domain/accounts/roles';
import type { ApiKeyRecord } from '../../../infrastructure/accounts/accounts.repository';
import { KEY_MODES } from '../../../infrastructure/accounts/api-key-secret';
import { CreateApiKeyDto } from '../../auth/api-keys.controller';
import { ApiKeysService } from '../../auth/api-keys.service';
import { RequiresRole } from '../../common/route-access';
import { ApiError } from '../../common/errors';
import { ContextualRequest } from '../../common/request-context';
import { ConsoleAudit } from '../console-audit';
import { Html, html } from '../html';
import { csrfField, sendPage } from '../layout';
import { doneNotice, moment } from '../markup';
import { checkAsTheApiDoes, formChoices, formField, refusalNotice } from './form-input';

const PATH = '/console/api-keys';
const DONE = { revoked: 'The key was revoked. Requests that send it are refused from now on.' };

interface KeyForm {
  label: string;
  roles: string[];
  mode: string;
}

/** The specification's account dashboard: the account's API keys, created and revoked by its admins. */
@ApiExcludeController()
@Controller('console/api-keys')
@RequiresRole('admin')
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
    const principal = (req as ContextualRequest).context.principal!;
    const { key, secret } = await this.apiKeys.create(principal.accountId, checked.value);
    await this.audit.record(req, 'api_key.created', { object: 'api_key', id: key.id });
    sendPage(
      req,
      res,
      {
        title: 'API key created',
        notice: { kind: 'success', text: `The key "${key.label}" was created.` },
        body: html`<section class="card" aria-labelledby="secret-heading">
          <h2 id="secret-heading">Your new API key</h2>
          <p class="notice notice-error">
            Copy this key now and keep it somewhere safe: it will not be shown again. If it is lost, revoke it
            and create another.
          </p>
          <p class="secret" id="api-key-secret">${secret}</p>
          <div class="actions">
            <button type="button" data-copy-from="api-key-secret">Copy</button>
            <a class="button" href="${PATH}">Back to API keys</a>
          </div>
          <dl class="facts">
            <dt>Label</dt>
            <dd>${key.label}</dd>
            <dt>Roles</dt>
            <dd>${key.roles.join(', ')}</dd>
            <dt>Mode</dt>
            <dd>${modeBadge(key)}</dd>
            <dt>Ends in</dt>
            <dd>${key.key_hint}</dd>
          </dl>
        </section>`,
      },
      201,
    );
  }

  @Post(':id/revoke')
  async revoke(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const principal = (req as ContextualRequest).context.principal!;
    const key = await this.apiKeys.revoke(principal.accountId, id);
    if (!key) throw ApiError.notFound('No active API key with this id exists in your account.');
    await this.audit.record(req, 'api_key.revoked', { object: 'api_key', id: key.id });
    res.redirect(303, `${PATH}?done=revoked`);
  }

  private async sendKeysPage(
    req: Request,
    res: Response,
    page: { form?: KeyForm; notice?: { kind: 'success' | 'error'; text: string } },
    status = 200,
  ): Promise<void> {
    const principal = (req as ContextualRequest).context.principal!;
    const keys = await this.apiKeys.list(principal.accountId);
    sendPage(
      req,
      res,
      {
        title: 'API keys',
        notice: page.notice,
        body: html`${keyTable(req, res, keys)} ${creationForm(req, res, page.form)}`,
      },
      status,
    );
  }
}

function keyTable(req: Request, res: Response, keys: ApiKeyRecord[]): Html {
  if (keys.length === 0) return html`<p class="empty">This account has no API keys yet.</p>`;
  return html`<table>
    <caption>
      The account's API keys (secrets are shown only once, when a key is created)
    </caption>
    <thead>
      <tr>
        <th scope="col">Label</th>
        <th scope="col">Roles</th>
        <th scope="col">Mode</th>
        <th scope="col">Ends in</th>
        <th scope="col">Created</th>
        <th scope="col">Last used</th>
        <th scope="col">Status</th>
        <th scope="col">Action</th>
      </tr>
    </thead>
    <tbody>
      ${keys.map(
        (key) =>
          html`<tr>
            <td>${key.label}</td>
            <td>${key.roles.join(', ')}</td>
            <td>${modeBadge(key)}</td>
            <td><code>${key.key_hint}</code></td>
            <td>${moment(key.created_at)}</td>
            <td>${moment(key.last_used_at, 'never')}</td>
            <td>
              ${
                key.revoked_at
                  ? html`<span class="badge badge-bad">revoked</span>`
                  : html`<span class="badge badge-ok">active</span>`
              }
            </td>
            <td>
              ${
                key.revoked_at
                  ? ''
                  : html`<form
                      method="post"
                      action="${PATH}/${key.id}/revoke"
                      data-confirm="Revoke the key ${key.label}? Requests that send it will be refused at once."
                    >
                      ${csrfField(req, res)}
                      <button type="submit" class="danger small">Revoke ${key.label}</button>
                    </form>`
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A live key reaches real payers: its mode is never left for the reader to infer from the prefix. */
function modeBadge(key: ApiKeyRecord): Html {
  return key.livemode
    ? html`<span class="badge badge-warn">live</span>`
    : html`<span class="badge">test</span>`;
}

function creationForm(
  req: Request,
  res: Response,
  form: KeyForm = { label: '', roles: [], mode: 'test' },
): Html {
  return html`<section class="card narrow" aria-labelledby="create-heading">
    <h2 id="create-heading">Create an API key</h2>
    <form method="post" action="${PATH}">
      ${csrfField(req, res)}
      <label for="label">Label</label>
      <input id="label" name="label" type="text" maxlength="100" required value="${form.label}" />
      <fieldset>
        <legend>Roles</legend>
        ${ACCOUNT_ROLES.map(
          (role) =>
            html`<label class="checkbox" for="role-${role}">
              <input
                id="role-${role}"
                name="roles"
                type="checkbox"
                value="${role}"
                ${form.roles.includes(role) ? html`checked` : ''}
              />
              ${role}
            </label>`,
        )}
      </fieldset>
      <fieldset>
        <legend>Mode</legend>
        ${KEY_MODES.map(
          (mode) =>
            html`<label class="checkbox" for="mode-${mode}">
              <input
                id="mode-${mode}"
                name="mode"
                type="radio"
                value="${mode}"
                ${form.mode === mode ? html`checked` : ''}
              />
              ${mode === 'test' ? 'Test: simulated payers, mock results allowed' : 'Live: real payers'}
            </label>`,
        )}
      </fieldset>
      <button type="submit" class="primary">Create API key</button>
    </form>
  </section>`;
}
