import type { Box } from '../../domain/documents/document-reading';
import type { GreyImage } from './grey-image';

/**
 * A printed word's glyphs, each found as a connected run of ink: what the glyph arbiters
 * (zero-or-letter-o.ts, letter-j-or-i.ts) measure, since OCR's recognisers do not weigh a glyph's shape
 * against its word's other glyphs.
 */

/** Ink and ground must differ by this much (0–255) for the word's glyphs to be told apart. */
const LEAST_CONTRAST = 60;

/** The print of a word, and its glyphs one for each character of its reading, hyphens aside. */
export interface WordGlyphs {
  print: Ink;
  glyphs: Extent[];
  /** Which glyph's run of ink each pixel of the print belongs to (`Extent.run`), 0 for ground. */
  owner: Int32Array;
  /** The reading without its hyphens, one character a glyph. */
  text: string;
  /** Where the character asked about stands among the glyphs. */
  index: number;
}

/**
 * The glyphs of a word printed in `box` and read as `read`, with the place of the character at `at`
 * among them. Undefined where the box holds too little contrast or the glyphs do not match the
 * reading's characters one for one.
 */
export function wordGlyphs(image: GreyImage, box: Box, read: string, at: number): WordGlyphs | undefined {
  // A hyphen is too short to count as a glyph; the characters are matched to the glyphs without it.
  const text = read.slice(0, at).replace(/-/g, '') + read.slice(at).replace(/-/g, '');
  const index = at - (read.slice(0, at).match(/-/g)?.length ?? 0);
  const print = inkOf(image, box);
  if (!print) return undefined;
  const { glyphs, owner } = glyphExtents(print);
  if (glyphs.length !== text.length) return undefined;
  return { print, glyphs, owner, text, index };
}

/** A mark this much shorter than the word's tallest glyph is a hyphen or a speck, not a glyph. */
const LEAST_GLYPH_HEIGHT = 0.5;

/** A box's print as ink (1) and ground (0), row by row. */
export interface Ink {
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
function glyphExtents({ ink, width, height }: Ink): { glyphs: Extent[]; owner: Int32Array } {
  const { runs, owner } = inkRuns(ink, width, height);
  const tallest = Math.max(0, ...runs.map(heightOf));
  const glyphs = runs
    .filter((glyph) => heightOf(glyph) >= LEAST_GLYPH_HEIGHT * tallest)
    .sort((a, b) => a.left + a.right - (b.left + b.right));
  return { glyphs, owner };
}

export const widthOf = (glyph: Extent) => glyph.right - glyph.left + 1;
export const heightOf = (glyph: Extent) => glyph.bottom - glyph.top + 1;

export interface Extent {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Which run of ink the glyph is: a neighbour's ink may reach into its extent (an italic `V` beside `I`). */
  run: number;
}

/**
 * The extents of the 8-connected runs of ink of a binary image, each pixel visited once, and which run
 * each pixel of ink belongs to (its `run`; 0 for ground).
 */
function inkRuns(ink: Uint8Array, width: number, height: number): { runs: Extent[]; owner: Int32Array } {
  const owner = new Int32Array(ink.length);
  const stack: number[] = [];
  const runs: Extent[] = [];
  for (let start = 0; start < ink.length; start += 1) {
    if (!ink[start] || owner[start]) continue;
    const extent = { left: width, right: 0, top: height, bottom: 0, run: runs.length + 1 };
    owner[start] = extent.run;
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
          if (ink[next] && !owner[next]) {
            owner[next] = extent.run;
            stack.push(next);
          }
        }
      }
    }
    runs.push(extent);
  }
  return { runs, owner };
}
