/**
 * What the service learns from a document a provider sent (docs/decisions.md#documents): the type its bytes show,
 * how it was read, and the words found with where they sit on the page. The words are PHI: they stay in
 * the worker and in sealed storage, never in workflow history or logs.
 */

/** The types the reader recognises by their bytes; `unknown` is everything else. */
export type DocumentFormat = 'jpeg' | 'png' | 'tiff' | 'gif' | 'webp' | 'pdf' | 'text' | 'unknown';

/** `not_read`: the case had spent its OCR pages on its other documents before this one (never stored). */
export type ReadingStatus = 'read' | 'partly_read' | 'unreadable' | 'unsupported' | 'not_read';

/** `text`: UTF-8 as sent; `pdf_text`: a PDF's text layer; `ocr`: recognised from pixels. */
export type ReadingMethod = 'text' | 'pdf_text' | 'ocr' | 'mixed';

/** A box on the page, in the page's own pixels (OCR) or points (a PDF text layer), origin top left. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ReadWord {
  text: string;
  /** 0–1: how sure the recogniser is; 1 for text that was sent or stored as text. */
  confidence: number;
  box: Box;
}

/** One line of words as the page lays them out, left to right. */
export interface ReadLine {
  words: ReadWord[];
  box: Box;
}

export type PageMethod = 'text' | 'pdf_text' | 'ocr';

export interface ReadPage {
  /** 1-based, as a reader of the document counts. */
  number: number;
  method: PageMethod;
  width: number;
  height: number;
  lines: ReadLine[];
  /** Mean word confidence, or null for a page with no words. */
  confidence: number | null;
  /**
   * An OCR page's second, independent reading of the same image (another detector and recogniser), in
   * the same coordinates: values are trusted where the two agree. Absent on text pages and on readings
   * made before there were two readers.
   */
  second?: ReadLine[];
  /**
   * Where a photographed page is washed out by glare, in the same coordinates: print there may be lost
   * to both readers. Absent where none was found, and on pages that are not photos.
   */
  glare?: Box[];
}

/** A page that was not read, and why (a limit reached, a page that failed to decode). */
export interface UnreadPage {
  number: number;
  reason: string;
}

export interface DocumentReading {
  format: DocumentFormat;
  /** The content type the bytes show, for serving the original back. */
  contentType: string;
  status: ReadingStatus;
  /** Null when nothing was read. */
  method: ReadingMethod | null;
  /** Pages the document has (1 for a single image or a text), when it could be counted. */
  pageCount: number;
  pages: ReadPage[];
  unread: UnreadPage[];
  /** Mean word confidence over the pages read, or null when none was. */
  confidence: number | null;
  /** Why the document, or part of it, was not read; null when all of it was. */
  reason: string | null;
  /**
   * Small images of its first pages, for a reviewer to see what was read. Stored apart from the
   * reading (they are not needed to use it), and absent from readings made before they existed.
   */
  previews?: PagePreview[];
}

/** A page as a reviewer sees it: a JPEG at most PREVIEW_LONG_SIDE pixels on its long side, base64. */
export interface PagePreview {
  page: number;
  jpeg: string;
}

/** What a case shows of a document's reading (docs/decisions.md#documents): no text, no words. */
export interface DocumentReadingSummary {
  document_id: string;
  status: ReadingStatus;
  method: ReadingMethod | null;
  pages: number;
  pages_read: number;
  confidence: number | null;
  reason: string | null;
}

export function summaryOf(documentId: string, reading: DocumentReading): DocumentReadingSummary {
  return {
    document_id: documentId,
    status: reading.status,
    method: reading.method,
    pages: reading.pageCount,
    pages_read: Math.max(0, reading.pageCount - reading.unread.length),
    confidence: reading.confidence === null ? null : Math.round(reading.confidence * 100) / 100,
    reason: reading.reason,
  };
}

/** Reads one document's bytes. Never throws for a document that cannot be read: that is a reading. */
export interface DocumentReader {
  read(bytes: Buffer): Promise<DocumentReading>;
}

/** The smallest box around all of the boxes given. */
export function boxAround(boxes: readonly Box[]): Box {
  const left = Math.min(...boxes.map((box) => box.left));
  const top = Math.min(...boxes.map((box) => box.top));
  const right = Math.max(...boxes.map((box) => box.left + box.width));
  const bottom = Math.max(...boxes.map((box) => box.top + box.height));
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * Whether a reading was made before OCR pages were read twice: such a reading is read again, since
 * its identifiers could never be confirmed by a second reader.
 */
export function readByOneReader(reading: DocumentReading): boolean {
  return reading.pages.some((page) => page.method === 'ocr' && page.second === undefined);
}

/** The text of a page, line by line, as a person reads it. */
export function pageText(page: ReadPage): string {
  return linesText(page.lines);
}

/** A page's text and its second reading's are laid out alike, so the evidence reader reads both one way. */
export function linesText(lines: readonly ReadLine[]): string {
  return lines.map((line) => line.words.map((word) => word.text).join(' ')).join('\n');
}

export function documentText(reading: DocumentReading): string {
  return reading.pages.map(pageText).join('\n\n');
}

/** The mean of the word confidences, or null when there are no words. */
export function meanConfidence(words: readonly ReadWord[]): number | null {
  if (words.length === 0) return null;
  return words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
}

export function wordsOf(pages: readonly ReadPage[]): ReadWord[] {
  return pages.flatMap((page) => page.lines.flatMap((line) => line.words));
}

/** A reading of nothing: the document is kept, and the reason says why it was not read. */
export function notRead(
  format: DocumentFormat,
  status: 'unreadable' | 'unsupported' | 'not_read',
  reason: string,
  pageCount = 0,
): DocumentReading {
  return {
    format,
    contentType: CONTENT_TYPES[format],
    status,
    method: null,
    pageCount,
    pages: [],
    unread: [],
    confidence: null,
    reason,
  };
}

export const CONTENT_TYPES: Readonly<Record<DocumentFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  text: 'text/plain; charset=utf-8',
  unknown: 'application/octet-stream',
};
