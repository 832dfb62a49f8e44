import type { EventType } from '../../domain/webhooks/event-types';
import type { NotifiedObject } from '../../domain/webhooks/notified-object';
import { SecretBox } from '../crypto/aes-gcm';
import { Database } from '../storage/database';
import { keysetCursor, KeysetPosition, positionColumn } from '../storage/keyset-cursor';
import type { NotificationBody } from './webhook-deliveries.repository';

/** How long events stay readable through the events API; past it they and their deliveries are deleted. */
export const EVENT_RETENTION_DAYS = 30;

/** An event as `GET /events` shows it: the notification a full endpoint received, with its mode. */
export interface WebhookEvent {
  id: string;
  object: 'event';
  type: EventType;
  title: string;
  description: string;
  created_at: string;
  livemode: boolean;
  data: NotifiedObject;
}

/** Whose events are read: one account, one mode. */
export interface EventScope {
  accountId: string;
  livemode: boolean;
}

/** Both bounds inclusive, as the case lists' are. */
export interface EventFilter {
  type?: EventType;
  createdAfter?: Date;
  createdBefore?: Date;
}

interface EventRow {
  id: string;
  created_at: string;
  livemode: boolean;
  body_sealed: string;
}

const RETAINED = `created_at > now() - interval '${EVENT_RETENTION_DAYS} days'`;

/**
 * Reads the events that publishing recorded (every event, whether or not an endpoint subscribed),
 * and deletes them once they are past retention. Bodies are sealed at rest and opened only for the
 * events a caller is shown.
 */
export class EventsRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  /** Newest first, `limit` at most, after `after` when paging on; the cursor names the last event shown. */
  async list(
    scope: EventScope,
    filter: EventFilter,
    page: { limit: number; after?: KeysetPosition },
  ): Promise<{ events: WebhookEvent[]; nextCursor: string | null }> {
    const rows = await this.db.query<EventRow & { page_position: string }>(
      `SELECT id, created_at, livemode, body_sealed, ${positionColumn('created_at')} AS page_position FROM webhook_events
       WHERE account_id = $1 AND livemode = $2 AND ${RETAINED}
         AND ($3::text IS NULL OR type = $3)
         AND ($4::timestamptz IS NULL OR created_at >= $4)
         AND ($5::timestamptz IS NULL OR created_at <= $5)
         AND ($6::timestamptz IS NULL OR (created_at, id) < ($6::timestamptz, $7::text))
       ORDER BY created_at DESC, id DESC
       LIMIT $8`,
      [
        scope.accountId,
        scope.livemode,
        filter.type ?? null,
        filter.createdAfter?.toISOString() ?? null,
        filter.createdBefore?.toISOString() ?? null,
        page.after?.at ?? null,
        page.after?.id ?? null,
        page.limit + 1,
      ],
    );
    const shown = rows.slice(0, page.limit);
    const last = shown[shown.length - 1];
    return {
      events: shown.map((row) => this.opened(row)),
      nextCursor: rows.length > page.limit && last ? keysetCursor(last.page_position, last.id) : null,
    };
  }

  /** The scope's event, while it is retained. */
  async find(id: string, scope: EventScope): Promise<WebhookEvent | undefined> {
    const [row] = await this.db.query<EventRow>(
      `SELECT id, created_at, livemode, body_sealed FROM webhook_events
       WHERE id = $1 AND account_id = $2 AND livemode = $3 AND ${RETAINED}`,
      [id, scope.accountId, scope.livemode],
    );
    return row && this.opened(row);
  }

  /**
   * Deletes up to `limit` events past retention with their deliveries and every attempt of those,
   * in one transaction; answers how many events went. Concurrent sweepers skip each other's rows.
   */
  async deleteExpired(limit: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const expired = (
        await tx.query<{ id: string }>(
          `SELECT id FROM webhook_events WHERE NOT (${RETAINED})
           ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [limit],
        )
      ).map((row) => row.id);
      if (expired.length === 0) return 0;
      await tx.query(
        `DELETE FROM webhook_delivery_attempts WHERE delivery_id IN
           (SELECT id FROM webhook_deliveries WHERE event_id = ANY ($1))`,
        [expired],
      );
      // Manual retries point at the deliveries they repeat, all of the same event: one statement removes both.
      await tx.query('DELETE FROM webhook_deliveries WHERE event_id = ANY ($1)', [expired]);
      await tx.query('DELETE FROM webhook_events WHERE id = ANY ($1)', [expired]);
      return expired.length;
    });
  }

  private opened(row: EventRow): WebhookEvent {
    const { id, type, title, description, created_at, data } = JSON.parse(
      this.secrets.openText(row.body_sealed),
    ) as NotificationBody;
    // The events API keeps what a full endpoint received, never a thin body.
    return {
      id,
      object: 'event',
      type,
      title,
      description,
      created_at,
      livemode: row.livemode,
      data: data as NotifiedObject,
    };
  }
}
