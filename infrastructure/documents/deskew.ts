import type { Sharp } from 'sharp';

/** Skews searched, in degrees either way: a card photographed askew, or a page fed crooked. */
const MAX_SKEW_DEGREES = 12;
const STEP_DEGREES = 0.5;
/** Below this a page is left as it is: a turn costs sharpness for nothing the recogniser minds. */
const MIN_CORRECTION_DEGREES = 1;
/** How much sharper than level the best angle's rows must be to count as a skew at all. */
const MIN_GAIN = 1.15;
/** The width the search looks at: enough for lines of print to show, small enough to be quick. */
const SEARCH_WIDTH = 600;
/** How far beside a dark pixel, in pixels of the search image, light must be for it to be a stroke. */
const STROKE = 2;

/**
 * How far the print of a greyscale image (dark on light) is turned from level, in degrees, as
 * `sharp().rotate()` would level it (positive turns clockwise); 0 when it is level or has no lines.
 * Projection profiles: turned by the right angle, lines of print fall into few rows, so the squared row
 * counts of dark pixels peak there. Linear in the dark pixels for each angle tried.
 */
export function skewCorrection(pixels: Uint8Array, width: number, height: number): number {
  const threshold = darkThreshold(pixels);
  const xs: number[] = [];
  const ys: number[] = [];
  // Strokes only: a dark pixel with light beside it. Solid dark areas (a coloured band, the table
  // around a photographed card) would count as lines of their own otherwise.
  const light = (x: number, y: number) => x >= 0 && x < width && pixels[y * width + x]! >= threshold;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (pixels[y * width + x]! < threshold && (light(x - STROKE, y) || light(x + STROKE, y))) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  // A blank page has no lines to level.
  if (xs.length < 50) return 0;
  const diagonal = Math.ceil(Math.hypot(width, height));
  const rows = new Float64Array(2 * diagonal + 1);
  let best = { angle: 0, sharpness: -1 };
  let level = 0;
  for (let angle = -MAX_SKEW_DEGREES; angle <= MAX_SKEW_DEGREES; angle += STEP_DEGREES) {
    const radians = (angle * Math.PI) / 180;
    const [sin, cos] = [Math.sin(radians), Math.cos(radians)];
    rows.fill(0);
    for (let index = 0; index < xs.length; index += 1) {
      rows[Math.round(xs[index]! * sin + ys[index]! * cos) + diagonal]! += 1;
    }
    let sharpness = 0;
    for (const count of rows) sharpness += count * count;
    if (angle === 0) level = sharpness;
    if (sharpness > best.sharpness) best = { angle, sharpness };
  }
  // Print turned a right angle (a sideways card) has no rows at any small angle: its profile is flat,
  // and its sharpest angle means nothing.
  if (best.sharpness < level * MIN_GAIN) return 0;
  return Math.abs(best.angle) < MIN_CORRECTION_DEGREES ? 0 : best.angle;
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
 * the corners it turns in filled white; otherwise the image as it was.
 */
export async function levelled(prepared: Buffer, sharp: (input: Buffer) => Sharp): Promise<Buffer> {
  const { data, info } = await sharp(prepared)
    .resize({ width: SEARCH_WIDTH, withoutEnlargement: true })
    .greyscale()
    .removeAlpha()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const angle = skewCorrection(
    new Uint8Array(data.buffer, data.byteOffset, data.length),
    info.width,
    info.height,
  );
  if (angle === 0) return prepared;
  return sharp(prepared)
    .rotate(angle, { background: '#ffffff' })
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
}
