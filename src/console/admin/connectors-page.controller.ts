import { Body, Get, Inject, Param, Post, Query } from '@nestjs/common';
import type { Request } from 'express';

import { ConnectorKind } from '../../../domain/connectors/connector-kinds';
import { connectorTimeoutRange } from '../../../domain/connectors/connector-settings';
import { Connector, SECRET_FIELD } from '../../../infrastructure/connectors/connector-settings.repository';
import { ApiError } from '../../common/errors';
import { wholeNumberOrText } from '../../common/validation';
import {
  connectorSettingsDtoFor,
  connectorKindOf,
  ConnectorsService,
} from '../../connectors/connectors.module';
import { PageNotice } from '../layout';
import { doneNotice } from '../views/markup';
import {
  ConnectorForm,
  CONNECTOR_FORM_FIELDS,
  CONNECTORS_PATH,
  connectorsListView,
  connectorView,
  KIND_TITLES,
} from './connectors-views';
import { checkAsTheApiDoes, formField, formText, refusalMessages, refusalNotice } from '../forms';
import { principalOf } from '../console-principal';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

const LIST_DONE = {
  deleted: 'The connector was removed. Live cases that need it are refused until it is set again.',
};
const CONNECTOR_DONE = {
  saved: 'The connector was saved.',
  rotated: 'A new signing key signs from now on; the previous one stays published until the next rotation.',
};

/**
 * The connectors live-mode cases go to, through the same service as the API: its validation, SSRF
 * policy and secret handling apply alike, and each change is audited with the person as the actor.
 */
@ConsolePages('', 'admin')
export class ConnectorsPageController {
  constructor(@Inject(ConnectorsService) private readonly connectors: ConnectorsService) {}

  @Get('connectors')
  async list(@Page() page: ConsolePage, @Query('done') done?: string): Promise<void> {
    const configured = await this.connectors.list(accountOf(page.req));
    page.send({
      title: 'Connectors',
      notice: doneNotice(LIST_DONE, done),
      body: connectorsListView(configured),
    });
  }

  @Get('connectors/:kind')
  async show(
    @Page() page: ConsolePage,
    @Param('kind') kind: string,
    @Query('done') done?: string,
  ): Promise<void> {
    const known = connectorKindOf(kind);
    const connector = await this.connectors.find(accountOf(page.req), known);
    this.sendConnectorPage(page, known, connector, doneNotice(CONNECTOR_DONE, done));
  }

  @Post('connectors/:kind')
  async save(@Page() page: ConsolePage, @Param('kind') kind: string, @Body() body: unknown): Promise<void> {
    const known = connectorKindOf(kind);
    const form = Object.fromEntries(
      CONNECTOR_FORM_FIELDS.map((name) => [name, formField(body, name) ?? '']),
    ) as ConnectorForm;
    const refuse = async (messages: string[]) => {
      const connector = await this.connectors.find(accountOf(page.req), known);
      this.sendConnectorPage(page, known, connector, refusalNotice(messages), form, 400);
    };
    const checked = await checkAsTheApiDoes(
      connectorSettingsDtoFor(known),
      bodyOfForm(known, form, formField(body, 'secret') ?? ''),
    );
    if (!checked.valid) return refuse(checked.messages);
    let connector: Connector;
    try {
      connector = await this.connectors.configure(accountOf(page.req), known, checked.value);
    } catch (error) {
      // invalid_state: a CRD connector where the service has no public address for its keys.
      if (!(error instanceof ApiError) || !['validation_error', 'invalid_state'].includes(error.code)) {
        throw error;
      }
      return refuse(refusalMessages(error));
    }
    await page.audit('connector.configured', {
      object: 'connector',
      id: connector.id,
    });
    page.seeOther(`${CONNECTORS_PATH}/${known}?done=saved`);
  }

  /**
   * The form names the key it showed: pressed twice (or resent), it rotates once, so the key that
   * in-flight JWTs name stays published.
   */
  @Post('connectors/coverage_requirements/rotate-signing-key')
  async rotateSigningKey(@Page() page: ConsolePage): Promise<void> {
    const fromKid = formText(page.req.body, 'from_kid', 200) || undefined;
    const { connector, rotated } = await this.connectors.rotateSigningKey(accountOf(page.req), fromKid);
    if (rotated)
      await page.audit('connector.signing_key_rotated', {
        object: 'connector',
        id: connector.id,
      });
    page.seeOther(`${CONNECTORS_PATH}/coverage_requirements?done=rotated`);
  }

  @Post('connectors/:kind/delete')
  async remove(@Page() page: ConsolePage, @Param('kind') kind: string): Promise<void> {
    const removed = await this.connectors.remove(accountOf(page.req), kind);
    await page.audit('connector.deleted', { object: 'connector', id: removed.id });
    page.seeOther(`${CONNECTORS_PATH}?done=deleted`);
  }

  private sendConnectorPage(
    page: ConsolePage,
    kind: ConnectorKind,
    connector: Connector | undefined,
    notice: PageNotice | undefined,
    form: ConnectorForm = formOf(kind, connector),
    status = 200,
  ): void {
    const body = connectorView({ kind, connector, form, csrf: page.csrf() });
    page.send({ title: `Connector: ${KIND_TITLES[kind]}`, notice, body }, status);
  }
}

function accountOf(req: Request): string {
  return principalOf(req).accountId;
}

function formOf(kind: ConnectorKind, connector: Connector | undefined): ConnectorForm {
  const defaultTimeout = connectorTimeoutRange(kind).default;
  return {
    url: connector?.url ?? '',
    format: connector?.format ?? 'x12',
    auth_type: connector?.auth?.type ?? 'none',
    username: connector?.auth?.username ?? '',
    header_name: connector?.auth?.header_name ?? '',
    submitter_id: connector?.submitter_id ?? '',
    receiver_id: connector?.receiver_id ?? '',
    usage: connector?.usage ?? 'production',
    client_id: connector?.client_id ?? '',
    host: connector?.mail?.host ?? '',
    port: String(connector?.mail?.port ?? 587),
    security: connector?.mail?.security ?? 'starttls',
    from: connector?.mail?.from ?? '',
    ca_certificate: connector?.mail?.ca_certificate ?? '',
    timeout_ms: String(connector?.timeout_ms ?? defaultTimeout),
  };
}

/**
 * The API's body from the form: only the fields of the chosen auth type, and the secret only when
 * typed, so an empty secret field keeps the stored one as leaving it out of a PUT does.
 */
function bodyOfForm(kind: ConnectorKind, form: ConnectorForm, secret: string): Record<string, unknown> {
  const timeout = form.timeout_ms && {
    timeout_ms: wholeNumberOrText(form.timeout_ms),
  };
  if (kind === 'coverage_requirements') return { url: form.url, client_id: form.client_id, ...timeout };
  if (kind === 'mail') {
    return {
      host: form.host,
      port: wholeNumberOrText(form.port),
      security: form.security,
      ...(form.username && { username: form.username }),
      ...(form.username && secret && { password: secret }),
      from: form.from,
      ...(form.ca_certificate.trim() && { ca_certificate: form.ca_certificate.trim() }),
      ...timeout,
    };
  }
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
    ...timeout,
    ...(kind === 'eligibility' && {
      format: form.format,
      submitter_id: form.submitter_id,
      receiver_id: form.receiver_id,
      usage: form.usage,
    }),
  };
}
