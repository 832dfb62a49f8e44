import type { Box } from '../../domain/documents/document-reading';
import { heightOf, wordGlyphs, widthOf } from './glyphs';
import type { Extent, Ink } from './glyphs';
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
  const word = wordGlyphs(image, box, read, at);
  if (!word) return undefined;
  const { print, glyphs, text, index } = word;
  if (leans(print, glyphs[index])) return undefined;
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
