import { evidenceReader, TEXT_ASSET_READ_CAPS } from '../../activities/evidence-reading';
import type { DocumentReading, ReadLine, ReadPage } from '../../domain/documents/document-reading';
import type { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import type { DocumentReadingsRepository } from '../../infrastructure/documents/document-readings.repository';

const BOX = { left: 0, top: 0, width: 10, height: 10 };

/** Lines of `count` characters each, one word a line, as a reader gives a page. */
function linesOf(character: string, lines: number, count: number): ReadLine[] {
  return Array.from({ length: lines }, () => ({
    words: [{ text: character.repeat(count), confidence: 0.9, box: BOX }],
    box: BOX,
  }));
}

/** A scanned page whose two readings each hold `bytes` of text in lines of 1,000 characters. */
function scannedPage(number: number, bytes: number): ReadPage {
  const lines = bytes / 1000;
  return {
    number,
    method: 'ocr',
    width: 100,
    height: 100,
    lines: linesOf('a', lines, 999),
    second: linesOf('b', lines, 999),
    confidence: 0.9,
  };
}

function readerOf(reading: DocumentReading) {
  return evidenceReader({
    documents: {} as CaseDocumentsRepository,
    readings: {
      documents: async () => [{ accountId: 'acct_1', sha256: 'sha' }],
      find: async () => reading,
    } as unknown as DocumentReadingsRepository,
  });
}

const item = {
  title: 'Referral letter',
  date_created: '2026-11-01T08:00:00Z',
  asset: {
    document_id: 'doc_1',
    name: 'letter.tiff',
    type: 'image/tiff',
    sha256: 'sha',
    size_bytes: 5000,
    fileType: 'image/tiff',
  },
};

describe("a scanned document's two readings within the case's text budget", () => {
  const half = TEXT_ASSET_READ_CAPS.perCaseBytes / 2;
  const reading: DocumentReading = {
    format: 'tiff',
    contentType: 'image/tiff',
    status: 'read',
    method: 'ocr',
    pageCount: 2,
    pages: [scannedPage(1, half * 0.8), scannedPage(2, half * 0.8)],
    unread: [],
    confidence: 0.9,
    reason: null,
  };

  it("reads every page's first reading whole, however long the second readings before it", async () => {
    const { evidence } = await readerOf(reading)([item]);
    expect(evidence.map((page) => page.text!.length)).toEqual(
      reading.pages.map((page) => page.lines.length * 1000 - 1),
    );
  });

  it('cuts a second reading past its own budget at the end of a line', async () => {
    const long = { ...reading, pages: [scannedPage(1, half * 0.8), scannedPage(2, half * 1.6)] };
    const { evidence } = await readerOf(long)([item]);
    const cut = evidence[1]!.secondReading!;
    expect(cut.length).toBeLessThan(long.pages[1]!.second!.length * 1000);
    expect(cut.endsWith('\n')).toBe(true);
    expect(
      cut
        .split('\n')
        .slice(0, -1)
        .every((line) => line === 'b'.repeat(999)),
    ).toBe(true);
  });
});
