import { CONNECTOR_KINDS, ConnectorKind } from '../../domain/connectors/connector-kinds';
import {
  ConnectorAuth,
  ConnectorAuthType,
  ConnectorSettings,
  CoverageRequirementsConnectorSettings,
  EligibilityConnectorSettings,
  EligibilityFormat,
  EndpointConnectorSettings,
  InterchangeUsage,
  MailConnectorSettings,
  mailServerOf,
  mailServerUrl,
  MailSecurity,
  MAX_INTERCHANGE_CONTROL_NUMBER,
  PrivateJwk,
} from '../../domain/connectors/connector-settings';
import { ConnectorError } from '../../domain/failures';
import { newId } from '../../domain/ids';
import { SecretBox } from '../crypto/aes-gcm';
import type { Database, QueryRunner } from '../storage/database';
import { secretHint } from '../webhooks/webhook-endpoints.repository';
import { generateSigningKey, jwksUrlOf, newJwksId, PublishedJwk } from './connector-signing-keys';

/** The public face of a connector's settings: never its secret, only a hint of it. */
export interface Connector {
  id: string;
  object: 'connector';
  kind: ConnectorKind;
  url: string;
  /** Eligibility only; null for the other kinds, as are submitter_id, receiver_id and usage. */
  format: EligibilityFormat | null;
  /** Null for coverage_requirements, which authenticates with a JWT it signs for each call instead. */
  auth: ConnectorAuthView | null;
  submitter_id: string | null;
  receiver_id: string | null;
  usage: InterchangeUsage | null;
  /** coverage_requirements only: the JWTs' `iss` and `sub`, as the payer registered the account. */
  client_id: string | null;
  /** coverage_requirements only: the public side of its signing keys. */
  signing: ConnectorSigningView | null;
  /** mail only: the SMTP server (also named by `url`, `smtps://` or `smtp://` with STARTTLS) and the sender. */
  mail: MailConnectorView | null;
  timeout_ms: number;
  created_at: string;
  updated_at: string;
}

export interface ConnectorAuthView {
  type: ConnectorAuthType;
  /** The secret's last characters (password, token or header value); null without a secret. */
  hint: string | null;
  /** Basic authentication's user name, which is not a secret. */
  username?: string;
  /** The header a `header` secret travels in. */
  header_name?: string;
}

/** What anyone may know of a connector's signing keys: where they are published, and their ids. */
export interface ConnectorSigningView {
  /** The JWKS URL: the payer fetches the public keys there (each JWT names it as `jku`). */
  jwks_url: string;
  /** The key that signs from now on. */
  kid: string;
  /** The key the last rotation replaced, still published so JWTs it signed verify; null before any rotation. */
  previous_kid: string | null;
  rotated_at: string | null;
}

export interface MailConnectorView {
  host: string;
  port: number;
  security: MailSecurity;
  from: string;
  /** The PEM certificate the server's must chain to instead of the public authorities; null: those. */
  ca_certificate: string | null;
}

/** Authentication as an admin sets it: a secret left out keeps the stored one of the same type. */
export type ConnectorAuthInput =
  | { type: 'none' }
  | { type: 'basic'; username: string; password?: string }
  | { type: 'bearer'; token?: string }
  | { type: 'header'; name: string; value?: string };

type WithAuthInput<Settings> = Omit<Settings, 'auth'> & { auth: ConnectorAuthInput };
/** The service generates a coverage requirements connector's keys; an admin never hands one in. */
type CoverageRequirementsInput = Omit<CoverageRequirementsConnectorSettings, 'signingKey' | 'jwksUrl'>;
/** A mail server's credentials are optional, and only a user name and password. */
type MailInput = Omit<MailConnectorSettings, 'auth'> & {
  auth: Extract<ConnectorAuthInput, { type: 'none' | 'basic' }>;
};
export type ConnectorSettingsInput =
  | WithAuthInput<EligibilityConnectorSettings>
  | WithAuthInput<EndpointConnectorSettings>
  | CoverageRequirementsInput
  | MailInput;

/** The field of `auth` that holds each type's secret. */
export const SECRET_FIELD = { basic: 'password', bearer: 'token', header: 'value' } as const;

/**
 * A connector set without its secret, where no stored one may be kept: none of that auth type, or
 * one that went to another origin, user or header.
 */
export class MissingConnectorSecretError extends Error {
  constructor(readonly field: (typeof SECRET_FIELD)[keyof typeof SECRET_FIELD]) {
    super(
      `auth.${field} is required: a stored ${field} is kept only for the same authentication type, ` +
        'user or header name, and URL origin',
    );
    this.name = 'MissingConnectorSecretError';
  }
}

/**
 * A coverage requirements connector set where the service's public address is not configured: the
 * payer could not be told where to fetch its keys.
 */
export class NoPublicApiUrlError extends Error {
  constructor() {
    super('PUBLIC_API_URL is not configured, so no JWKS URL can be published');
    this.name = 'NoPublicApiUrlError';
  }
}

/** Four characters of a short secret would give too much of it away. */
const SHORTEST_HINTED_SECRET = 12;

export function connectorSecretHint(secret: string): string {
  return secret.length >= SHORTEST_HINTED_SECRET ? secretHint(secret) : '…';
}

/** A stored row as `list` and `find` read it: the view's fields, with authentication and keys in columns. */
type Row = Omit<Connector, 'object' | 'auth' | 'signing' | 'mail'> & {
  auth_type: ConnectorAuthType | null;
  auth_username: string | null;
  auth_header_name: string | null;
  auth_secret_hint: string | null;
  jwks_id: string | null;
  signing_kid: string | null;
  previous_signing_kid: string | null;
  signing_key_rotated_at: string | null;
  mail_from: string | null;
  tls_ca: string | null;
};

const COLUMNS = `id, kind, url, format, auth_type, auth_username, auth_header_name, auth_secret_hint,
  submitter_id, receiver_id, usage, client_id, jwks_id, signing_kid, previous_signing_kid,
  signing_key_rotated_at, mail_from, tls_ca, timeout_ms, created_at, updated_at`;

/**
 * An account's connector settings. Reads for people (`list`, `find`) carry no secret; `readForUse`
 * opens the sealed secret or signing key for the one caller that uses it, the worker's connector.
 */
export class ConnectorSettingsRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
    /** Where the API is reached from outside (PUBLIC_API_URL), which JWKS URLs are under. */
    private readonly publicApiUrl?: string,
  ) {}

  /** The configured connectors, in the order of CONNECTOR_KINDS. */
  async list(accountId: string): Promise<Connector[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM connector_settings WHERE account_id = $1 AND deleted_at IS NULL`,
      [accountId],
    );
    return rows
      .sort((a, b) => CONNECTOR_KINDS.indexOf(a.kind) - CONNECTOR_KINDS.indexOf(b.kind))
      .map((row) => this.viewOf(row));
  }

  async find(accountId: string, kind: ConnectorKind): Promise<Connector | undefined> {
    const [row] = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM connector_settings WHERE account_id = $1 AND kind = $2 AND deleted_at IS NULL`,
      [accountId, kind],
    );
    return row && this.viewOf(row);
  }

  async isConfigured(accountId: string, kind: ConnectorKind): Promise<boolean> {
    return (await this.find(accountId, kind)) !== undefined;
  }

  /**
   * Creates or replaces the settings of one kind. The secret is sealed; left out, the stored one is
   * kept if it belongs to the same authentication type, else MissingConnectorSecretError. A new
   * coverage requirements connector gets a signing key and a JWKS URL; a replaced one keeps both, as
   * the payer has registered them.
   */
  async put(accountId: string, input: ConnectorSettingsInput): Promise<Connector> {
    if (input.kind === 'coverage_requirements' && !this.publicApiUrl) throw new NoPublicApiUrlError();
    const auth = input.kind === 'coverage_requirements' ? undefined : input.auth;
    // Made before it is known whether a stored key stays; generating one takes about a millisecond.
    const key = input.kind === 'coverage_requirements' ? await generateSigningKey() : undefined;
    const mail = input.kind === 'mail' ? input : undefined;
    const url = mail ? mailServerUrl(mail.host, mail.port, mail.security) : (input as { url: string }).url;
    return this.db.transaction(async (tx) => {
      const secret = auth && (await this.secretToStore(tx, accountId, input.kind, url, auth));
      const eligibility = input.kind === 'eligibility' ? input : undefined;
      const [row] = await tx.query<Row>(
        `INSERT INTO connector_settings (id, account_id, kind, url, format, auth_type, auth_username,
           auth_header_name, auth_secret_sealed, auth_secret_hint, submitter_id, receiver_id, usage, timeout_ms,
           client_id, jwks_id, signing_kid, signing_key_sealed, signing_public_jwk, mail_from, tls_ca)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19::jsonb,
           $20, $21)
         ON CONFLICT (account_id, kind) DO UPDATE SET
           url = EXCLUDED.url,
           format = EXCLUDED.format,
           auth_type = EXCLUDED.auth_type,
           auth_username = EXCLUDED.auth_username,
           auth_header_name = EXCLUDED.auth_header_name,
           auth_secret_sealed = EXCLUDED.auth_secret_sealed,
           auth_secret_hint = EXCLUDED.auth_secret_hint,
           submitter_id = EXCLUDED.submitter_id,
           receiver_id = EXCLUDED.receiver_id,
           usage = EXCLUDED.usage,
           timeout_ms = EXCLUDED.timeout_ms,
           client_id = EXCLUDED.client_id,
           mail_from = EXCLUDED.mail_from,
           tls_ca = EXCLUDED.tls_ca,
           jwks_id = COALESCE(connector_settings.jwks_id, EXCLUDED.jwks_id),
           signing_kid = COALESCE(connector_settings.signing_kid, EXCLUDED.signing_kid),
           signing_key_sealed = COALESCE(connector_settings.signing_key_sealed, EXCLUDED.signing_key_sealed),
           signing_public_jwk = COALESCE(connector_settings.signing_public_jwk, EXCLUDED.signing_public_jwk),
           created_at = CASE WHEN connector_settings.deleted_at IS NULL
             THEN connector_settings.created_at ELSE now() END,
           updated_at = now(),
           deleted_at = NULL
         RETURNING ${COLUMNS}`,
        [
          newId('connector'),
          accountId,
          input.kind,
          url,
          eligibility?.format ?? null,
          auth?.type ?? null,
          auth?.type === 'basic' ? auth.username : null,
          auth?.type === 'header' ? auth.name : null,
          secret?.sealed ?? null,
          secret?.hint ?? null,
          eligibility?.submitterId ?? null,
          eligibility?.receiverId ?? null,
          eligibility?.usage ?? null,
          input.timeoutMs,
          input.kind === 'coverage_requirements' ? input.clientId : null,
          key ? newJwksId() : null,
          key?.kid ?? null,
          key ? this.secrets.sealText(JSON.stringify(key.privateJwk)) : null,
          key ? JSON.stringify(key.publicJwk) : null,
          mail?.from ?? null,
          mail?.trustedCa ?? null,
        ],
      );
      return this.viewOf(row!);
    });
  }

  /**
   * Gives the account's coverage requirements connector a new signing key, which signs from then on.
   * The key it replaces stays published until the next rotation, so a JWT signed just before still
   * verifies; its private half is erased now, and the key before it is dropped. Undefined when the
   * account has no such connector.
   */
  /**
   * A new signing key, the current one kept as previous. With `fromKid`, only while that key is still
   * current: a second press of a form that rotated it already changes nothing.
   */
  async rotateSigningKey(accountId: string, fromKid?: string): Promise<Connector | undefined> {
    const key = await generateSigningKey();
    // The right-hand sides read the row as it was, so the current key moves to "previous" in the same step.
    const [row] = await this.db.query<Row>(
      `UPDATE connector_settings SET previous_signing_kid = signing_kid,
         previous_signing_public_jwk = signing_public_jwk, signing_kid = $2, signing_key_sealed = $3,
         signing_public_jwk = $4::jsonb, signing_key_rotated_at = now(), updated_at = now()
       WHERE account_id = $1 AND kind = 'coverage_requirements' AND deleted_at IS NULL
         AND ($5::text IS NULL OR signing_kid = $5)
       RETURNING ${COLUMNS}`,
      [
        accountId,
        key.kid,
        this.secrets.sealText(JSON.stringify(key.privateJwk)),
        JSON.stringify(key.publicJwk),
        fromKid ?? null,
      ],
    );
    return row && this.viewOf(row);
  }

  /**
   * The public keys a JWKS URL serves: the current key, then the previous one if any. Undefined for
   * an id that names no configured connector.
   */
  async publishedKeys(jwksId: string): Promise<PublishedJwk[] | undefined> {
    const [row] = await this.db.query<{
      signing_public_jwk: PublishedJwk;
      previous_signing_public_jwk: PublishedJwk | null;
    }>(
      `SELECT signing_public_jwk, previous_signing_public_jwk FROM connector_settings
       WHERE jwks_id = $1 AND deleted_at IS NULL`,
      [jwksId],
    );
    if (!row) return undefined;
    return [
      row.signing_public_jwk,
      ...(row.previous_signing_public_jwk ? [row.previous_signing_public_jwk] : []),
    ];
  }

  /**
   * Removes the settings and their secret, or signing keys and JWKS URL. The row stays, empty, so
   * that the interchange control numbers go on where they stopped if the connector is configured
   * again. Answers the connector's id, or undefined when none was configured.
   */
  async delete(accountId: string, kind: ConnectorKind): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `UPDATE connector_settings SET url = NULL, format = NULL, auth_type = NULL, auth_username = NULL,
         auth_header_name = NULL, auth_secret_sealed = NULL, auth_secret_hint = NULL, submitter_id = NULL,
         receiver_id = NULL, usage = NULL, timeout_ms = NULL, client_id = NULL, jwks_id = NULL,
         signing_kid = NULL, signing_key_sealed = NULL, signing_public_jwk = NULL, previous_signing_kid = NULL,
         previous_signing_public_jwk = NULL, signing_key_rotated_at = NULL, mail_from = NULL, tls_ca = NULL,
         updated_at = now(), deleted_at = now()
       WHERE account_id = $1 AND kind = $2 AND deleted_at IS NULL RETURNING id`,
      [accountId, kind],
    );
    return row?.id;
  }

  /**
   * The settings with their secret, or a coverage requirements connector's current signing key,
   * opened at the moment of use: for the worker's connector only.
   */
  async readForUse(accountId: string, kind: ConnectorKind): Promise<ConnectorSettings | undefined> {
    const [row] = await this.db.query<
      Row & { auth_secret_sealed: string | null; signing_key_sealed: string | null }
    >(
      `SELECT ${COLUMNS}, auth_secret_sealed, signing_key_sealed FROM connector_settings
       WHERE account_id = $1 AND kind = $2 AND deleted_at IS NULL`,
      [accountId, kind],
    );
    if (!row) return undefined;
    if (row.kind === 'coverage_requirements') {
      if (!this.publicApiUrl)
        throw new ConnectorError(new NoPublicApiUrlError().message, { transient: false });
      return {
        kind: row.kind,
        url: row.url,
        clientId: row.client_id!,
        timeoutMs: row.timeout_ms,
        signingKey: {
          kid: row.signing_kid!,
          privateJwk: JSON.parse(this.secrets.openText(row.signing_key_sealed!)) as PrivateJwk,
        },
        jwksUrl: jwksUrlOf(this.publicApiUrl, row.jwks_id!),
      };
    }
    const secret = row.auth_secret_sealed === null ? '' : this.secrets.openText(row.auth_secret_sealed);
    if (row.kind === 'mail') {
      return {
        kind: row.kind,
        ...mailServerOf(row.url),
        auth:
          row.auth_type === 'basic'
            ? { type: 'basic', username: row.auth_username!, password: secret }
            : { type: 'none' },
        from: row.mail_from!,
        timeoutMs: row.timeout_ms,
        ...(row.tls_ca !== null && { trustedCa: row.tls_ca }),
      };
    }
    const common = { url: row.url, auth: authOf(row, secret), timeoutMs: row.timeout_ms };
    if (row.kind === 'eligibility') {
      return {
        kind: row.kind,
        ...common,
        format: row.format!,
        submitterId: row.submitter_id!,
        receiverId: row.receiver_id!,
        usage: row.usage!,
      };
    }
    return { kind: row.kind, ...common };
  }

  /**
   * The account's CRD service with its current signing key opened, for the activity that calls it;
   * undefined when the account has none.
   */
  async readCoverageRequirementsForUse(
    accountId: string,
  ): Promise<CoverageRequirementsConnectorSettings | undefined> {
    const connector = await this.readForUse(accountId, 'coverage_requirements');
    return connector?.kind === 'coverage_requirements' ? connector : undefined;
  }

  /** The account's SMTP server with its password opened, for the mailer; undefined when it has none. */
  async readMailForUse(accountId: string): Promise<MailConnectorSettings | undefined> {
    const connector = await this.readForUse(accountId, 'mail');
    return connector?.kind === 'mail' ? connector : undefined;
  }

  /**
   * The next ISA13 of the account's eligibility connector: one atomic step per interchange, so two
   * workers never send the same number, starting again at 1 after 999999999.
   */
  async nextControlNumber(accountId: string): Promise<number> {
    const [row] = await this.db.query<{ control_number: number }>(
      `UPDATE connector_settings
       SET control_number = CASE WHEN control_number >= $2 THEN 1 ELSE control_number + 1 END
       WHERE account_id = $1 AND kind = 'eligibility' AND deleted_at IS NULL
       RETURNING control_number`,
      [accountId, MAX_INTERCHANGE_CONTROL_NUMBER],
    );
    if (!row) {
      throw new ConnectorError('No eligibility connector is configured for the account.', {
        transient: false,
      });
    }
    return row.control_number;
  }

  private async secretToStore(
    tx: QueryRunner,
    accountId: string,
    kind: ConnectorKind,
    url: string,
    auth: ConnectorAuthInput,
  ): Promise<{ sealed: string; hint: string } | undefined> {
    if (auth.type === 'none') return undefined;
    const given = auth.type === 'basic' ? auth.password : auth.type === 'bearer' ? auth.token : auth.value;
    if (given !== undefined)
      return { sealed: this.secrets.sealText(given), hint: connectorSecretHint(given) };
    const [stored] = await tx.query<{
      auth_secret_sealed: string;
      auth_secret_hint: string;
      url: string;
      auth_username: string | null;
      auth_header_name: string | null;
    }>(
      `SELECT auth_secret_sealed, auth_secret_hint, url, auth_username, auth_header_name FROM connector_settings
       WHERE account_id = $1 AND kind = $2 AND auth_type = $3 AND deleted_at IS NULL FOR UPDATE`,
      [accountId, kind, auth.type],
    );
    // A kept secret may only go where it went before: otherwise changing the URL would hand the
    // credentials to whoever the new URL names, without ever knowing them.
    const sameTarget =
      stored !== undefined &&
      targetOf(stored.url) === targetOf(url) &&
      stored.auth_username === (auth.type === 'basic' ? auth.username : null) &&
      stored.auth_header_name === (auth.type === 'header' ? auth.name : null);
    if (!sameTarget) throw new MissingConnectorSecretError(SECRET_FIELD[auth.type]);
    return { sealed: stored.auth_secret_sealed, hint: stored.auth_secret_hint };
  }

  private viewOf(row: Row): Connector {
    return {
      id: row.id,
      object: 'connector',
      kind: row.kind,
      url: row.url,
      format: row.format,
      auth: row.auth_type && {
        type: row.auth_type,
        hint: row.auth_secret_hint,
        ...(row.auth_username !== null && { username: row.auth_username }),
        ...(row.auth_header_name !== null && { header_name: row.auth_header_name }),
      },
      submitter_id: row.submitter_id,
      receiver_id: row.receiver_id,
      usage: row.usage,
      client_id: row.client_id,
      signing:
        row.jwks_id === null
          ? null
          : {
              // Without a public address (PUBLIC_API_URL unset since the connector was set) the path alone.
              jwks_url: jwksUrlOf(this.publicApiUrl ?? '', row.jwks_id),
              kid: row.signing_kid!,
              previous_kid: row.previous_signing_kid,
              rotated_at: row.signing_key_rotated_at,
            },
      mail:
        row.kind === 'mail'
          ? { ...mailServerOf(row.url), from: row.mail_from!, ca_certificate: row.tls_ca }
          : null,
      timeout_ms: row.timeout_ms,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}

/**
 * Where a URL's credentials go: its origin, or for an SMTP server (whose scheme has no origin) its
 * scheme, host and port, the scheme saying how the session is secured.
 */
function targetOf(url: string): string {
  const parsed = new URL(url);
  return parsed.origin === 'null' ? `${parsed.protocol}//${parsed.host}` : parsed.origin;
}

function authOf(row: Row, secret: string): ConnectorAuth {
  switch (row.auth_type) {
    case 'none':
      return { type: 'none' };
    case 'basic':
      return { type: 'basic', username: row.auth_username!, password: secret };
    case 'bearer':
      return { type: 'bearer', token: secret };
    case 'header':
      return { type: 'header', name: row.auth_header_name!, value: secret };
    case null:
      throw new Error(`The ${row.kind} connector ${row.id} is stored without authentication`);
  }
}
