import { DAY_MS } from '../../domain/durations';
import type { OutgoingMail } from '../../domain/mail/outgoing-mail';
import { newId } from '../../domain/ids';
import { SecretBox } from '../crypto/aes-gcm';
import type { Database } from '../storage/database';
import { keysetCursor, KeysetPosition, positionColumn } from '../storage/keyset-cursor';

/** How long the outbox keeps a message: past it, every signing link it holds has lapsed (14 days). */
export const MAIL_OUTBOX_RETENTION_DAYS = 30;

/** A message in the outbox, opened for the account's admins. */
export interface OutboxMessage {
  id: string;
  livemode: boolean;
  purpose: string;
  objectId: string | null;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

export interface OutboxPage {
  messages: OutboxMessage[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

/** What is sealed: everything that names the person or carries their link. */
interface SealedMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

interface OutboxRow {
  id: string;
  livemode: boolean;
  purpose: string;
  object_id: string | null;
  message_sealed: string;
  created_at: string;
  page_position: string;
}

const COLUMNS = `id, livemode, purpose, object_id, message_sealed, created_at,
  ${positionColumn('created_at')} AS page_position`;

/**
 * The mail an account's test mode (and a local install) sends, kept for its admins instead of
 * delivered. Messages are sealed at rest; only the purpose and the object they are about are plain.
 * A message past the retention is gone to every reader at once, whether or not a purge has deleted
 * its row yet: an account that stops sending would otherwise keep its old links readable.
 */
export class MailOutboxRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Keeps one message per idempotency key: a retry of the same send answers the message first kept
   * and writes nothing. A key whose message is past the retention is free again, and the message is
   * kept anew. Messages past the retention (every account's: the index on created_at makes it
   * cheap) are deleted at the same time, so the outbox needs no schedule of its own.
   */
  async record(mail: OutgoingMail): Promise<{ id: string; recorded: boolean }> {
    const sealed: SealedMessage = {
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html !== undefined && { html: mail.html }),
    };
    const keptSince = this.keptSince();
    // Rows another sender is purging are skipped, so two purges never wait on each other.
    await this.db.query(
      `DELETE FROM mail_outbox WHERE id IN (
         SELECT id FROM mail_outbox WHERE created_at < $1 FOR UPDATE SKIP LOCKED)`,
      [keptSince],
    );
    // Another sender of the same key can purge or replace its row between the two statements; the
    // next attempt then sees the row as it is now.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [recorded] = await this.db.query<{ id: string }>(
        `INSERT INTO mail_outbox (id, account_id, livemode, purpose, object_id, message_sealed, idempotency_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, idempotency_key) DO UPDATE SET
           id = EXCLUDED.id, livemode = EXCLUDED.livemode, purpose = EXCLUDED.purpose,
           object_id = EXCLUDED.object_id, message_sealed = EXCLUDED.message_sealed, created_at = now()
         WHERE mail_outbox.created_at < $8
         RETURNING id`,
        [
          newId('mailMessage'),
          mail.accountId,
          mail.livemode,
          mail.purpose,
          mail.objectId ?? null,
          this.secrets.sealText(JSON.stringify(sealed)),
          mail.idempotencyKey,
          keptSince,
        ],
      );
      if (recorded) return { id: recorded.id, recorded: true };
      const [kept] = await this.db.query<{ id: string }>(
        `SELECT id FROM mail_outbox WHERE account_id = $1 AND idempotency_key = $2 AND created_at >= $3`,
        [mail.accountId, mail.idempotencyKey, keptSince],
      );
      if (kept) return { id: kept.id, recorded: false };
    }
    throw new Error('The outbox could not keep the message: its idempotency key kept changing hands');
  }

  /** One mode's messages, newest first; `after` is where the previous page ended. */
  async list(
    accountId: string,
    { livemode, limit, after }: { livemode: boolean; limit: number; after?: KeysetPosition },
  ): Promise<OutboxPage> {
    const rows = await this.db.query<OutboxRow>(
      `SELECT ${COLUMNS} FROM mail_outbox
       WHERE account_id = $1 AND livemode = $2 AND created_at >= $6
         AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4::text))
       ORDER BY created_at DESC, id DESC
       LIMIT $5`,
      [accountId, livemode, after?.at ?? null, after?.id ?? null, limit + 1, this.keptSince()],
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      messages: page.map((row) => this.messageOf(row)),
      nextCursor: rows.length > limit && last ? keysetCursor(last.page_position, last.id) : null,
    };
  }

  /** One message of the account's, whichever its mode; undefined for any other id. */
  async get(accountId: string, id: string): Promise<OutboxMessage | undefined> {
    const [row] = await this.db.query<OutboxRow>(
      `SELECT ${COLUMNS} FROM mail_outbox WHERE account_id = $1 AND id = $2 AND created_at >= $3`,
      [accountId, id, this.keptSince()],
    );
    return row && this.messageOf(row);
  }

  /** The oldest moment a message may have been kept at and still be shown. */
  private keptSince(): string {
    return new Date(this.clock().getTime() - MAIL_OUTBOX_RETENTION_DAYS * DAY_MS).toISOString();
  }

  private messageOf(row: OutboxRow): OutboxMessage {
    const message = JSON.parse(this.secrets.openText(row.message_sealed)) as SealedMessage;
    return {
      id: row.id,
      livemode: row.livemode,
      purpose: row.purpose,
      objectId: row.object_id,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      createdAt: row.created_at,
    };
  }
}
