import { parentPort, workerData } from 'node:worker_threads';

import sharp from 'sharp';

import type { ReadPage } from '../../domain/documents/document-reading';
import type { OcrEngine, PageRecogniser } from './ocr-engine';
import { createTesseractEngine } from './ocr-engine';
import { nativeCalls } from './native-guard';
import { createPaddleReader } from './paddle-engine';
import type { LineReader } from './paddle-engine';
import { readDocument } from './read-document';
import type { DocumentReadingLimits } from './reading-limits';

/**
 * A reading thread (see reading-pool.ts): reads one document at a time, telling the pool of each page
 * as it is read, then of the whole reading. A failure is answered with the error's name only, since a
 * message about a document could quote it.
 */
const { limits, nativeGuard } = workerData as {
  limits: DocumentReadingLimits;
  nativeGuard: SharedArrayBuffer;
};
const whileNative = nativeCalls(nativeGuard);
// Every step decodes its own buffer, so libvips's operation cache (process-wide, 50 MB by default)
// would save nothing, only keep the pixels of documents already read in memory.
sharp.cache(false);
let engine: Promise<PageRecogniser> | undefined;
let secondReader: Promise<LineReader> | undefined;

parentPort?.on('message', (message: { id: number; bytes: Uint8Array }) => {
  const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
  const ocr = lazyEngine();
  const onPage = (page: ReadPage) => parentPort?.postMessage({ id: message.id, page });
  readDocument(bytes, ocr, limits, onPage).then(
    (reading) => parentPort?.postMessage({ id: message.id, reading }),
    (error: unknown) =>
      parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.name : 'Error' }),
  );
});

/** The readers start on the first page that needs them: text and PDF text layers never pay for them. */
function lazyEngine(): OcrEngine {
  return {
    async recognise(image, pageNumber) {
      engine ??= createTesseractEngine();
      return (await engine).recognise(image, pageNumber);
    },
    async readRegion(image, region, kind, height) {
      engine ??= createTesseractEngine();
      return (await engine).readRegion(image, region, kind, height);
    },
    async detect(image) {
      secondReader ??= createPaddleReader({ whileNative });
      return (await secondReader).detect(image);
    },
    async readLines(image, found) {
      secondReader ??= createPaddleReader({ whileNative });
      return (await secondReader).readLines(image, found);
    },
    async orientation(image, found) {
      secondReader ??= createPaddleReader({ whileNative });
      return (await secondReader).orientation(image, found);
    },
    async close() {
      if (engine) await (await engine).close();
      if (secondReader) await (await secondReader).close();
    },
  };
}
