import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { CONNECTOR_KINDS, ConnectorKind } from '../../../domain/connectors/connector-kinds';
import {
  CONNECTOR_AUTH_TYPES,
  CONNECTOR_TIMEOUT_MS,
  ELIGIBILITY_FORMATS,
  INTERCHANGE_USAGES,
} from '../../../domain/connectors/connector-settings';
import { Connector, SECRET_FIELD } from '../../../infrastructure/connectors/connector-settings.repository';
import { RequiresRole } from '../../common/route-access';
import { ApiError } from '../../common/errors';
import { ContextualRequest } from '../../common/request-context';
import { connectorSettingsDtoFor } from '../../connectors/connectors.dto';
import { connectorKindOf, ConnectorsService } from '../../connectors/connectors.service';
import { ConsoleAudit } from '../console-audit';
import { Html, html } from '../html';
import { csrfField, sendPage } from '../layout';
import { doneNotice, moment } from '../markup';
import { checkAsTheApiDoes, formField, refusalNotice } from './form-input';

const PATH = '/console/connectors';

const KIND_TITLES: Record<ConnectorKind, string> = {
  eligibility: 'Eligibility clearinghouse (X12 270/271)',
  prior_authorization: 'Prior authorization payer endpoint (Da Vinci PAS)',
  program_enrollment: 'Manufacturer program hub',
};

const LIST_DONE = {
  deleted: 'The connector was removed. Live cases that need it are refused until it is set again.',
};
const CONNECTOR_DONE = { saved: 'The connector was saved.' };

const FORM_FIELDS = [
  'url',
  'format',
  'auth_type',
  'username',
  'header_name',
  'submitter_id',
  'receiver_id',
  'usage',
  'timeout_ms',
] as const;

/** The form's fields as they were sent, so a refused form comes back as it was typed (the secret aside). */
type ConnectorForm = Record<(typeof FORM_FIELDS)[number], string>;

type Notice = { kind: 'success' | 'error'; text: string } | undefined;

/**
 * The connectors live-mode cases go to, through the same service as the API: its validation, SSRF
 * policy and secret handling apply alike, and each change is audited with the person as the actor.
 */
@ApiExcludeController()
@Controller('console')
@RequiresRole('admin')
export class ConnectorsPageController {
  constructor(
    @Inject(ConnectorsService) private readonly connectors: ConnectorsService,
    @Inject(ConsoleAudit) private readonly audit: ConsoleAudit,
  ) {}

  @Get('connectors')
  async list(@Req() req: Request, @Res() res: Response, @Query('done') done?: string): Promise<void> {
    const configured = await this.connectors.list(accountOf(req));
    sendPage(req, res, {
      title: 'Connectors',
      notice: doneNotice(LIST_DONE, done),
      body: html`<p class="hint">
          Live-mode cases go to the connectors configured here; test mode always uses the simulators. A live
          case whose connector is missing is refused.
        </p>
        ${connectorTable(configured)}`,
    });
  }

  @Get('connectors/:kind')
  async show(
    @Req() req: Request,
    @Res() res: Response,
    @Param('kind') kind: string,
    @Query('done') done?: string,
  ): Promise<void> {
    const known = connectorKindOf(kind);
    const connector = (await this.connectors.list(accountOf(req))).find((entry) => entry.kind === known);
    this.sendConnectorPage(req, res, known, connector, doneNotice(CONNECTOR_DONE, done));
  }

  @Post('connectors/:kind')
  async save(
    @Req() req: Request,
    @Res() res: Response,
    @Param('kind') kind: string,
    @Body() body: unknown,
  ): Promise<void> {
    const known = connectorKindOf(kind);
    const form = Object.fromEntries(
      FORM_FIELDS.map((name) => [name, formField(body, name) ?? '']),
    ) as ConnectorForm;
    const refuse = async (messages: string[]) => {
      const connector = (await this.connectors.list(accountOf(req))).find((entry) => entry.kind === known);
      this.sendConnectorPage(req, res, known, connector, refusalNotice(messages), form, 400);
    };
    const checked = await checkAsTheApiDoes(
      connectorSettingsDtoFor(known),
      bodyOfForm(known, form, formField(body, 'secret') ?? ''),
    );
    if (!checked.valid) return refuse(checked.messages);
    let connector: Connector;
    try {
      connector = await this.connectors.configure(accountOf(req), known, checked.value);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'validation_error') throw error;
      return refuse(error.details.map(({ field, issue }) => `${field}: ${issue}`));
    }
    await this.audit.record(req, 'connector.configured', {
      object: 'connector',
      id: connector.id,
    });
    res.redirect(303, `${PATH}/${known}?done=saved`);
  }

  @Post('connectors/:kind/delete')
  async remove(@Req() req: Request, @Res() res: Response, @Param('kind') kind: string): Promise<void> {
    const removed = await this.connectors.remove(accountOf(req), kind);
    await this.audit.record(req, 'connector.deleted', { object: 'connector', id: removed.id });
    res.redirect(303, `${PATH}?done=deleted`);
  }

  private sendConnectorPage(
    req: Request,
    res: Response,
    kind: ConnectorKind,
    connector: Connector | undefined,
    notice: Notice,
    form: ConnectorForm = formOf(connector),
    status = 200,
  ): void {
    const base = `${PATH}/${kind}`;
    sendPage(
      req,
      res,
      {
        title: `Connector: ${KIND_TITLES[kind]}`,
        notice,
        body: html`<section class="card narrow" aria-labelledby="settings-heading">
            <h2 id="settings-heading">${connector ? 'Settings' : 'Set up'}</h2>
            <form method="post" action="${base}">
              ${csrfField(req, res)} ${connectorFields(kind, form, connector?.auth.hint ?? null)}
              <button type="submit" class="primary">Save connector</button>
            </form>
          </section>
          ${
            connector
              ? html`<section class="card narrow" aria-labelledby="delete-heading">
                  <h2 id="delete-heading">Remove</h2>
                  <form
                    method="post"
                    action="${base}/delete"
                    data-confirm="Remove this connector? Live cases that need it are refused until it is set again."
                  >
                    ${csrfField(req, res)}
                    <button type="submit" class="danger">Remove connector</button>
                  </form>
                </section>`
              : ''
          }`,
      },
      status,
    );
  }
}

function accountOf(req: Request): string {
  return (req as ContextualRequest).context.principal!.accountId;
}

function formOf(connector: Connector | undefined): ConnectorForm {
  return {
    url: connector?.url ?? '',
    format: connector?.format ?? 'x12',
    auth_type: connector?.auth.type ?? 'none',
    username: connector?.auth.username ?? '',
    header_name: connector?.auth.header_name ?? '',
    submitter_id: connector?.submitter_id ?? '',
    receiver_id: connector?.receiver_id ?? '',
    usage: connector?.usage ?? 'production',
    timeout_ms: String(connector?.timeout_ms ?? CONNECTOR_TIMEOUT_MS.default),
  };
}

/**
 * The API's body from the form: only the fields of the chosen auth type, and the secret only when
 * typed, so an empty secret field keeps the stored one as leaving it out of a PUT does.
 */
function bodyOfForm(kind: ConnectorKind, form: ConnectorForm, secret: string): Record<string, unknown> {
  const type = form.auth_type;
  const secretField = (SECRET_FIELD as Record<string, string | undefined>)[type];
  return {
    url: form.url,
    auth: {
      type,
      ...(type === 'basic' && { username: form.username }),
      ...(type === 'header' && { name: form.header_name }),
      ...(secretField && secret && { [secretField]: secret }),
    },
    ...(form.timeout_ms && {
      timeout_ms: /^\d+$/.test(form.timeout_ms) ? Number(form.timeout_ms) : form.timeout_ms,
    }),
    ...(kind === 'eligibility' && {
      format: form.format,
      submitter_id: form.submitter_id,
      receiver_id: form.receiver_id,
      usage: form.usage,
    }),
  };
}

function choice(name: string, label: string, options: readonly string[], chosen: string): Html {
  return html`<label for="${name}">${label}</label>
    <select id="${name}" name="${name}">
      ${options.map(
        (option) =>
          html`<option value="${option}" ${option === chosen ? html`selected` : ''}>${option}</option>`,
      )}
    </select>`;
}

function text(name: string, label: string, value: string, extra: Html | '' = ''): Html {
  return html`<label for="${name}">${label}</label>
    <input id="${name}" name="${name}" type="text" value="${value}" ${extra} />`;
}

function connectorFields(kind: ConnectorKind, form: ConnectorForm, hint: string | null): Html {
  return html`<label for="url">URL</label>
    <p class="hint" id="url-hint">https; private, loopback and link-local addresses are refused.</p>
    <input id="url" name="url" type="url" required aria-describedby="url-hint" value="${form.url}" />
    ${choice('auth_type', 'Authentication', CONNECTOR_AUTH_TYPES, form.auth_type)}
    ${text('username', 'User name (basic)', form.username)}
    ${text('header_name', 'Header name (header)', form.header_name)}
    <label for="secret">Password, token or header value</label>
    <p class="hint" id="secret-hint">
      ${hint ? html`Leave empty to keep the current one (ends in ${hint}).` : 'Not needed for authentication none.'}
    </p>
    <input
      id="secret"
      name="secret"
      type="password"
      autocomplete="new-password"
      aria-describedby="secret-hint"
    />
    ${text(
      'timeout_ms',
      `Timeout in milliseconds (${CONNECTOR_TIMEOUT_MS.min}–${CONNECTOR_TIMEOUT_MS.max})`,
      form.timeout_ms,
      html`inputmode="numeric"`,
    )}
    ${
      kind === 'eligibility'
        ? html`${choice('format', 'Format', ELIGIBILITY_FORMATS, form.format)}
          ${text('submitter_id', 'Submitter id (ISA06)', form.submitter_id, html`maxlength="15"`)}
          ${text('receiver_id', 'Receiver id (ISA08)', form.receiver_id, html`maxlength="15"`)}
          ${choice('usage', 'Usage (ISA15)', INTERCHANGE_USAGES, form.usage)}`
        : ''
    }`;
}

function connectorTable(configured: Connector[]): Html {
  return html`<table>
    <caption>
      The account's connectors
    </caption>
    <thead>
      <tr>
        <th scope="col">Connector</th>
        <th scope="col">URL</th>
        <th scope="col">Authentication</th>
        <th scope="col">Updated</th>
      </tr>
    </thead>
    <tbody>
      ${CONNECTOR_KINDS.map((kind) => {
        const connector = configured.find((entry) => entry.kind === kind);
        return html`<tr>
          <td><a href="${PATH}/${kind}">${KIND_TITLES[kind]}</a></td>
          <td>
            ${connector ? html`<code>${connector.url}</code>` : html`<span class="badge badge-bad">not configured</span>`}
          </td>
          <td>
            ${connector ? `${connector.auth.type}${connector.auth.hint ? ` (${connector.auth.hint})` : ''}` : '—'}
          </td>
          <td>${moment(connector?.updated_at ?? null)}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}
