import type { ReadPage } from '../../domain/documents/document-reading';

/**
 * Pages a reading thread reads before it is replaced (DOCUMENT_READING_RECYCLE_AFTER_PAGES): a backstop
 * against memory its OCR engines never give back; over 400 card pages it grew, then levelled off
 * (docs/performance.md, "The reading thread's replacement and glibc's mmap threshold").
 */
export const RECYCLE_THREAD_AFTER_PAGES = 200;

/** The bounds of one document's reading (docs/documents.md, "Limits"). */
export interface DocumentReadingLimits {
  /** Pages recognised from pixels per document; the rest are listed as not read. */
  maxOcrPages: number;
  /** Pages whose text layer is read per document. */
  maxTextPages: number;
  /** Decoded pixels of one image or rendered page; a larger one (a decompression bomb) is not read. */
  maxInputPixels: number;
  /** The long side, in pixels, an image is brought to before recognition. */
  ocrLongSide: number;
  /** Pages of a document kept as preview images for the console, and their long side in pixels. */
  previewPages: number;
  previewLongSide: number;
}

export const DEFAULT_READING_LIMITS: DocumentReadingLimits = {
  maxOcrPages: 10,
  maxTextPages: 200,
  maxInputPixels: 40_000_000,
  ocrLongSide: 2000,
  previewPages: 10,
  previewLongSide: 1000,
};

/** Told of each page as it is read, so a caller that stops a slow reading keeps what was read. */
export type PageListener = (page: ReadPage) => void;
