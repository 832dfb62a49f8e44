import type { Box } from '../../domain/documents/document-reading';
import type { GreyImage } from './grey-image';

/**
 * A glyph at least this much wider than the median of its word's digits 2–9 is the letter O. Drawn
 * in every face installed here (DejaVu, Liberation, Noto, URW's Nimbus, C059, P052, Bookman, Gothic,
 * regular and bold), the digit 0 stood 0.95–1.07 of its face's digits and the letter O 1.21–1.70,
 * except in four monospace faces.
 */
const LETTER_O_WIDER = 1.18;
/** A glyph at most this wide against its word's digits is the width of a digit. */
const DIGIT_WIDE = 1.1;
/**
 * In DejaVu Sans Mono, Liberation Mono, Noto Mono and Noto Sans Mono the letter O is as narrow as a
 * digit (1.04–1.13), so a digit-wide glyph is a 0 only where the word shows its face is not one of
 * them: a letter of the word this much wider than its digits, which no letter of those faces is (at
 * most 1.30).
 */
const WIDE_LETTER = 1.35;
/**
 * Glyphs shorter than this many pixels are not judged: blurred at that size, a bold serif letter O
 * measured as wide as its digits (DejaVu Serif and C059 at 10–13 pixels).
 */
const LEAST_MEASURED_HEIGHT = 18;
/** Digits whose widths the glyph is measured against: 1 is narrow in most faces, and 0 is in question. */
const MEASURING_DIGITS = /[2-9]/;
/** Ink and ground must differ by this much (0–255) for the word's glyphs to be told apart. */
const LEAST_CONTRAST = 60;
/**
 * A round glyph whose top rows' ink stands this share of its height (and at least LEAST_LEAN_PIXELS)
 * to one side of its bottom rows' is slanted or slashed, and not judged: an oblique face widens the
 * ink of its diagonal letters more than of its round ones, so a monospace face's `X` passes the
 * width that proves a face is not monospace (`XKO27` in DejaVu Sans Mono Oblique, its letter O taken
 * for 0). Upright, an O or a 0 leans by a pixel at most.
 */
const LEAN_SHARE = 0.05;
const LEAST_LEAN_PIXELS = 1.5;

/**
 * Whether the glyph at `at` of an identifier printed in `box` is the digit 0 or the letter O, told by
 * its width against the same word's digits, which OCR's recognisers do not weigh: Tesseract reads a
 * wide 0 as O at every size. `read` is the word as read, one character per glyph. Undefined where
 * the glyphs cannot be told apart one by one, too few digits measure it, or its width leaves both.
 */
export function zeroOrLetterO(image: GreyImage, box: Box, read: string, at: number): '0' | 'O' | undefined {
  // A hyphen is too short to count as a glyph; the characters are matched to the glyphs without it.
  const text = read.slice(0, at).replace(/-/g, '') + read.slice(at).replace(/-/g, '');
  const index = at - (read.slice(0, at).match(/-/g)?.length ?? 0);
  const print = inkOf(image, box);
  const glyphs = print && glyphExtents(print);
  if (glyphs?.length !== text.length) return undefined;
  if (leans(print!, glyphs[index])) return undefined;
  if (Math.max(...glyphs.map(heightOf)) < LEAST_MEASURED_HEIGHT) return undefined;
  const widths = glyphs.map(widthOf);
  const digits = widths.filter((_, glyph) => glyph !== index && MEASURING_DIGITS.test(text[glyph]));
  if (digits.length < 2) return undefined;
  const digitWidth = median(digits);
  const ratio = widths[index] / digitWidth;
  if (ratio >= LETTER_O_WIDER) return 'O';
  if (ratio > DIGIT_WIDE) return undefined;
  // The face is judged from the word alone: a card may print its labels in one face and its ids in a
  // monospace one.
  const proportional = widths.some(
    (width, glyph) => glyph !== index && /[A-Z]/.test(text[glyph]) && width / digitWidth >= WIDE_LETTER,
  );
  return proportional ? '0' : undefined;
}

/** A mark this much shorter than the word's tallest glyph is a hyphen or a speck, not a glyph. */
const LEAST_GLYPH_HEIGHT = 0.5;

/** A box's print as ink (1) and ground (0), row by row. */
interface Ink {
  ink: Uint8Array;
  width: number;
  height: number;
}

/**
 * The box's print: ink is darker than halfway between the box's lightest and darkest pixels (a
 * prepared image is dark print on light ground). Undefined where the box has too little contrast to
 * hold print.
 */
function inkOf(image: GreyImage, box: Box): Ink | undefined {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  const width = Math.min(image.width, Math.ceil(box.left + box.width)) - left;
  const height = Math.min(image.height, Math.ceil(box.top + box.height)) - top;
  if (width <= 0 || height <= 0) return undefined;
  const ink = new Uint8Array(width * height);
  let [darkest, lightest] = [255, 0];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const value = image.pixels[(top + y) * image.width + left + x];
      darkest = Math.min(darkest, value);
      lightest = Math.max(lightest, value);
    }
  }
  if (lightest - darkest < LEAST_CONTRAST) return undefined;
  const threshold = (darkest + lightest) / 2;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      ink[y * width + x] = image.pixels[(top + y) * image.width + left + x] < threshold ? 1 : 0;
    }
  }
  return { ink, width, height };
}

/**
 * The glyphs of the print, left to right: each a connected run of ink, so a kerned pair (`RV`) whose
 * columns overlap is still two glyphs.
 */
function glyphExtents({ ink, width, height }: Ink): Extent[] {
  const glyphs = inkRuns(ink, width, height);
  const tallest = Math.max(0, ...glyphs.map(heightOf));
  return glyphs
    .filter((glyph) => heightOf(glyph) >= LEAST_GLYPH_HEIGHT * tallest)
    .sort((a, b) => a.left + a.right - (b.left + b.right));
}

/**
 * Whether the glyph's top quarter of rows centres its ink to one side of where its bottom quarter
 * does, by LEAN_SHARE of its height or more: print slanted, or a zero slashed.
 */
function leans({ ink, width }: Ink, glyph: Extent): boolean {
  const quarter = Math.max(1, Math.floor(heightOf(glyph) / 4));
  const centreOfRows = (from: number) => {
    let [sum, count] = [0, 0];
    for (let y = from; y < from + quarter; y += 1) {
      for (let x = glyph.left; x <= glyph.right; x += 1) {
        if (!ink[y * width + x]) continue;
        sum += x;
        count += 1;
      }
    }
    return count === 0 ? undefined : sum / count;
  };
  const top = centreOfRows(glyph.top);
  const bottom = centreOfRows(glyph.bottom - quarter + 1);
  if (top === undefined || bottom === undefined) return true;
  return Math.abs(top - bottom) >= Math.max(LEAST_LEAN_PIXELS, LEAN_SHARE * heightOf(glyph));
}

const widthOf = (glyph: Extent) => glyph.right - glyph.left + 1;
const heightOf = (glyph: Extent) => glyph.bottom - glyph.top + 1;

interface Extent {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The extents of the 8-connected runs of ink of a binary image, each pixel visited once. */
function inkRuns(ink: Uint8Array, width: number, height: number): Extent[] {
  const seen = new Uint8Array(ink.length);
  const stack: number[] = [];
  const runs: Extent[] = [];
  for (let start = 0; start < ink.length; start += 1) {
    if (!ink[start] || seen[start]) continue;
    const extent = { left: width, right: 0, top: height, bottom: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      const [x, y] = [at % width, Math.floor(at / width)];
      extent.left = Math.min(extent.left, x);
      extent.right = Math.max(extent.right, x);
      extent.top = Math.min(extent.top, y);
      extent.bottom = Math.max(extent.bottom, y);
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const next = ny * width + nx;
          if (ink[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    runs.push(extent);
  }
  return runs;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
