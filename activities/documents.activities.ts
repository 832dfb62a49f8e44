import { Context } from '@temporalio/activity';

import type {
  DocumentReader,
  DocumentReading,
  DocumentReadingSummary,
} from '../domain/documents/document-reading';
import { summaryOf } from '../domain/documents/document-reading';
import type { CaseDocumentsRepository } from '../infrastructure/cases/case-documents.repository';
import type { DocumentReadingsRepository } from '../infrastructure/documents/document-readings.repository';

export interface DocumentActivityDependencies {
  documents: CaseDocumentsRepository;
  readings: DocumentReadingsRepository;
  reader: DocumentReader;
}

/**
 * Reading a case's documents, as an activity of its own (docs/documents.md): a slow page never turns
 * into a connector's retry loop, and a document that cannot be read is a reading, not a failure. What
 * was read is stored sealed for the activities that use it; the workflow gets only each reading's
 * summary (status, method, pages, confidence, reason), never the text.
 */
export const createDocumentActivities = ({ documents, readings, reader }: DocumentActivityDependencies) => ({
  async readCaseDocuments(documentIds: string[]): Promise<DocumentReadingSummary[]> {
    const summaries: DocumentReadingSummary[] = [];
    for (const stored of await readings.documents(documentIds)) {
      let reading: DocumentReading | undefined = await readings.find(stored.accountId, stored.sha256);
      if (!reading) {
        const [bytes] = await documents.read([stored.documentId]);
        reading = await reader.read(bytes);
        await readings.save(stored.accountId, stored.sha256, reading);
      }
      summaries.push(summaryOf(stored.documentId, reading));
      Context.current().heartbeat();
    }
    return summaries;
  },
});
