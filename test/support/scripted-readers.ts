import sharp from 'sharp';

import type { ReadLine, ReadPage, ReadWord } from '../../domain/documents/document-reading';
import type { OcrEngine } from '../../infrastructure/documents/ocr-engine';

/** A plain light page, enough for a reading's preparation to run its course before its readers read it. */
export async function blankPage(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 380, channels: 3, background: '#f4f4f4' } })
    .png()
    .toBuffer();
}

/** A word at a place on the page, read at a confidence. */
export function wordAt(text: string, left: number, top: number, width: number, confidence = 0.95): ReadWord {
  return { text, confidence, box: { left, top, width, height: 20 } };
}

export function lineOf(...words: ReadWord[]): ReadLine {
  const left = Math.min(...words.map((word) => word.box.left));
  const right = Math.max(...words.map((word) => word.box.left + word.box.width));
  return { words, box: { left, top: words[0].box.top, width: right - left, height: 20 } };
}

/**
 * Readers that give what they are told: the first reader's page and the second reader's lines, and
 * for any region read again, `reread` of it. Everything a reading does around them runs for real.
 */
export function scriptedReaders(script: {
  first: ReadLine[];
  second: ReadLine[];
  reread?: (kind: string | undefined, height: number | undefined) => string | null;
  onRecognise?: (image: Buffer) => Promise<void>;
  onReadLines?: () => void;
}): OcrEngine {
  return {
    async recognise(image, number): Promise<ReadPage> {
      await script.onRecognise?.(image);
      const words = script.first.flatMap((line) => line.words);
      const confidence = words.reduce((sum, word) => sum + word.confidence, 0) / Math.max(1, words.length);
      return { number, method: 'ocr', width: 600, height: 380, lines: script.first, confidence };
    },
    async readLines() {
      script.onReadLines?.();
      return script.second;
    },
    async detect() {
      return [];
    },
    async orientation() {
      return 0;
    },
    async readRegion(_image, region, kind, height) {
      const text = script.reread?.(kind, height) ?? null;
      if (text === null) return null;
      const word = { text, confidence: 0.9, box: region };
      return { words: [word], box: region };
    },
    async close() {},
  };
}
