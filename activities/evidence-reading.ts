import type { CaseEvidenceItem } from '../domain/cases/case-model';
import type { ClinicalEvidence, UnreadEvidence } from '../domain/clinical/clinical-model';
import { detectDocumentFormat } from '../domain/documents/document-format';
import { linesText, pageText } from '../domain/documents/document-reading';
import type { DocumentReading } from '../domain/documents/document-reading';
import type { CaseDocumentsRepository } from '../infrastructure/cases/case-documents.repository';
import type { DocumentReadingsRepository } from '../infrastructure/documents/document-readings.repository';

/** File assets declared as text, read as sent by a case that did not read its documents (started before). */
const TEXT_TYPES = /^(text\/|application\/json)/;

/**
 * How much asset text one case reads: the first 256 KiB of each text asset, and 1 MiB over the case.
 * A 10 MB upload is accepted, but what lies past the caps is listed as unread, not read.
 */
export const TEXT_ASSET_READ_CAPS = { perAssetBytes: 256 * 1024, perCaseBytes: 1024 * 1024 } as const;

/**
 * The evidence of a clinical eligibility check or a prior authorization as the criteria engine reads
 * it: file assets the case read become their pages' text, each cited by its page; text assets are read
 * as sent. Document contents are read here, inside the activity, and never pass through workflow history.
 */
export function evidenceReader(deps: {
  documents: CaseDocumentsRepository;
  readings: DocumentReadingsRepository;
}): (
  items: readonly CaseEvidenceItem[],
) => Promise<{ evidence: ClinicalEvidence[]; unread: UnreadEvidence[] }> {
  /** The reading the case made of a document, or none (a case started before documents were read). */
  const readingOf = async (documentId: string): Promise<DocumentReading | undefined> => {
    const [stored] = await deps.readings.documents([documentId]);
    return deps.readings.find(stored.accountId, stored.sha256);
  };
  return async (items) => {
    const evidence: ClinicalEvidence[] = [];
    const unread: UnreadEvidence[] = [];
    let budget: number = TEXT_ASSET_READ_CAPS.perCaseBytes;
    let secondBudget: number = TEXT_ASSET_READ_CAPS.perCaseBytes;
    for (const item of items) {
      const reading = item.asset ? await readingOf(item.asset.document_id) : undefined;
      if (item.asset && reading && reading.format !== 'text') {
        // Read by the case (a PDF, a scan, an image): each page is evidence, cited by its page.
        const pages = readPages(item, item.asset, reading, { first: budget, second: secondBudget });
        budget -= pages.bytesRead;
        secondBudget -= pages.secondBytesRead;
        evidence.push(...pages.evidence);
        unread.push(...pages.unread);
        continue;
      }
      // Without a reading, only a file declared as text may be text; its bytes must then show it.
      const mayBeText = reading ? reading.format === 'text' : TEXT_TYPES.test(item.asset?.fileType ?? '');
      let text: string | undefined;
      if (item.asset && mayBeText && budget === 0) {
        // Nothing of it would be read: skip fetching and decrypting it, and say how much went unread.
        unread.push({ title: item.title, bytes_unread: item.asset.size_bytes });
      } else if (item.asset && mayBeText) {
        const bytes = (await deps.documents.read([item.asset.document_id]))[0]!;
        if (reading || detectDocumentFormat(bytes) === 'text') {
          const readBytes = Math.min(bytes.length, TEXT_ASSET_READ_CAPS.perAssetBytes, budget);
          budget -= readBytes;
          text = bytes.subarray(0, readBytes).toString('utf8');
          if (readBytes < bytes.length)
            unread.push({ title: item.title, bytes_unread: bytes.length - readBytes });
        } else unread.push(notReadFile(item.title, item.asset.size_bytes));
      } else if (item.asset) unread.push(notReadFile(item.title, item.asset.size_bytes));
      evidence.push({ title: item.title, date_created: item.date_created, content: item.content, text });
    }
    return { evidence, unread };
  };
}

/** A file the case has no reading of (past its OCR budget, or sent to a case started before files were read). */
function notReadFile(title: string, size: number): UnreadEvidence {
  return {
    title,
    bytes_unread: size,
    reason: "not read (past the case's OCR budget, or sent to a case started before files were read)",
  };
}

/**
 * The pages of a document the case read, as evidence titled by page when there are several, within
 * the case's text budget; pages not read, and a document read not at all, are listed with the reason.
 * Second readings have a budget of their own, so they never crowd out a later page's first reading,
 * and are cut at a line's end, so no number is cut short into another.
 */
function readPages(
  item: CaseEvidenceItem,
  asset: { size_bytes: number },
  reading: DocumentReading,
  budget: { first: number; second: number },
): { evidence: ClinicalEvidence[]; unread: UnreadEvidence[]; bytesRead: number; secondBytesRead: number } {
  if (reading.pages.length === 0) {
    return {
      evidence: [{ title: item.title, date_created: item.date_created, content: item.content }],
      unread: [{ title: item.title, bytes_unread: asset.size_bytes, reason: reading.reason ?? 'not read' }],
      bytesRead: 0,
      secondBytesRead: 0,
    };
  }
  const evidence: ClinicalEvidence[] = [];
  let bytesRead = 0;
  let secondBytesRead = 0;
  for (const page of reading.pages) {
    const title = reading.pageCount > 1 ? `${item.title}, page ${page.number}` : item.title;
    const text = pageText(page).slice(0, Math.max(0, budget.first - bytesRead));
    bytesRead += Buffer.byteLength(text);
    const secondReading =
      page.second && wholeLines(linesText(page.second), Math.max(0, budget.second - secondBytesRead));
    if (secondReading) secondBytesRead += Buffer.byteLength(secondReading);
    evidence.push({
      title,
      date_created: item.date_created,
      content: evidence.length ? undefined : item.content,
      text,
      ...(page.method === 'ocr' ? { recognised: true } : {}),
      ...(secondReading ? { secondReading } : {}),
    });
  }
  const unread: UnreadEvidence[] = reading.unread.map((page) => ({
    title: `${item.title}, page ${page.number}`,
    bytes_unread: 0,
    reason: page.reason,
  }));
  return { evidence, unread, bytesRead, secondBytesRead };
}

/** The text's first `limit` characters, ending at a line's end when it had to be cut. */
function wholeLines(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return text.slice(0, text.lastIndexOf('\n', limit - 1) + 1);
}
