import { createHash } from 'node:crypto';

import type { DocumentRef } from '../../domain/cases/case-model';
import { detectDocumentFormat } from '../../domain/documents/document-format';
import { CONTENT_TYPES } from '../../domain/documents/document-reading';
import type { DocumentReading, PagePreview, ReadPage } from '../../domain/documents/document-reading';
import { newId } from '../../domain/ids';
import { SecretBox } from '../crypto/aes-gcm';
import { Database, QueryRunner } from '../storage/database';

/**
 * The type a document's bytes show (domain/documents/document-format.ts), as cases list it; text stays
 * plain `text/plain`, as it was listed before documents were read.
 */
export function detectContentType(bytes: Buffer): string {
  const format = detectDocumentFormat(bytes);
  return format === 'text' ? 'text/plain' : CONTENT_TYPES[format];
}

/** A case's documents beside the reading of their content, for what the reader kept of them. */
const DOCUMENTS_WITH_READINGS = `case_documents documents
  JOIN document_readings readings ON readings.account_id = documents.account_id AND readings.sha256 = documents.sha256`;

/**
 * Case documents, encrypted at rest and kept out of Temporal (payload size limits, and history
 * should not carry scans). Cases refer to them by `document_id`.
 */
export class CaseDocumentsRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Stores base64 documents for a case; repeating it for the same case returns what was stored. They
   * await their case's start (migration 0008) until `markStarted`.
   */
  async store(
    accountId: string,
    caseId: string,
    documents: Array<{ name: string; base64: string }>,
  ): Promise<DocumentRef[]> {
    // A request without documents has none to find either, even when it is a replay.
    if (documents.length === 0) return [];
    return this.db.transaction(async (tx) => {
      const existing = await this.refs(tx, caseId);
      if (existing.length > 0) {
        // A replay of the request claims them afresh, so the sweep cannot remove them under its start.
        await tx.query(
          `UPDATE case_documents SET awaiting_start_since = now()
           WHERE case_id = $1 AND awaiting_start_since IS NOT NULL`,
          [caseId],
        );
        return existing;
      }
      for (const document of documents) {
        const bytes = Buffer.from(document.base64, 'base64');
        await tx.query(
          `INSERT INTO case_documents
             (id, account_id, case_id, name, content_type, sha256, size_bytes, content_sealed, awaiting_start_since)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now()) ON CONFLICT (case_id, name) DO NOTHING`,
          [
            newId('document'),
            accountId,
            caseId,
            document.name,
            detectContentType(bytes),
            createHash('sha256').update(bytes).digest('hex'),
            bytes.length,
            this.secrets.sealText(bytes.toString('base64')),
          ],
        );
      }
      return this.refs(tx, caseId);
    });
  }

  private async refs(tx: QueryRunner, caseId: string): Promise<DocumentRef[]> {
    return tx.query<DocumentRef>(
      `SELECT id AS document_id, name, content_type AS type, sha256, size_bytes
       FROM case_documents WHERE case_id = $1 ORDER BY id`,
      [caseId],
    );
  }

  /** The case's workflow was started: its documents stay for as long as the case. */
  async markStarted(caseId: string): Promise<void> {
    await this.db.query(
      'UPDATE case_documents SET awaiting_start_since = NULL WHERE case_id = $1 AND awaiting_start_since IS NOT NULL',
      [caseId],
    );
  }

  /** Removes what `store` kept for a case that was never started. */
  async removeForCase(accountId: string, caseId: string): Promise<void> {
    await this.db.query('DELETE FROM case_documents WHERE account_id = $1 AND case_id = $2', [
      accountId,
      caseId,
    ]);
  }

  /** Cases whose documents have awaited a start for longer than `olderThanMs`. */
  async awaitingStart(olderThanMs: number, limit: number): Promise<Array<{ caseId: string }>> {
    const rows = await this.db.query<{ case_id: string }>(
      `SELECT DISTINCT case_id FROM case_documents
       WHERE awaiting_start_since < now() - $1::float8 * interval '1 millisecond' LIMIT $2`,
      [olderThanMs, limit],
    );
    return rows.map((row) => ({ caseId: row.case_id }));
  }

  /**
   * Removes a never-started case's documents that still await a start older than `olderThanMs`:
   * a replay of its request claiming them meanwhile keeps them.
   */
  async removeUnstarted(caseId: string, olderThanMs: number): Promise<number> {
    const removed = await this.db.query<{ id: string }>(
      `DELETE FROM case_documents
       WHERE case_id = $1 AND awaiting_start_since < now() - $2::float8 * interval '1 millisecond'
       RETURNING id`,
      [caseId, olderThanMs],
    );
    return removed.length;
  }

  /** One document of one case of the account, with its name, or null when the case holds no such document. */
  async readOfCase(
    accountId: string,
    caseId: string,
    documentId: string,
  ): Promise<{ name: string; bytes: Buffer } | null> {
    const [row] = await this.db.query<{ name: string; content_sealed: string }>(
      'SELECT name, content_sealed FROM case_documents WHERE account_id = $1 AND case_id = $2 AND id = $3',
      [accountId, caseId, documentId],
    );
    return row
      ? { name: row.name, bytes: Buffer.from(this.secrets.openText(row.content_sealed), 'base64') }
      : null;
  }

  /**
   * The preview image (JPEG) the reader stored of one page of one document of one case of the account,
   * or null when the case holds no such document or its reading kept no image of that page.
   */
  async pagePreviewOfCase(
    accountId: string,
    caseId: string,
    documentId: string,
    page: number,
  ): Promise<Buffer | null> {
    const [row] = await this.db.query<{ previews_sealed: string | null }>(
      `SELECT readings.previews_sealed FROM ${DOCUMENTS_WITH_READINGS}
       WHERE documents.account_id = $1 AND documents.case_id = $2 AND documents.id = $3`,
      [accountId, caseId, documentId],
    );
    if (!row?.previews_sealed) return null;
    const previews = JSON.parse(this.secrets.openText(row.previews_sealed)) as PagePreview[];
    const preview = previews.find((candidate) => candidate.page === page);
    return preview ? Buffer.from(preview.jpeg, 'base64') : null;
  }

  /**
   * The pages read of a case's insurance documents (`insurance_N`, `patient_insurance_N`), in the order
   * the case sent them, for a reviewer to see where the card's two readers differed.
   */
  async insuranceReadingsOfCase(accountId: string, caseId: string): Promise<ReadPage[][]> {
    const rows = await this.db.query<{ name: string; reading_sealed: string }>(
      `SELECT documents.name, readings.reading_sealed FROM ${DOCUMENTS_WITH_READINGS}
       WHERE documents.account_id = $1 AND documents.case_id = $2
         AND (starts_with(documents.name, 'insurance_') OR starts_with(documents.name, 'patient_insurance_'))`,
      [accountId, caseId],
    );
    return rows
      .sort((a, b) => sentOrder(a.name) - sentOrder(b.name))
      .map((row) => (JSON.parse(this.secrets.openText(row.reading_sealed)) as DocumentReading).pages);
  }

  /** The documents of a case of the account whose readings kept page images (readings made before kept none). */
  async withPagePreviews(accountId: string, caseId: string): Promise<Set<string>> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT documents.id FROM ${DOCUMENTS_WITH_READINGS}
       WHERE documents.account_id = $1 AND documents.case_id = $2 AND readings.previews_sealed IS NOT NULL`,
      [accountId, caseId],
    );
    return new Set(rows.map((row) => row.id));
  }

  async read(documentIds: string[]): Promise<Buffer[]> {
    if (documentIds.length === 0) return [];
    const rows = await this.db.query<{ id: string; content_sealed: string }>(
      'SELECT id, content_sealed FROM case_documents WHERE id = ANY ($1)',
      [documentIds],
    );
    return documentIds.map((id) => {
      const row = rows.find((candidate) => candidate.id === id);
      if (!row) throw new Error(`Case document ${id} is missing`);
      return Buffer.from(this.secrets.openText(row.content_sealed), 'base64');
    });
  }
}

/** Where a document's name puts it among what the case sent: `insurance[]` first, then `patient.insurance[]`. */
function sentOrder(name: string): number {
  const index = Number(name.slice(name.lastIndexOf('_') + 1));
  return (name.startsWith('patient_') ? 1_000 : 0) + (Number.isFinite(index) ? index : 0);
}
