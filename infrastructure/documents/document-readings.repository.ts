import type { DocumentReading } from '../../domain/documents/document-reading';
import { SecretBox } from '../crypto/aes-gcm';
import type { QueryRunner } from '../storage/database';
import { Database } from '../storage/database';

/** A case document as the reader needs it: its id and name, its account and the hash of its content. */
export interface StoredDocument {
  documentId: string;
  /** The name the service gave it (`insurance_1`), never the caller's words. */
  name: string;
  accountId: string;
  sha256: string;
}

/**
 * Readings of documents (docs/documents.md), sealed at rest and kept once per account and content: a
 * card sent again with another case is not read again. They hold PHI (the text, the words and where
 * they sit) and never leave the worker but as the fields a case shows.
 */
export class DocumentReadingsRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  /** The documents of these ids with their account and content hash, in the order asked. */
  async documents(documentIds: readonly string[]): Promise<StoredDocument[]> {
    if (documentIds.length === 0) return [];
    const rows = await this.db.query<{ id: string; name: string; account_id: string; sha256: string }>(
      'SELECT id, name, account_id, sha256 FROM case_documents WHERE id = ANY ($1)',
      [documentIds],
    );
    return documentIds.map((id) => {
      const row = rows.find((candidate) => candidate.id === id);
      if (!row) throw new Error(`Case document ${id} is missing`);
      return { documentId: row.id, name: row.name, accountId: row.account_id, sha256: row.sha256 };
    });
  }

  async find(accountId: string, sha256: string): Promise<DocumentReading | undefined> {
    const [row] = await this.db.query<{ reading_sealed: string }>(
      'SELECT reading_sealed FROM document_readings WHERE account_id = $1 AND sha256 = $2',
      [accountId, sha256],
    );
    return row ? (JSON.parse(this.secrets.openText(row.reading_sealed)) as DocumentReading) : undefined;
  }

  /**
   * Keeps the first reading of a content: two cases reading the same card at once store one. Its page
   * previews go to a column of their own, which only the console's page images read. `replace` puts a
   * new reading in place of an outdated one (made before OCR pages were read twice).
   */
  async save(
    accountId: string,
    sha256: string,
    reading: DocumentReading,
    { replace = false }: { replace?: boolean } = {},
  ): Promise<void> {
    const { previews, ...used } = reading;
    const onConflict = replace
      ? 'DO UPDATE SET reading_sealed = EXCLUDED.reading_sealed, previews_sealed = EXCLUDED.previews_sealed'
      : 'DO NOTHING';
    await this.db.query(
      `INSERT INTO document_readings (account_id, sha256, reading_sealed, previews_sealed) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, sha256) ${onConflict}`,
      [
        accountId,
        sha256,
        this.secrets.sealText(JSON.stringify(used)),
        previews?.length ? this.secrets.sealText(JSON.stringify(previews)) : null,
      ],
    );
  }
}

/**
 * Deletes the readings of removed documents that no other document of their account refers to (after a
 * purge or an erasure removed a case's documents).
 */
export async function deleteOrphanedReadings(
  tx: QueryRunner,
  removed: ReadonlyArray<{ account_id: string; sha256: string }>,
): Promise<void> {
  for (const { account_id: accountId, sha256 } of removed) {
    await tx.query(
      `DELETE FROM document_readings WHERE account_id = $1 AND sha256 = $2 AND NOT EXISTS (
         SELECT 1 FROM case_documents WHERE account_id = $1 AND sha256 = $2)`,
      [accountId, sha256],
    );
  }
}
