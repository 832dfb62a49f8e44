import { Context } from '@temporalio/activity';

import { detectDocumentFormat } from '../domain/documents/document-format';
import type {
  DocumentFormat,
  DocumentReader,
  DocumentReading,
  DocumentReadingSummary,
} from '../domain/documents/document-reading';
import { notRead, readByOneReader, summaryOf } from '../domain/documents/document-reading';
import type { CaseDocumentsRepository } from '../infrastructure/cases/case-documents.repository';
import type { DocumentReadingsRepository } from '../infrastructure/documents/document-readings.repository';

export interface DocumentActivityDependencies {
  documents: CaseDocumentsRepository;
  readings: DocumentReadingsRepository;
  reader: DocumentReader;
  /** Pages one case may have recognised by OCR (DOCUMENT_OCR_PAGES_PER_CASE). */
  ocrPagesPerCase: number;
}

/**
 * Reading a case's documents, as an activity of its own (docs/documents.md): a slow page never turns
 * into a connector's retry loop, and a document that cannot be read is a reading, not a failure. What
 * was read is stored sealed for the activities that use it; the workflow gets only each reading's
 * summary (status, method, pages, confidence, reason), never the text.
 *
 * One case spends at most `ocrPagesPerCase` pages of OCR: once its documents have used them, the
 * next ones that need OCR are `not_read` (and not stored, so another case may still read them). A
 * document begun within the budget is read to its own limit; readings already stored cost nothing,
 * but for those made before OCR pages were read twice, which are read again and replaced.
 */
export const createDocumentActivities = ({
  documents,
  readings,
  reader,
  ocrPagesPerCase,
}: DocumentActivityDependencies) => ({
  async readCaseDocuments(documentIds: string[]): Promise<DocumentReadingSummary[]> {
    const summaries: DocumentReadingSummary[] = [];
    let ocrPagesLeft = ocrPagesPerCase;
    for (const stored of await readings.documents(documentIds)) {
      const known = await readings.find(stored.accountId, stored.sha256);
      let reading: DocumentReading | undefined = known && !readByOneReader(known) ? known : undefined;
      if (!reading) {
        const [bytes] = await documents.read([stored.documentId]);
        const format = detectDocumentFormat(bytes);
        if (ocrPagesLeft <= 0 && NEEDS_OCR_AT_TIMES.has(format)) {
          reading = notRead(
            format,
            'not_read',
            `Not read: the case's other documents used up its OCR budget (${ocrPagesPerCase} pages).`,
          );
        } else {
          reading = await reader.read(bytes);
          ocrPagesLeft -= ocrPagesAttempted(reading);
          await readings.save(stored.accountId, stored.sha256, reading, { replace: known !== undefined });
        }
      }
      summaries.push(summaryOf(stored.documentId, reading));
      Context.current().heartbeat();
    }
    return summaries;
  },
});

/** Formats whose pages may be recognised from pixels: images always, a PDF's scanned pages. */
const NEEDS_OCR_AT_TIMES = new Set<DocumentFormat>(['jpeg', 'png', 'tiff', 'gif', 'webp', 'pdf']);

/**
 * What a reading cost the case: its pages recognised by OCR, and its pages that failed or ran out of
 * time (each may have taken the whole page limit). Pages past a document's own limit were never tried.
 */
function ocrPagesAttempted(reading: DocumentReading): number {
  const recognised = reading.pages.filter((page) => page.method === 'ocr').length;
  const failed = reading.unread.filter((page) => !page.reason.startsWith('only the first')).length;
  return recognised + failed;
}
