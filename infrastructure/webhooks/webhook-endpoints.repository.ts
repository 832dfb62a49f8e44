import { newId } from '../../domain/ids';
import type { SubscribableEventType } from '../../domain/webhooks/event-types';
import { SecretBox } from '../crypto/aes-gcm';
import { Database } from '../storage/database';

export type EndpointStatus = 'inactive' | 'activating' | 'active';

/** The public face of an endpoint: never the secret, only a hint of it. */
export interface WebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  account_id: string;
  name: string;
  url: string;
  events: SubscribableEventType[];
  status: EndpointStatus;
  status_reason: string | null;
  secret_hint: string;
  /** The mode of the key that created it: it receives that mode's events only. */
  livemode: boolean;
  /** Its notifications carry only the object's id, object, status and livemode (no PHI). */
  thin: boolean;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, 'webhook_endpoint' AS object, account_id, name, url, events, status, status_reason,
  secret_hint, livemode, thin, created_at, updated_at`;

export function secretHint(secret: string): string {
  return `…${secret.slice(-4)}`;
}

export class WebhookEndpointsRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  async create(input: {
    accountId: string;
    name: string;
    url: string;
    events: SubscribableEventType[];
    secret: string;
    livemode: boolean;
    thin?: boolean;
  }): Promise<WebhookEndpoint> {
    const [endpoint] = await this.db.query<WebhookEndpoint>(
      `INSERT INTO webhook_endpoints (id, account_id, name, url, events, secret_sealed, secret_hint, livemode, thin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [
        newId('webhookEndpoint'),
        input.accountId,
        input.name,
        input.url,
        input.events,
        this.secrets.sealText(input.secret),
        secretHint(input.secret),
        input.livemode,
        input.thin ?? false,
      ],
    );
    return endpoint!;
  }

  /**
   * Scoped to an account, and to a mode, when they are given (operators see every endpoint); deleted
   * endpoints are never found.
   */
  async find(id: string, accountId?: string, livemode?: boolean): Promise<WebhookEndpoint | undefined> {
    const [endpoint] = await this.db.query<WebhookEndpoint>(
      `SELECT ${COLUMNS} FROM webhook_endpoints
       WHERE id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR account_id = $2)
         AND ($3::boolean IS NULL OR livemode = $3)`,
      [id, accountId ?? null, livemode ?? null],
    );
    return endpoint;
  }

  /** The account's endpoints, of one mode when it is given (operators list both). */
  async list(accountId: string, livemode?: boolean): Promise<WebhookEndpoint[]> {
    return this.db.query<WebhookEndpoint>(
      `SELECT ${COLUMNS} FROM webhook_endpoints
       WHERE account_id = $1 AND ($2::boolean IS NULL OR livemode = $2) AND deleted_at IS NULL
       ORDER BY id DESC`,
      [accountId, livemode ?? null],
    );
  }

  async update(
    id: string,
    accountId: string,
    changes: {
      name?: string;
      url?: string;
      events?: SubscribableEventType[];
      secret?: string;
      thin?: boolean;
    },
  ): Promise<WebhookEndpoint | undefined> {
    const [endpoint] = await this.db.query<WebhookEndpoint>(
      `UPDATE webhook_endpoints SET
         name = COALESCE($3, name),
         url = COALESCE($4, url),
         events = COALESCE($5, events),
         secret_sealed = COALESCE($6, secret_sealed),
         secret_hint = COALESCE($7, secret_hint),
         thin = COALESCE($8, thin),
         updated_at = now()
       WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL
       RETURNING ${COLUMNS}`,
      [
        id,
        accountId,
        changes.name ?? null,
        changes.url ?? null,
        changes.events ?? null,
        changes.secret === undefined ? null : this.secrets.sealText(changes.secret),
        changes.secret === undefined ? null : secretHint(changes.secret),
        changes.thin ?? null,
      ],
    );
    return endpoint;
  }

  /**
   * Moves the status; with `onlyFrom`, only when the endpoint is still in that status, so a late
   * activation result cannot override a deactivation that happened meanwhile.
   */
  async setStatus(
    id: string,
    status: EndpointStatus,
    reason: string | null,
    onlyFrom?: EndpointStatus,
  ): Promise<WebhookEndpoint | undefined> {
    const [endpoint] = await this.db.query<WebhookEndpoint>(
      `UPDATE webhook_endpoints SET status = $2, status_reason = $3, updated_at = now()
       WHERE id = $1 AND deleted_at IS NULL AND ($4::text IS NULL OR status = $4)
       RETURNING ${COLUMNS}`,
      [id, status, reason, onlyFrom ?? null],
    );
    return endpoint;
  }

  async softDelete(id: string, accountId: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE webhook_endpoints SET deleted_at = now(), status = 'inactive', updated_at = now()
       WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL RETURNING id`,
      [id, accountId],
    );
    return rows.length > 0;
  }

  /** The signing secret, decrypted at the moment of use (delivery attempts only). */
  async readSecret(id: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM webhook_endpoints WHERE id = $1',
      [id],
    );
    return row ? this.secrets.openText(row.secret_sealed) : undefined;
  }
}
