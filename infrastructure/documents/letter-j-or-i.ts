import type { Box } from '../../domain/documents/document-reading';
import { heightOf, widthOf, wordGlyphs } from './glyphs';
import type { Extent, WordGlyphs } from './glyphs';
import type { GreyImage } from './grey-image';

/**
 * A J's foot hooks to the left of its stem, where an I's foot is its stem alone or a serif reaching
 * as far to either side. Measured as how much further the glyph's bottom rows reach left of the stem
 * than right of it, in the glyph's heights. Drawn in every face installed here, upright, regular and
 * bold, at 20–96 pixels (docs/documents.md): the letter I measured at most HIGHEST_I_HOOK and the
 * letter J at least LOWEST_J_HOOK, but in P052, whose J barely hooks.
 */
const J_HOOK = 0.15;
/**
 * Glyphs shorter than this many pixels are not judged: a hook of a few pixels is lost to the blur of
 * a photo, and a serif's pixel may tip the measure.
 */
const LEAST_MEASURED_HEIGHT = 24;
/**
 * A stem whose rows' middles stray this share of the glyph's height (and at least LEAST_STRAY_PIXELS)
 * from the straight line through them is no stem: a script face's swash (Z003), which is not judged.
 */
const STRAY_SHARE = 0.04;
const LEAST_STRAY_PIXELS = 1.5;
/** An I or a J is at most this wide for its height (a J's hook included), in every face measured. */
const MOST_WIDTH = 1;
/** And at least this tall against the median of its word's other glyphs (capitals and digits). */
const LEAST_HEIGHT_SHARE = 0.9;
/** Print slanted further than this (pixels across a row down) is not judged. */
const MOST_SLANT = 0.35;

/** Where the stem is measured, and where the foot, as shares of the glyph's height from its top. */
const STEM: readonly [number, number] = [0.18, 0.55];
const FOOT: readonly [number, number] = [0.82, 1];

/**
 * Whether the glyph at `at` of an identifier printed in `box` (read as `read`, one character a glyph)
 * is the letter J or the letter I, told by its foot: Tesseract reads a J as I in some faces at every
 * size (`GINSRR` for `GJNSRR`), and rereads settle nothing. The stem is followed down as it runs, so
 * an italic I's foot, which stands left of its top as a J's hook does, is measured against its own
 * slanted stem. Undefined where the glyphs cannot be told apart one by one, the glyph is too small to
 * judge or has no straight stem, or its foot leaves both.
 */
export function letterJOrI(image: GreyImage, box: Box, read: string, at: number): 'J' | 'I' | undefined {
  const word = wordGlyphs(image, box, read, at);
  if (!word) return undefined;
  const glyph = word.glyphs[word.index];
  const height = heightOf(glyph);
  if (height < LEAST_MEASURED_HEIGHT || !stemLike(glyph, word.glyphs)) return undefined;
  const stemRows = rowEdges(word, glyph, STEM, true);
  const footRows = rowEdges(word, glyph, FOOT);
  const stem = straightStem(stemRows, height);
  if (!stem || footRows.length === 0) return undefined;
  const half = stem.width / 2;
  const leftReach = Math.max(...footRows.map((row) => stem.middleAt(row.y) - half - row.left));
  const rightReach = Math.max(...footRows.map((row) => row.right - stem.middleAt(row.y) - half));
  const hook = (leftReach - rightReach) / height;
  if (hook >= J_HOOK) return 'J';
  return hook <= 0 ? 'I' : undefined;
}

/**
 * Whether the glyph has an I's or a J's build: narrow, and as tall as the word's glyphs are. A glyph
 * parted in two and two run together can still match a reading's characters in count, and then the
 * glyph measured is a piece of another (the tail of a script G, blurred).
 */
function stemLike(glyph: Extent, glyphs: readonly Extent[]): boolean {
  const others = glyphs.filter((other) => other !== glyph).map(heightOf);
  return (
    widthOf(glyph) <= MOST_WIDTH * heightOf(glyph) &&
    (others.length === 0 || heightOf(glyph) >= LEAST_HEIGHT_SHARE * median(others))
  );
}

/** A row of the glyph: its leftmost and rightmost ink. */
interface RowEdges {
  y: number;
  left: number;
  right: number;
}

/**
 * The glyph's rows in a band of its height (shares from its top) that hold its ink: each row's
 * furthest ink, or with `stemOnly`, its rightmost stroke, the stem a J's hook rises beside (as high
 * as half its height in Nimbus Mono PS).
 */
function rowEdges(
  { print, owner }: WordGlyphs,
  glyph: Extent,
  [from, to]: readonly [number, number],
  stemOnly = false,
): RowEdges[] {
  const height = heightOf(glyph);
  const first = glyph.top + Math.floor(from * height);
  const last = Math.min(glyph.bottom, glyph.top + Math.ceil(to * height) - 1);
  const rows: RowEdges[] = [];
  for (let y = first; y <= last; y += 1) {
    const isInk = (x: number) => owner[y * print.width + x] === glyph.run;
    let right = glyph.right;
    while (right >= glyph.left && !isInk(right)) right -= 1;
    if (right < glyph.left) continue;
    let left = stemOnly ? right : glyph.left;
    if (stemOnly) while (left > glyph.left && isInk(left - 1)) left -= 1;
    else while (!isInk(left)) left += 1;
    rows.push({ y, left, right });
  }
  return rows;
}

/**
 * The straight line the stem's rows run along (least squares through their middles) and its width,
 * or undefined where the rows stray from any line or slant too far to be upright or italic print.
 */
function straightStem(
  rows: readonly RowEdges[],
  height: number,
): { middleAt: (y: number) => number; width: number } | undefined {
  if (rows.length < 3) return undefined;
  const middles = rows.map((row) => ({ y: row.y, x: (row.left + row.right) / 2 }));
  const meanY = middles.reduce((sum, point) => sum + point.y, 0) / middles.length;
  const meanX = middles.reduce((sum, point) => sum + point.x, 0) / middles.length;
  const spread = middles.reduce((sum, point) => sum + (point.y - meanY) ** 2, 0);
  const slope = middles.reduce((sum, point) => sum + (point.y - meanY) * (point.x - meanX), 0) / spread;
  const middleAt = (y: number) => meanX + slope * (y - meanY);
  const stray = Math.max(...middles.map((point) => Math.abs(point.x - middleAt(point.y))));
  if (Math.abs(slope) > MOST_SLANT || stray >= Math.max(LEAST_STRAY_PIXELS, STRAY_SHARE * height))
    return undefined;
  return { middleAt, width: median(rows.map((row) => row.right - row.left)) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
