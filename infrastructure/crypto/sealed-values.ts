import type { EncryptionSettings } from '../config/config';
import type { Database } from '../storage/database';
import { SecretBox, sealedKeyId } from './aes-gcm';

/**
 * Every SQL column that holds a `SecretBox` value ("keyId:base64"). Key rotation re-encrypts and
 * counts exactly these, so a migration that adds a sealed column adds it here too
 * (test/unit/sealed-columns.test.ts compares this list with the migrations).
 */
export const SEALED_COLUMNS = [
  { table: 'case_documents', column: 'content_sealed' },
  { table: 'document_readings', column: 'reading_sealed', rowId: "account_id || '/' || sha256" },
  { table: 'document_readings', column: 'previews_sealed', rowId: "account_id || '/' || sha256" },
  { table: 'webhook_endpoints', column: 'secret_sealed' },
  { table: 'webhook_events', column: 'body_sealed' },
  { table: 'case_summaries', column: 'case_sealed', rowId: 'case_id' },
  { table: 'case_feedback', column: 'feedback_sealed' },
  { table: 'case_feedback', column: 'drug_sealed' },
  { table: 'mail_outbox', column: 'message_sealed' },
  { table: 'connector_settings', column: 'auth_secret_sealed' },
  { table: 'connector_settings', column: 'signing_key_sealed' },
  { table: 'console_users', column: 'totp_secret_sealed' },
  { table: 'console_sessions', column: 'pending_totp_secret_sealed' },
  // No id column: its primary key, as one text, orders and finds the row (replayable answers, 24 h).
  {
    table: 'idempotency_keys',
    column: 'answer_sealed',
    rowId: "account_id || '/' || livemode::text || '/' || idempotency_key",
  },
] as const;

export type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** The SQL expression naming one row of a sealed column's table: its `id`, unless it has none. */
const rowIdOf = (sealed: SealedColumn): string => ('rowId' in sealed ? sealed.rowId : 'id');

export const columnName = ({ table, column }: SealedColumn) => `${table}.${column}`;

/** A stored value names a key this process does not have: re-encrypting it needs that key back. */
export class UnconfiguredKeyError extends Error {
  constructor(
    readonly keyId: string,
    readonly where: string,
  ) {
    super(
      `${where} holds values sealed under key "${keyId}", which is not configured: ` +
        'add it to PAYLOAD_ENCRYPTION_KEYS (not as current) and run again',
    );
  }
}

export interface BatchResult {
  /** Rows rewritten under the current key. */
  reencrypted: number;
  /** Rows a concurrent writer changed between the read and the write; left as that writer wrote them. */
  skipped: number;
  /** The last id looked at, where the next batch of the same pass starts. */
  lastId: string | undefined;
}

/**
 * Moves sealed values of one column to the current key, one batch per transaction. Only values not
 * already under the current key are read, so a pass that stopped half-way resumes by running again.
 * Each row is written only if it still holds the value that was read (compare and swap), so a
 * writer that changed it meanwhile is never overwritten.
 */
export class SealedValueRotation {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Database,
    private readonly encryption: EncryptionSettings,
  ) {
    this.box = new SecretBox(encryption);
  }

  get currentKeyId(): string {
    return this.encryption.currentKeyId;
  }

  async reencryptBatch(
    sealed: SealedColumn,
    after: string | undefined,
    batchSize: number,
  ): Promise<BatchResult> {
    const { table, column } = sealed;
    const rowId = rowIdOf(sealed);
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string; value: string }>(
        `SELECT ${rowId} AS id, ${column} AS value FROM ${table}
          WHERE ${column} IS NOT NULL AND NOT starts_with(${column}, $1) AND ($2::text IS NULL OR ${rowId} > $2)
          ORDER BY 1 LIMIT $3`,
        [`${this.currentKeyId}:`, after ?? null, batchSize],
      );
      let reencrypted = 0;
      for (const row of rows) {
        const keyId = sealedKeyId(row.value);
        if (!this.encryption.keys.has(keyId)) throw new UnconfiguredKeyError(keyId, columnName(sealed));
        const updated = await tx.query(
          `UPDATE ${table} SET ${column} = $1 WHERE ${rowId} = $2 AND ${column} = $3 RETURNING 1`,
          [this.box.sealText(this.box.openText(row.value)), row.id, row.value],
        );
        reencrypted += updated.length;
      }
      return { reencrypted, skipped: rows.length - reencrypted, lastId: rows.at(-1)?.id };
    });
  }

  /** How many values of each column each key id seals. */
  async countByKey(): Promise<Array<{ column: string; keyId: string; values: number }>> {
    const counts: Array<{ column: string; keyId: string; values: number }> = [];
    for (const sealed of SEALED_COLUMNS) {
      const rows = await this.db.query<{ key_id: string; value_count: string | number }>(
        `SELECT split_part(${sealed.column}, ':', 1) AS key_id, count(*) AS value_count
           FROM ${sealed.table} WHERE ${sealed.column} IS NOT NULL GROUP BY 1 ORDER BY 1`,
      );
      for (const row of rows) {
        counts.push({ column: columnName(sealed), keyId: row.key_id, values: Number(row.value_count) });
      }
    }
    return counts;
  }
}
