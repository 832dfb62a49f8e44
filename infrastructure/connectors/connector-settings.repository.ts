import { CONNECTOR_KINDS, ConnectorKind } from '../../domain/connectors/connector-kinds';
import {
  ConnectorAuth,
  ConnectorAuthType,
  ConnectorSettings,
  EligibilityConnectorSettings,
  EligibilityFormat,
  EndpointConnectorSettings,
  InterchangeUsage,
  MAX_INTERCHANGE_CONTROL_NUMBER,
} from '../../domain/connectors/connector-settings';
import { ConnectorError } from '../../domain/failures';
import { newId } from '../../domain/ids';
import { SecretBox } from '../crypto/aes-gcm';
import type { Database, QueryRunner } from '../storage/database';
import { secretHint } from '../webhooks/webhook-endpoints.repository';

/** The public face of a connector's settings: never its secret, only a hint of it. */
export interface Connector {
  id: string;
  object: 'connector';
  kind: ConnectorKind;
  url: string;
  /** Eligibility only; null for the other kinds, as are submitter_id, receiver_id and usage. */
  format: EligibilityFormat | null;
  auth: ConnectorAuthView;
  submitter_id: string | null;
  receiver_id: string | null;
  usage: InterchangeUsage | null;
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

/** Authentication as an admin sets it: a secret left out keeps the stored one of the same type. */
export type ConnectorAuthInput =
  | { type: 'none' }
  | { type: 'basic'; username: string; password?: string }
  | { type: 'bearer'; token?: string }
  | { type: 'header'; name: string; value?: string };

type WithAuthInput<Settings> = Omit<Settings, 'auth'> & { auth: ConnectorAuthInput };
export type ConnectorSettingsInput =
  WithAuthInput<EligibilityConnectorSettings> | WithAuthInput<EndpointConnectorSettings>;

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

/** Four characters of a short secret would give too much of it away. */
const SHORTEST_HINTED_SECRET = 12;

export function connectorSecretHint(secret: string): string {
  return secret.length >= SHORTEST_HINTED_SECRET ? secretHint(secret) : '…';
}

/** A stored row as `list` and `find` read it: the view's fields, with the authentication in columns. */
type Row = Omit<Connector, 'object' | 'auth'> & {
  auth_type: ConnectorAuthType;
  auth_username: string | null;
  auth_header_name: string | null;
  auth_secret_hint: string | null;
};

const COLUMNS = `id, kind, url, format, auth_type, auth_username, auth_header_name, auth_secret_hint,
  submitter_id, receiver_id, usage, timeout_ms, created_at, updated_at`;

/**
 * An account's connector settings. Reads for people (`list`, `find`) carry no secret; `readForUse`
 * opens the sealed secret for the one caller that sends it, the worker's connector.
 */
export class ConnectorSettingsRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  /** The configured connectors, in the order of CONNECTOR_KINDS. */
  async list(accountId: string): Promise<Connector[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM connector_settings WHERE account_id = $1 AND deleted_at IS NULL`,
      [accountId],
    );
    return rows.sort((a, b) => CONNECTOR_KINDS.indexOf(a.kind) - CONNECTOR_KINDS.indexOf(b.kind)).map(viewOf);
  }

  async find(accountId: string, kind: ConnectorKind): Promise<Connector | undefined> {
    const [row] = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM connector_settings WHERE account_id = $1 AND kind = $2 AND deleted_at IS NULL`,
      [accountId, kind],
    );
    return row && viewOf(row);
  }

  async isConfigured(accountId: string, kind: ConnectorKind): Promise<boolean> {
    return (await this.find(accountId, kind)) !== undefined;
  }

  /**
   * Creates or replaces the settings of one kind. The secret is sealed; left out, the stored one is
   * kept if it belongs to the same authentication type, else MissingConnectorSecretError.
   */
  async put(accountId: string, input: ConnectorSettingsInput): Promise<Connector> {
    return this.db.transaction(async (tx) => {
      const secret = await this.secretToStore(tx, accountId, input);
      const { auth } = input;
      const eligibility = input.kind === 'eligibility' ? input : undefined;
      const [row] = await tx.query<Row>(
        `INSERT INTO connector_settings (id, account_id, kind, url, format, auth_type, auth_username,
           auth_header_name, auth_secret_sealed, auth_secret_hint, submitter_id, receiver_id, usage, timeout_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
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
           created_at = CASE WHEN connector_settings.deleted_at IS NULL
             THEN connector_settings.created_at ELSE now() END,
           updated_at = now(),
           deleted_at = NULL
         RETURNING ${COLUMNS}`,
        [
          newId('connector'),
          accountId,
          input.kind,
          input.url,
          eligibility?.format ?? null,
          auth.type,
          auth.type === 'basic' ? auth.username : null,
          auth.type === 'header' ? auth.name : null,
          secret?.sealed ?? null,
          secret?.hint ?? null,
          eligibility?.submitterId ?? null,
          eligibility?.receiverId ?? null,
          eligibility?.usage ?? null,
          input.timeoutMs,
        ],
      );
      return viewOf(row!);
    });
  }

  /**
   * Removes the settings and their secret. The row stays, empty, so that the interchange control
   * numbers go on where they stopped if the connector is configured again. Answers the connector's
   * id, or undefined when none was configured.
   */
  async delete(accountId: string, kind: ConnectorKind): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `UPDATE connector_settings SET url = NULL, format = NULL, auth_type = NULL, auth_username = NULL,
         auth_header_name = NULL, auth_secret_sealed = NULL, auth_secret_hint = NULL, submitter_id = NULL,
         receiver_id = NULL, usage = NULL, timeout_ms = NULL, updated_at = now(), deleted_at = now()
       WHERE account_id = $1 AND kind = $2 AND deleted_at IS NULL RETURNING id`,
      [accountId, kind],
    );
    return row?.id;
  }

  /** The settings with their secret opened, at the moment of use: for the worker's connector only. */
  async readForUse(accountId: string, kind: ConnectorKind): Promise<ConnectorSettings | undefined> {
    const [row] = await this.db.query<Row & { auth_secret_sealed: string | null }>(
      `SELECT ${COLUMNS}, auth_secret_sealed FROM connector_settings
       WHERE account_id = $1 AND kind = $2 AND deleted_at IS NULL`,
      [accountId, kind],
    );
    if (!row) return undefined;
    const secret = row.auth_secret_sealed === null ? '' : this.secrets.openText(row.auth_secret_sealed);
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
    input: ConnectorSettingsInput,
  ): Promise<{ sealed: string; hint: string } | undefined> {
    const { auth } = input;
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
      [accountId, input.kind, auth.type],
    );
    // A kept secret may only go where it went before: otherwise changing the URL would hand the
    // credentials to whoever the new URL names, without ever knowing them.
    const sameTarget =
      stored !== undefined &&
      new URL(stored.url).origin === new URL(input.url).origin &&
      stored.auth_username === (auth.type === 'basic' ? auth.username : null) &&
      stored.auth_header_name === (auth.type === 'header' ? auth.name : null);
    if (!sameTarget) throw new MissingConnectorSecretError(SECRET_FIELD[auth.type]);
    return { sealed: stored.auth_secret_sealed, hint: stored.auth_secret_hint };
  }
}

function viewOf(row: Row): Connector {
  return {
    id: row.id,
    object: 'connector',
    kind: row.kind,
    url: row.url,
    format: row.format,
    auth: {
      type: row.auth_type,
      hint: row.auth_secret_hint,
      ...(row.auth_username !== null && { username: row.auth_username }),
      ...(row.auth_header_name !== null && { header_name: row.auth_header_name }),
    },
    submitter_id: row.submitter_id,
    receiver_id: row.receiver_id,
    usage: row.usage,
    timeout_ms: row.timeout_ms,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
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
  }
}
