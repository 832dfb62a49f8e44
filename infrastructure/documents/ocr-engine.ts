import * as path from 'node:path';

import type { Box, ReadLine, ReadPage, ReadWord } from '../../domain/documents/document-reading';
import { lineForRecognition } from './line-polarity';
import { withoutRules } from './page-cleaning';

/** Recognises the words of one prepared page image. */
export interface PageRecogniser {
  recognise(image: Buffer, pageNumber: number): Promise<ReadPage>;
  /**
   * Reads one region of the image as a single line (a line the detector found and the page's own
   * segmentation missed, or an identifier the readers read differently), with its polarity, contrast
   * and table rules set from the region itself.
   */
  readRegion(image: Buffer, region: Box, kind?: RegionKind, height?: number): Promise<ReadLine | null>;
  close(): Promise<void>;
}

/**
 * The reading thread's two readers: Tesseract reads the page, and a second, independent reader
 * (paddle-engine.ts) reads the same prepared image again, so identifiers are used only where the two
 * agree (domain/payers/insurance-card.ts).
 */
export interface OcrEngine extends PageRecogniser {
  detect(image: Buffer): Promise<Box[]>;
  /** The image's lines, read in the boxes given where the detector already found them on it. */
  readLines(image: Buffer, found?: readonly Box[]): Promise<ReadLine[]>;
  orientation(image: Buffer, found?: readonly Box[]): Promise<number>;
}

/** Tesseract's English LSTM model, shipped in the npm package: nothing is fetched at run time. */
function trainedDataFolder(): string {
  const manifest = require.resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(manifest), '4.0.0_best_int');
}

interface TesseractBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface TesseractWord {
  text: string;
  confidence: number;
  bbox: TesseractBox;
}

interface TesseractLine {
  words: TesseractWord[];
  bbox: TesseractBox;
}

interface TesseractBlock {
  paragraphs: Array<{ lines: TesseractLine[] }>;
}

const IDENTIFIER_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-/';
const PREPARED_DPI = '300';

/** How a region is read on its own: as a line of any print, or as one identifier's characters. */
export type RegionKind = 'line' | 'identifier';

/**
 * tesseract.js (Apache-2.0) with its LSTM engine: the WebAssembly build runs in a worker thread of its
 * own, reads the trained data from node_modules (`cacheMethod: 'none'`, so nothing is written to the
 * working folder), and is started once per reading thread. Besides whole pages it reads single
 * regions the second reader's detector found: a line its page segmentation missed, or an identifier
 * the two readers read differently, read again restricted to the characters identifiers use.
 */
export async function createTesseractEngine(): Promise<PageRecogniser> {
  const tesseract = await import('tesseract.js');
  const options = { langPath: trainedDataFolder(), cacheMethod: 'none', gzip: true };
  const worker = await tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, options);
  // Prepared images carry no resolution; without one Tesseract guesses and warns on every page.
  await worker.setParameters({ user_defined_dpi: PREPARED_DPI });
  // One engine reads every region, its characters restricted while it reads an identifier: each engine
  // is a WebAssembly instance holding the trained data of its own, about 50 MB once warm. The
  // restriction is set on every read, so no read can inherit the one before it.
  let regionWorker: ReturnType<typeof createRegionWorker> | undefined;
  const createRegionWorker = async () => {
    const created = await tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, options);
    await created.setParameters({
      tessedit_pageseg_mode: tesseract.PSM.SINGLE_LINE,
      user_defined_dpi: PREPARED_DPI,
    });
    return created;
  };
  const regionReader = async (kind: RegionKind) => {
    regionWorker ??= createRegionWorker();
    const reader = await regionWorker;
    await reader.setParameters({
      tessedit_char_whitelist: kind === 'identifier' ? IDENTIFIER_CHARACTERS : '',
    });
    return reader;
  };

  return {
    async recognise(image, pageNumber) {
      const { data } = await worker.recognize(image, {}, { blocks: true, text: false });
      const blocks = (data.blocks ?? []) as unknown as TesseractBlock[];
      const size = await imageSize(image);
      const lines: ReadLine[] = [];
      for (const block of blocks) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            const words = line.words.filter((candidate) => candidate.text.trim() !== '').map(toWord);
            if (words.length > 0) lines.push({ words, box: toBox(line.bbox) });
          }
        }
      }
      const all = lines.flatMap((line) => line.words);
      const confidence = all.length ? all.reduce((sum, word) => sum + word.confidence, 0) / all.length : null;
      return { number: pageNumber, method: 'ocr', width: size.width, height: size.height, lines, confidence };
    },
    async readRegion(image, found, kind = 'line', regionHeight = REGION_HEIGHT) {
      const sharp = (await import('sharp')).default;
      const region = padded(found, await imageSize(image));
      const crop = await sharp(image)
        .extract(region)
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height } = crop.info;
      const scale = Math.max(1, Math.min(4, regionHeight / height));
      // A line read on its own keeps a margin above and below its letters: a run across nearly all of
      // it, or down nearly all of it, is a table's rule or a box's edge.
      const cleaned = withoutRules(lineForRecognition(crop.data, width, height), width, height, {
        across: Math.ceil(RULE_SHARE * width),
        down: Math.ceil(RULE_SHARE * height),
      });
      // Tesseract finds the letters of a line best with a little ground around them.
      const margin = Math.round(regionHeight / 8);
      const line = await sharp(cleaned, { raw: { width, height, channels: 1 } })
        .resize({ width: Math.round(width * scale) })
        .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#ffffff' })
        .png({ compressionLevel: 1 })
        .toBuffer();
      const { data } = await (await regionReader(kind)).recognize(line, {}, { blocks: true, text: false });
      const blocks = (data.blocks ?? []) as unknown as TesseractBlock[];
      const words = blocks
        .flatMap((block) =>
          block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((row) => row.words)),
        )
        .filter((word) => word.text.trim() !== '')
        .map(toWord)
        .map((word) => ({ ...word, box: placed(word.box, region, scale, margin) }));
      return words.length > 0 ? { words, box: region } : null;
    },
    async close() {
      await worker.terminate();
      if (regionWorker) await (await regionWorker).terminate();
    },
  };
}

/** A run of ink over this share of a line read on its own is a rule. */
const RULE_SHARE = 0.95;

/** A region read on its own is enlarged to about this height: its letters then stand 30–40 px high. */
export const REGION_HEIGHT = 96;

/**
 * A region with half its height of ground on either side and a fifth above and below, within the
 * image: a word box the second reader placed may end at its last letter's edge.
 */
function padded(region: Box, size: { width: number; height: number }): Box {
  const across = Math.round(region.height / 2);
  const down = Math.round(region.height / 5);
  const left = Math.max(0, region.left - across);
  const top = Math.max(0, region.top - down);
  return {
    left,
    top,
    width: Math.max(1, Math.min(size.width, region.left + region.width + across) - left),
    height: Math.max(1, Math.min(size.height, region.top + region.height + down) - top),
  };
}

/** A box found in an enlarged crop with a margin around it, in the page's own pixels. */
function placed(box: Box, region: Box, scale: number, margin: number): Box {
  return {
    left: Math.round(region.left + (box.left - margin) / scale),
    top: Math.round(region.top + (box.top - margin) / scale),
    width: Math.max(1, Math.round(box.width / scale)),
    height: Math.max(1, Math.round(box.height / scale)),
  };
}

function toWord(word: TesseractWord): ReadWord {
  return {
    text: word.text.trim(),
    confidence: Math.max(0, Math.min(1, word.confidence / 100)),
    box: toBox(word.bbox),
  };
}

function toBox(box: TesseractBox): ReadWord['box'] {
  return { left: box.x0, top: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 };
}

async function imageSize(image: Buffer): Promise<{ width: number; height: number }> {
  const sharp = (await import('sharp')).default;
  const metadata = await sharp(image).metadata();
  return { width: metadata.width ?? 0, height: metadata.height ?? 0 };
}
