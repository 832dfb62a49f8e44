import type { Sharp, SharpOptions } from 'sharp';

import { greyImageOf } from './grey-image';

/** Skews searched, in degrees either way: a card photographed askew, or a page fed crooked. */
const MAX_SKEW_DEGREES = 12;
const STEP_DEGREES = 0.5;
/** Below this a page is left as it is: a turn costs sharpness for nothing the recogniser minds. */
const MIN_CORRECTION_DEGREES = 1;
/** How much sharper than level the best angle's rows must be to count as a skew at all. */
const MIN_GAIN = 1.15;
/** The width the skew search looks at: enough for lines of print to show, small enough to be quick. */
const SEARCH_WIDTH = 600;
/** The width the slant search looks at: a lean moves a stroke a pixel or two a letter, lost at 600 px. */
const SLANT_SEARCH_WIDTH = 1200;
/** How far beside a dark pixel, in pixels of the search image, light must be for it to be a stroke. */
const STROKE = 2;
/** Fewer stroke pixels than this is a blank page. */
const MIN_STROKES = 50;
/** Lean searched, in pixels across per pixel down, either way: about 17°, a card photographed well off-square. */
const MAX_SLANT = 0.3;
const SLANT_STEP = 0.02;
/** Rows a band of the slant search spans: about a letter of a card's print at the slant search's width. */
const SLANT_BAND = 48;
/** How much sharper than upright the best lean's columns must be to count as a lean at all. */
const MIN_SLANT_GAIN = 1.1;
/** Below this a lean is left as it is: the recogniser reads print leaning a little as well as upright. */
const MIN_SLANT = 0.06;

/**
 * How far the print of a greyscale image (dark on light) is turned from level, in degrees, as
 * `sharp().rotate()` would level it (positive turns clockwise); 0 when it is level or has no lines.
 * Projection profiles: turned by the right angle, lines of print fall into few rows, so the squared row
 * counts of dark pixels peak there. Linear in the dark pixels for each angle tried.
 */
export function skewCorrection(pixels: Uint8Array, width: number, height: number): number {
  const strokes = strokesOf(pixels, width, height);
  // A blank page has no lines to level.
  if (strokes.xs.length < MIN_STROKES) return 0;
  const diagonal = Math.ceil(Math.hypot(width, height));
  const rows = new Float64Array(2 * diagonal + 1);
  const best = sharpest(-MAX_SKEW_DEGREES, MAX_SKEW_DEGREES, STEP_DEGREES, (angle) => {
    const radians = (angle * Math.PI) / 180;
    const [sin, cos] = [Math.sin(radians), Math.cos(radians)];
    rows.fill(0);
    for (let index = 0; index < strokes.xs.length; index += 1) {
      rows[Math.round(strokes.xs[index]! * sin + strokes.ys[index]! * cos) + diagonal]! += 1;
    }
    return sumOfSquares(rows);
  });
  // Print turned a right angle (a sideways card) has no rows at any small angle: its profile is flat,
  // and its sharpest angle means nothing.
  if (best.sharpness < best.level * MIN_GAIN) return 0;
  return Math.abs(best.at) < MIN_CORRECTION_DEGREES ? 0 : best.at;
}

/**
 * How far the upright strokes of print lean once it is turned by `turnDegrees` (as `sharp().rotate()`
 * turns), as their shift to the right per row down (a card photographed from one side, whose print
 * leans like a slanted face); 0 when they stand upright or lean too little to matter. Column profiles:
 * stood up, a letter's upright strokes fall into few columns.
 */
export function printLean(pixels: Uint8Array, width: number, height: number, turnDegrees = 0): number {
  const strokes = strokesOf(pixels, width, height);
  if (strokes.xs.length < MIN_STROKES) return 0;
  // The strokes are turned as the image will be, rather than the image turned and searched again.
  const radians = (turnDegrees * Math.PI) / 180;
  const [sin, cos] = [Math.sin(radians), Math.cos(radians)];
  const xs = new Float32Array(strokes.xs.length);
  const ys = new Float32Array(strokes.xs.length);
  for (let index = 0; index < xs.length; index += 1) {
    const [x, y] = [strokes.xs[index]!, strokes.ys[index]!];
    xs[index] = x * cos - y * sin;
    ys[index] = x * sin + y * cos;
  }
  const [left, right] = rangeOf(xs);
  const [top, bottom] = rangeOf(ys);
  const reach = Math.ceil(MAX_SLANT * SLANT_BAND);
  const span = Math.ceil(right - left) + 2 * reach + 1;
  // Columns are counted band by band, a band about a letter high: the strokes of one letter stand in
  // one band, and a long edge (a card's side, the table's edge) counts no more than a letter.
  const columns = new Float64Array(span * (Math.floor((bottom - top) / SLANT_BAND) + 1));
  const best = sharpest(-MAX_SLANT, MAX_SLANT, SLANT_STEP, (slant) => {
    columns.fill(0);
    for (let index = 0; index < xs.length; index += 1) {
      const y = ys[index]! - top;
      const band = Math.floor(y / SLANT_BAND);
      columns[band * span + Math.round(xs[index]! - left - slant * (y - band * SLANT_BAND)) + reach]! += 1;
    }
    return sumOfSquares(columns);
  });
  if (best.sharpness < best.level * MIN_SLANT_GAIN) return 0;
  return Math.abs(best.at) < MIN_SLANT ? 0 : best.at;
}

/** Dark pixels with light beside them: solid dark areas (a coloured band, the table around a card) are not print. */
function strokesOf(pixels: Uint8Array, width: number, height: number): { xs: Int32Array; ys: Int32Array } {
  const threshold = darkThreshold(pixels);
  const light = (x: number, y: number) => x >= 0 && x < width && pixels[y * width + x]! >= threshold;
  const isStroke = (x: number, y: number) =>
    pixels[y * width + x]! < threshold && (light(x - STROKE, y) || light(x + STROKE, y));
  // Counted first, so the coordinates fill two typed arrays rather than growing lists of boxed numbers.
  let count = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) if (isStroke(x, y)) count += 1;
  }
  const xs = new Int32Array(count);
  const ys = new Int32Array(count);
  let index = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (isStroke(x, y)) {
        xs[index] = x;
        ys[index] = y;
        index += 1;
      }
    }
  }
  return { xs, ys };
}

/** The setting from `from` to `to` whose profile is sharpest, and the sharpness at 0 to weigh it against. */
function sharpest(
  from: number,
  to: number,
  step: number,
  sharpnessAt: (setting: number) => number,
): { at: number; sharpness: number; level: number } {
  const steps = Math.round((to - from) / step);
  let best = { at: 0, sharpness: -1, level: 0 };
  for (let index = 0; index <= steps; index += 1) {
    const setting = from + index * step;
    const sharpness = sharpnessAt(setting);
    if (index * 2 === steps) best.level = sharpness;
    if (sharpness > best.sharpness) best = { ...best, at: setting, sharpness };
  }
  return best;
}

function rangeOf(values: Float32Array): [number, number] {
  let [least, most] = [Infinity, -Infinity];
  for (const value of values) {
    if (value < least) least = value;
    if (value > most) most = value;
  }
  return [least, most];
}

function sumOfSquares(counts: Float64Array): number {
  let sum = 0;
  for (const count of counts) sum += count * count;
  return sum;
}

/** Pixels darker than the page's mean by a third of its spread count as print. */
function darkThreshold(pixels: Uint8Array): number {
  let sum = 0;
  let min = 255;
  for (const value of pixels) {
    sum += value;
    if (value < min) min = value;
  }
  const mean = sum / Math.max(1, pixels.length);
  return mean - (mean - min) / 3;
}

/**
 * The prepared (greyscale, dark on light) image levelled when its print is turned by a degree or more,
 * then stood up when its print leans (both searched on a small copy), the corners filled white;
 * otherwise the image as it was.
 */
export async function levelled(
  prepared: Buffer,
  sharp: (input: Buffer, options?: SharpOptions) => Sharp,
): Promise<Buffer> {
  // One decode of the image at most; the two search sizes are made from its raw pixels.
  const decoded = await greyImageOf(prepared);
  const raw = { raw: { width: decoded.width, height: decoded.height, channels: 1 as const } };
  const fine = await searchPixels(sharp(decoded.pixels, raw), SLANT_SEARCH_WIDTH);
  const coarse = await searchPixels(sharp(decoded.pixels, raw), SEARCH_WIDTH);
  const angle = skewCorrection(...coarse);
  const lean = printLean(...fine, angle);
  const turned =
    angle === 0
      ? prepared
      : await sharp(prepared)
          .rotate(angle, { background: '#ffffff' })
          .greyscale()
          .png({ compressionLevel: 1 })
          .toBuffer();
  if (lean === 0) return turned;
  return sharp(turned)
    .affine(
      [
        [1, -lean],
        [0, 1],
      ],
      { background: '#ffffff' },
    )
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function searchPixels(image: Sharp, width: number): Promise<[Uint8Array, number, number]> {
  const { data, info } = await image
    .resize({ width, withoutEnlargement: true })
    .greyscale()
    .removeAlpha()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [new Uint8Array(data.buffer, data.byteOffset, data.length), info.width, info.height];
}
