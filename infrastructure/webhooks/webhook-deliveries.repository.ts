import { newId } from '../../domain/ids';
import { EventType, TEST_EVENT_TYPE } from '../../domain/webhooks/event-types';
import type { NotifiedObject, ThinNotifiedObject } from '../../domain/webhooks/notified-object';
import { SecretBox } from '../crypto/aes-gcm';
import { Database, QueryRunner } from '../storage/database';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'abandoned';

/** What a receiver gets as the body of a notification (contract section 6). */
export interface NotificationBody {
  id: string;
  type: EventType;
  title: string;
  description: string;
  created_at: string;
  data: NotifiedObject | ThinNotifiedObject;
}

export interface DeliveryAttempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

export interface WebhookDelivery {
  id: string;
  object: 'webhook_delivery';
  event_id: string;
  event_type: EventType;
  endpoint_id: string;
  retry_of: string | null;
  status: DeliveryStatus;
  /** Its event's mode, which is its endpoint's. */
  livemode: boolean;
  created_at: string;
  completed_at: string | null;
  attempts: DeliveryAttempt[];
}

/** What one delivery attempt needs, read fresh at attempt time. */
export interface DeliveryTarget {
  deliveryId: string;
  status: DeliveryStatus;
  endpointId: string;
  endpointUrl: string;
  endpointStatus: string;
  endpointDeleted: boolean;
  /** The endpoint asks for thin notifications now, whatever it asked when the event was recorded. */
  endpointThin: boolean;
  /** Manual retries and test events are sent even to an endpoint that is not active. */
  requestedByOwner: boolean;
  /** How long a first attempt may still own the delivery (database clock); null once durable. */
  firstAttemptRemainingMs: number | null;
  notification: NotificationBody;
}

/** What publishing an event recorded. */
export interface RecordedEvent {
  /** The event's fan-out deliveries still pending, whichever call recorded them. */
  pendingDeliveryIds: string[];
  /** The deliveries this call recorded: only these get a first attempt, so a repeated publish sends nothing twice. */
  recordedDeliveryIds: string[];
}

/** A delivery of one of a case's events, as the console's case page lists it. */
export interface CaseEventDelivery {
  id: string;
  event_id: string;
  /** The case's status the event announced. */
  case_status: string;
  endpoint_id: string;
  retry_of: string | null;
  status: DeliveryStatus;
  created_at: string;
  completed_at: string | null;
  attempts: number;
}

/** A delivery whose first attempt outlived its time without handing it on: its process died. */
export interface StalledDelivery {
  deliveryId: string;
  attemptsMade: number;
}

export class WebhookDeliveriesRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  async hasEvent(eventId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM webhook_events WHERE id = $1`, [eventId]);
    return rows.length > 0;
  }

  /**
   * Records the event and one delivery for each active endpoint of its account and mode subscribed
   * to its type. Safe to repeat: the event and its fan-out deliveries are written once. With
   * `firstAttemptMs`, the new deliveries belong to a first attempt for that long (see the migration
   * 0005); without it, to the durable path from the start.
   */
  async recordEvent(
    notification: NotificationBody,
    /** `caseId`: the case a case event is about, whose purge deletes the event (migration 0021). */
    owner: { accountId: string; livemode: boolean; caseId?: string },
    options: { onlyEndpointId?: string; firstAttemptMs?: number } = {},
  ): Promise<RecordedEvent> {
    const { onlyEndpointId, firstAttemptMs } = options;
    const { accountId, livemode } = owner;
    return this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO webhook_events (id, account_id, type, body_sealed, created_at, livemode, case_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        [
          notification.id,
          accountId,
          notification.type,
          this.secrets.sealText(JSON.stringify(notification)),
          notification.created_at,
          livemode,
          owner.caseId ?? null,
        ],
      );
      const endpoints = onlyEndpointId
        ? await tx.query<{ id: string }>(
            `SELECT id FROM webhook_endpoints
             WHERE id = $1 AND account_id = $2 AND livemode = $3 AND deleted_at IS NULL`,
            [onlyEndpointId, accountId, livemode],
          )
        : await tx.query<{ id: string }>(
            `SELECT id FROM webhook_endpoints
             WHERE account_id = $1 AND livemode = $2 AND status = 'active' AND deleted_at IS NULL
               AND $3 = ANY (events)`,
            [accountId, livemode, notification.type],
          );
      const recordedDeliveryIds: string[] = [];
      for (const endpoint of endpoints) {
        const inserted = await tx.query<{ id: string }>(
          `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, first_attempt_until)
           VALUES ($1, $2, $3, $4, now() + $5::float8 * interval '1 millisecond')
           ON CONFLICT (event_id, endpoint_id) WHERE retry_of IS NULL DO NOTHING
           RETURNING id`,
          [newId('delivery'), notification.id, endpoint.id, accountId, firstAttemptMs ?? null],
        );
        recordedDeliveryIds.push(...inserted.map((row) => row.id));
      }
      return { pendingDeliveryIds: await this.pendingFanOut(tx, notification.id), recordedDeliveryIds };
    });
  }

  private async pendingFanOut(tx: QueryRunner, eventId: string): Promise<string[]> {
    const rows = await tx.query<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE event_id = $1 AND retry_of IS NULL AND status = 'pending' ORDER BY id`,
      [eventId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * A new delivery of the same event to the same endpoint; the event id, and so the receiver's
   * dedupe key, stay. Its starter owns it for `ownershipMs`; after that the sweeper may start it.
   */
  async createRetry(deliveryId: string, accountId: string, ownershipMs: number): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, retry_of, first_attempt_until)
       SELECT $1, event_id, endpoint_id, account_id, id, now() + $4::float8 * interval '1 millisecond'
       FROM webhook_deliveries WHERE id = $2 AND account_id = $3
       RETURNING id`,
      [newId('delivery'), deliveryId, accountId, ownershipMs],
    );
    return row?.id;
  }

  async findTarget(deliveryId: string): Promise<DeliveryTarget | undefined> {
    const [row] = await this.db.query<{
      status: DeliveryStatus;
      endpoint_id: string;
      url: string;
      endpoint_status: string;
      deleted_at: string | null;
      thin: boolean;
      retry_of: string | null;
      type: string;
      body_sealed: string;
      first_attempt_remaining_ms: number | null;
    }>(
      `SELECT d.status, d.endpoint_id, e.url, e.status AS endpoint_status, e.deleted_at, e.thin, d.retry_of, ev.type,
              ev.body_sealed,
              (EXTRACT(EPOCH FROM d.first_attempt_until - now()) * 1000)::float8 AS first_attempt_remaining_ms
       FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       JOIN webhook_events ev ON ev.id = d.event_id
       WHERE d.id = $1`,
      [deliveryId],
    );
    if (!row) return undefined;
    return {
      deliveryId,
      status: row.status,
      endpointId: row.endpoint_id,
      endpointUrl: row.url,
      endpointStatus: row.endpoint_status,
      endpointDeleted: row.deleted_at !== null,
      endpointThin: row.thin,
      requestedByOwner: row.retry_of !== null || row.type === TEST_EVENT_TYPE,
      firstAttemptRemainingMs: row.first_attempt_remaining_ms,
      notification: JSON.parse(this.secrets.openText(row.body_sealed)) as NotificationBody,
    };
  }

  async recordAttempt(deliveryId: string, attempt: DeliveryAttempt): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, http_status, error, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (delivery_id, attempt) DO UPDATE SET
         started_at = EXCLUDED.started_at, duration_ms = EXCLUDED.duration_ms, http_status = EXCLUDED.http_status,
         error = EXCLUDED.error, next_attempt_at = EXCLUDED.next_attempt_at`,
      [
        deliveryId,
        attempt.attempt,
        attempt.started_at,
        attempt.duration_ms,
        attempt.http_status,
        attempt.error,
        attempt.next_attempt_at,
      ],
    );
  }

  /** The durable path (a delivery workflow) owns the delivery from now on. */
  async handedToDurablePath(deliveryId: string): Promise<void> {
    await this.db.query('UPDATE webhook_deliveries SET first_attempt_until = NULL WHERE id = $1', [
      deliveryId,
    ]);
  }

  /**
   * Claims up to `limit` pending deliveries whose first attempt ran out of time, for `leaseMs`, so
   * that of several sweeping workers one hands each on; if that worker dies too, the claim lapses
   * and another one does.
   */
  async claimStalled(limit: number, leaseMs: number): Promise<StalledDelivery[]> {
    const rows = await this.db.query<{ id: string; attempts_made: number }>(
      `UPDATE webhook_deliveries d SET first_attempt_until = now() + $2::float8 * interval '1 millisecond'
       WHERE d.id IN (
         SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND first_attempt_until < now()
         ORDER BY first_attempt_until LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING d.id,
         (SELECT count(*) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id)::int AS attempts_made`,
      [limit, leaseMs],
    );
    return rows.map((row) => ({ deliveryId: row.id, attemptsMade: row.attempts_made }));
  }

  /**
   * Final statuses are written once: a pending delivery moves on, a finished one stays. Answers
   * whether this call was the one that moved it.
   */
  async complete(deliveryId: string, status: Exclude<DeliveryStatus, 'pending'>): Promise<boolean> {
    const moved = await this.db.query<{ id: string }>(
      `UPDATE webhook_deliveries SET status = $2, completed_at = now()
        WHERE id = $1 AND status = 'pending' RETURNING id`,
      [deliveryId, status],
    );
    return moved.length > 0;
  }

  async listForEndpoint(
    endpointId: string,
    accountId: string,
    page: { limit: number; before?: string },
  ): Promise<{ deliveries: WebhookDelivery[]; hasMore: boolean }> {
    const rows = await this.db.query<Omit<WebhookDelivery, 'attempts'>>(
      `SELECT d.id, 'webhook_delivery' AS object, d.event_id, ev.type AS event_type, d.endpoint_id, d.retry_of,
              d.status, ev.livemode, d.created_at, d.completed_at
       FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
       WHERE d.endpoint_id = $1 AND d.account_id = $2 AND ($3::text IS NULL OR d.id < $3)
       ORDER BY d.id DESC LIMIT $4`,
      [endpointId, accountId, page.before ?? null, page.limit + 1],
    );
    const pageRows = rows.slice(0, page.limit);
    const attempts = pageRows.length
      ? await this.db.query<DeliveryAttempt & { delivery_id: string }>(
          `SELECT delivery_id, attempt, started_at, duration_ms, http_status, error, next_attempt_at
           FROM webhook_delivery_attempts WHERE delivery_id = ANY ($1) ORDER BY attempt`,
          [pageRows.map((row) => row.id)],
        )
      : [];
    return {
      deliveries: pageRows.map((row) => ({
        ...row,
        attempts: attempts
          .filter((attempt) => attempt.delivery_id === row.id)
          .map(({ delivery_id: _deliveryId, ...attempt }) => attempt),
      })),
      hasMore: rows.length > page.limit,
    };
  }

  /**
   * The deliveries of one case's events, oldest first: every event naming the case (status moves,
   * `attention` appearing and clearing, a deadline passing). Events recorded before they named their
   * case are found at the instants its history records a status, among events of the case's type,
   * and those of another case moving at the same millisecond are dropped after opening.
   */
  async listForCase(
    accountId: string,
    caseId: string,
    eventType: EventType,
    statusTimes: string[],
  ): Promise<CaseEventDelivery[]> {
    const rows = await this.db.query<Omit<CaseEventDelivery, 'case_status'> & { body_sealed: string }>(
      `SELECT d.id, d.event_id, ev.body_sealed, d.endpoint_id, d.retry_of, d.status, d.created_at, d.completed_at,
              (SELECT count(*) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id)::int AS attempts
       FROM webhook_events ev JOIN webhook_deliveries d ON d.event_id = ev.id
       WHERE ev.account_id = $1
         AND (ev.case_id = $4
              OR (ev.case_id IS NULL AND ev.type = $2 AND ev.created_at = ANY ($3::timestamptz[])))
       ORDER BY ev.created_at, d.created_at, d.id`,
      [accountId, eventType, statusTimes, caseId],
    );
    const announced = new Map<string, string | undefined>();
    return rows.flatMap(({ body_sealed: bodySealed, ...row }) => {
      if (!announced.has(row.event_id)) {
        const { data } = JSON.parse(this.secrets.openText(bodySealed)) as {
          data: { id?: string; status?: string };
        };
        announced.set(row.event_id, data.id === caseId ? String(data.status) : undefined);
      }
      const caseStatus = announced.get(row.event_id);
      return caseStatus === undefined ? [] : [{ ...row, case_status: caseStatus }];
    });
  }

  async find(
    deliveryId: string,
    accountId: string,
  ): Promise<{ id: string; endpoint_id: string } | undefined> {
    const [row] = await this.db.query<{ id: string; endpoint_id: string }>(
      'SELECT id, endpoint_id FROM webhook_deliveries WHERE id = $1 AND account_id = $2',
      [deliveryId, accountId],
    );
    return row;
  }
}
