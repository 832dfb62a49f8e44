import sharp from 'sharp';

import type { ReadLine, ReadPage } from '../../domain/documents/document-reading';
import type { OcrEngine } from '../../infrastructure/documents/ocr-engine';
import { readDocument } from '../../infrastructure/documents/read-document';
import { DEFAULT_READING_LIMITS } from '../../infrastructure/documents/reading-limits';

/** A plain light page, enough for the reading's preparation to run its course. */
async function page(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 380, channels: 3, background: '#f4f4f4' } })
    .png()
    .toBuffer();
}

const sureWords: ReadLine[] = [
  {
    words: ['MEMBER', 'ID', 'W123456789', 'GROUP'].map((text, index) => ({
      text,
      confidence: 0.95,
      box: { left: 20 + index * 120, top: 40, width: 100, height: 20 },
    })),
    box: { left: 20, top: 40, width: 460, height: 20 },
  },
];

/**
 * Readers that record when each reading starts and ends; Tesseract's page reading is held until it is
 * released, as a reading in a thread of its own stays under way while the other reader works.
 */
function recordingReaders() {
  const events: string[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const engine: OcrEngine = {
    async recognise(_image, number): Promise<ReadPage> {
      events.push('first reader starts');
      await Promise.race([held, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      events.push('first reader ends');
      return { number, method: 'ocr', width: 600, height: 380, lines: sureWords, confidence: 0.95 };
    },
    async readLines() {
      events.push('second reader starts');
      release();
      return [];
    },
    async detect() {
      return [];
    },
    async orientation() {
      return 0;
    },
    async readRegion() {
      return null;
    },
    async close() {},
  };
  return { engine, events };
}

describe('the two readers of a page', () => {
  it('read it side by side: the second starts while the first is still reading', async () => {
    const { engine, events } = recordingReaders();
    await readDocument(await page(), engine, DEFAULT_READING_LIMITS);
    expect(events).toEqual(['first reader starts', 'second reader starts', 'first reader ends']);
  });
});
