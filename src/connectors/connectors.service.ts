import { CONNECTOR_KINDS, ConnectorKind, isConnectorKind } from '../../domain/connectors/connector-kinds';
import { connectorTimeoutRange } from '../../domain/connectors/connector-settings';
import {
  Connector,
  ConnectorAuthInput,
  ConnectorSettingsInput,
  ConnectorSettingsRepository,
  MissingConnectorSecretError,
  NoPublicApiUrlError,
} from '../../infrastructure/connectors/connector-settings.repository';
import type { PublishedJwk } from '../../infrastructure/connectors/connector-signing-keys';
import type { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { ApiError } from '../common/errors';
import {
  ConnectorAuthDto,
  ConnectorSettingsBody,
  ConnectorSettingsDto,
  CoverageRequirementsConnectorSettingsDto,
  EligibilityConnectorSettingsDto,
  MailConnectorSettingsDto,
  QuestionnaireConnectorSettingsDto,
} from './connectors.dto';

/**
 * An account's connector settings, as the API, the console and the admin CLI manage them: one set
 * of rules, so none of the three can store what another would refuse.
 */
export class ConnectorsService {
  constructor(
    private readonly settings: ConnectorSettingsRepository,
    private readonly policy: WebhookTargetPolicy,
  ) {}

  list(accountId: string): Promise<Connector[]> {
    return this.settings.list(accountId);
  }

  /** The account's connector of this kind, if one is configured. */
  find(accountId: string, kind: string): Promise<Connector | undefined> {
    return this.settings.find(accountId, connectorKindOf(kind));
  }

  async get(accountId: string, kind: string): Promise<Connector> {
    const connector = await this.find(accountId, kind);
    if (!connector) throw notConfigured(connectorKindOf(kind));
    return connector;
  }

  /**
   * Creates or replaces one kind's settings from a body its DTO has validated. The URL (a mail
   * server's host) must pass the SSRF policy now, so a refused target is a 400 for the admin rather
   * than a failed case later.
   */
  async configure(accountId: string, kind: string, body: ConnectorSettingsBody): Promise<Connector> {
    const input = settingsInputOf(connectorKindOf(kind), body);
    const target =
      input.kind === 'mail'
        ? // The policy reads a URL; what it judges is the host, and every SMTP session is encrypted.
          { field: 'host', url: `https://${input.host.includes(':') ? `[${input.host}]` : input.host}/` }
        : { field: 'url', url: input.url };
    const verdict = await this.policy.verify(target.url, { plainHttp: 'allow-listed only' });
    if (!verdict.allowed) {
      throw new ApiError('validation_error', `The connector ${target.field} is refused; see details.`, [
        { field: target.field, issue: `is refused by the SSRF policy: ${verdict.reason}` },
      ]);
    }
    try {
      return await this.settings.put(accountId, input);
    } catch (error) {
      if (error instanceof NoPublicApiUrlError) {
        throw new ApiError(
          'invalid_state',
          'A coverage requirements connector needs the address the payer fetches its keys from, ' +
            'and the service has none configured; the operator sets PUBLIC_API_URL.',
        );
      }
      if (!(error instanceof MissingConnectorSecretError)) throw error;
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        input.kind === 'mail'
          ? {
              field: 'password',
              issue: 'is required: a stored one is kept only for the same user, host, port and security',
            }
          : {
              field: `auth.${error.field}`,
              issue:
                'is required: a stored one is kept only for the same auth type, user or header name and URL origin',
            },
      ]);
    }
  }

  /**
   * A new signing key for the coverage requirements connector, which signs from now on; the one it
   * replaces stays published until the next rotation. With `fromKid` (the console's form names the key it
   * showed), a key rotated since is left alone and the connector answered as it is, with `rotated` false.
   */
  async rotateSigningKey(
    accountId: string,
    fromKid?: string,
  ): Promise<{ connector: Connector; rotated: boolean }> {
    const connector = await this.settings.rotateSigningKey(accountId, fromKid);
    if (connector) return { connector, rotated: true };
    if (fromKid === undefined) throw notConfigured('coverage_requirements');
    return { connector: await this.get(accountId, 'coverage_requirements'), rotated: false };
  }

  /** The public keys a JWKS URL serves; an id that names no connector is a 404 like any other. */
  async publishedKeys(jwksId: string): Promise<PublishedJwk[]> {
    const keys = await this.settings.publishedKeys(jwksId);
    if (!keys) throw ApiError.notFound('No keys are published at this address.');
    return keys;
  }

  async remove(
    accountId: string,
    kind: string,
  ): Promise<{ id: string; object: 'connector'; kind: ConnectorKind; deleted: true }> {
    const known = connectorKindOf(kind);
    const id = await this.settings.delete(accountId, known);
    if (!id) throw notConfigured(known);
    return { id, object: 'connector', kind: known, deleted: true };
  }
}

/** A path's kind; an unknown one is a path that names nothing (404). */
export function connectorKindOf(kind: string): ConnectorKind {
  if (isConnectorKind(kind)) return kind;
  throw ApiError.notFound(`There is no such connector kind; the kinds are ${CONNECTOR_KINDS.join(', ')}.`);
}

function notConfigured(kind: ConnectorKind): ApiError {
  return ApiError.notFound(`No ${kind} connector is configured for your account.`);
}

function settingsInputOf(kind: ConnectorKind, body: ConnectorSettingsBody): ConnectorSettingsInput {
  // Left out, a time limit is the kind's default.
  const timeoutMs = body.timeout_ms ?? connectorTimeoutRange(kind).default;
  if (kind === 'coverage_requirements') {
    const crd = body as CoverageRequirementsConnectorSettingsDto;
    return { kind, url: crd.url, clientId: crd.client_id, timeoutMs };
  }
  if (kind === 'mail') {
    const mail = body as MailConnectorSettingsDto;
    return {
      kind,
      host: mail.host,
      port: mail.port,
      security: mail.security,
      auth:
        mail.username === undefined
          ? { type: 'none' }
          : { type: 'basic', username: mail.username, password: mail.password },
      from: mail.from,
      timeoutMs,
      ...(mail.ca_certificate !== undefined && { trustedCa: mail.ca_certificate }),
    };
  }
  return endpointInputOf(kind, body as ConnectorSettingsDto, timeoutMs);
}

function endpointInputOf(
  kind: Exclude<ConnectorKind, 'coverage_requirements' | 'mail'>,
  body: ConnectorSettingsDto | QuestionnaireConnectorSettingsDto,
  timeoutMs: number,
): ConnectorSettingsInput {
  const common = { url: body.url, auth: authInputOf(body.auth), timeoutMs };
  if (kind !== 'eligibility') return { kind, ...common };
  const eligibility = body as EligibilityConnectorSettingsDto;
  return {
    kind,
    ...common,
    format: eligibility.format ?? 'x12',
    submitterId: eligibility.submitter_id,
    receiverId: eligibility.receiver_id,
    usage: eligibility.usage ?? 'production',
  };
}

function authInputOf(auth: ConnectorAuthDto): ConnectorAuthInput {
  switch (auth.type) {
    case 'none':
      return { type: 'none' };
    case 'basic':
      return { type: 'basic', username: auth.username!, password: auth.password };
    case 'bearer':
      return { type: 'bearer', token: auth.token };
    case 'header':
      return { type: 'header', name: auth.name!, value: auth.value };
  }
}
