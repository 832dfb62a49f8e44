import { newId } from '../../domain/ids';
import { type Database, isDatabaseUnavailable } from '../storage/database';
import { GroupCommit } from '../storage/group-commit';
import { keysetCursor, KeysetPosition, positionColumn } from '../storage/keyset-cursor';
import type { ActorType, AuditAction, AuditDetails, AuditEvent, NewAuditEvent } from './audit-event';

export interface AuditEventFilter {
  actorId?: string;
  targetId?: string;
  action?: AuditAction;
  from?: string;
  to?: string;
  limit: number;
  /** Where the previous page ended. */
  after?: KeysetPosition;
}

export interface AuditEventPage {
  object: 'list';
  data: AuditEvent[];
  has_more: boolean;
  next_cursor: string | null;
}

interface AuditEventRow {
  id: string;
  actor_type: ActorType;
  actor_id: string;
  action: AuditAction;
  target_object: string | null;
  target_id: string | null;
  request_id: string;
  details: AuditDetails;
  occurred_at: string;
  /** `occurred_at` to the microsecond, for the cursor of a page that ends on this row. */
  page_position: string;
}

interface StampedAuditEvent {
  event: NewAuditEvent;
  now: Date;
}

/** Records per insert: enough to share one among every request in flight. */
const RECORDS_PER_INSERT = 200;

/** Rows deleted per statement, so a purge of years of events never holds one long transaction. */
const PURGE_BATCH = 5_000;

/** The audit trail in SQL: append-only for the service, read by account admins, purged by age only. */
export class AuditRepository {
  constructor(private readonly db: Database) {}

  /**
   * Appends the events, stamped `now`; resolves once they are committed. Records made while an
   * earlier one is being written share its next insert (one round trip and one commit for all the
   * reads answered meanwhile).
   */
  async record(events: NewAuditEvent[], now = new Date()): Promise<void> {
    if (events.length === 0) return;
    await this.appends.submit(events.map((event) => ({ event, now })));
  }

  private readonly appends = new GroupCommit<StampedAuditEvent[], void>(
    (records) => this.insertRecords(records),
    RECORDS_PER_INSERT,
  );

  /**
   * One insert for all the records; if the database refuses it, each record is written again on its
   * own, so only a record it refuses fails its caller. An unavailable database fails them all at once.
   */
  private insertRecords(records: StampedAuditEvent[][]): Array<Promise<void>> {
    const together = this.insert(records.flat());
    if (records.length === 1) return [together];
    return records.map((record) =>
      together.catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) throw error;
        return this.insert(record);
      }),
    );
  }

  /** The rows as ten arrays, so an insert takes ten parameters however many events it carries. */
  private async insert(events: StampedAuditEvent[]): Promise<void> {
    const columns: unknown[][] = Array.from({ length: 10 }, () => []);
    for (const { event, now } of events) {
      [
        newId('auditEvent', now.getTime()),
        event.accountId,
        event.actor.type,
        event.actor.id,
        event.action,
        event.target?.object ?? null,
        event.target?.id ?? null,
        event.requestId,
        JSON.stringify(event.details ?? {}),
        now.toISOString(),
      ].forEach((value, column) => columns[column]!.push(value));
    }
    await this.db.query(
      `INSERT INTO audit_events
         (id, account_id, actor_type, actor_id, action, target_object, target_id, request_id, details, occurred_at)
       SELECT id, account_id, actor_type, actor_id, action, target_object, target_id, request_id, details::jsonb, occurred_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::timestamptz[])
         AS event (id, account_id, actor_type, actor_id, action, target_object, target_id, request_id, details, occurred_at)`,
      columns,
    );
  }

  /** One account's events, newest first; the cursor is the position of the previous page's last event. */
  async list(accountId: string, filter: AuditEventFilter): Promise<AuditEventPage> {
    const rows = await this.db.query<AuditEventRow>(
      `SELECT id, actor_type, actor_id, action, target_object, target_id, request_id, details, occurred_at,
              ${positionColumn('occurred_at')} AS page_position
       FROM audit_events
       WHERE account_id = $1
         AND ($2::text IS NULL OR actor_id = $2)
         AND ($3::text IS NULL OR target_id = $3)
         AND ($4::text IS NULL OR action = $4)
         AND ($5::timestamptz IS NULL OR occurred_at >= $5)
         AND ($6::timestamptz IS NULL OR occurred_at <= $6)
         AND ($7::timestamptz IS NULL OR (occurred_at, id) < ($7, $8::text))
       ORDER BY occurred_at DESC, id DESC
       LIMIT $9`,
      [
        accountId,
        filter.actorId ?? null,
        filter.targetId ?? null,
        filter.action ?? null,
        filter.from ? new Date(filter.from).toISOString() : null,
        filter.to ? new Date(filter.to).toISOString() : null,
        filter.after?.at ?? null,
        filter.after?.id ?? null,
        filter.limit + 1,
      ],
    );
    const hasMore = rows.length > filter.limit;
    const page = rows.slice(0, filter.limit);
    const last = page[page.length - 1];
    return {
      object: 'list',
      data: page.map(toAuditEvent),
      has_more: hasMore,
      next_cursor: hasMore && last ? keysetCursor(last.page_position, last.id) : null,
    };
  }

  /** Deletes every event that occurred before `cutoff`; returns how many went. */
  async purgeBefore(cutoff: Date): Promise<number> {
    let purged = 0;
    for (;;) {
      const deleted = await this.db.query<{ id: string }>(
        `DELETE FROM audit_events
         WHERE id IN (SELECT id FROM audit_events WHERE occurred_at < $1 LIMIT ${PURGE_BATCH})
         RETURNING id`,
        [cutoff.toISOString()],
      );
      purged += deleted.length;
      if (deleted.length < PURGE_BATCH) return purged;
    }
  }

  /**
   * The accounts that own what a decoded payload names: accounts that exist, and the accounts of
   * webhook deliveries and events. Case ids are Temporal's to answer (see CodecAudit).
   */
  async ownersOf(ids: { accountIds: string[]; deliveryIds: string[]; eventIds: string[] }) {
    const rows = await this.db.query<{ id: string; account_id: string }>(
      `SELECT id, id AS account_id FROM accounts WHERE id = ANY($1::text[])
       UNION ALL
       SELECT id, account_id FROM webhook_deliveries WHERE id = ANY($2::text[])
       UNION ALL
       SELECT id, account_id FROM webhook_events WHERE id = ANY($3::text[])`,
      [ids.accountIds, ids.deliveryIds, ids.eventIds],
    );
    return new Map(rows.map((row) => [row.id, row.account_id]));
  }
}

function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    object: 'audit_event',
    actor: { type: row.actor_type, id: row.actor_id },
    action: row.action,
    target: row.target_object === null ? null : { object: row.target_object, id: row.target_id },
    details: row.details,
    request_id: row.request_id,
    created_at: row.occurred_at,
  };
}
