import { medianGrey } from './page-cleaning';

/** A line is stretched so its darkest and lightest few pixels span the whole range. */
const STRETCH_TAIL = 0.02;

/**
 * Whether a line is light print on a darker ground. Ground covers most of a line's box and print the
 * rest, so the median pixel is ground: where the mean is lighter than the median, the print pulling it
 * is lighter than its ground. A table's rules or a card's edge in the box, thin as they are, do not
 * move the median. A white name on a gradient card and a dark label on a pale band each decide for
 * themselves.
 */
export function isLightOnDark(pixels: Uint8Array, width: number, height: number): boolean {
  const count = width * height;
  if (count === 0) return false;
  let sum = 0;
  for (let index = 0; index < count; index += 1) sum += pixels[index];
  return sum / count > medianGrey(pixels.subarray(0, count));
}

/**
 * A grey line as the recogniser expects it: dark print on light, its contrast stretched between its
 * own darkest and lightest pixels (the 2nd and 98th percentiles, so a speck or a glint does not set them).
 */
export function lineForRecognition(pixels: Uint8Array, width: number, height: number): Buffer {
  const invert = isLightOnDark(pixels, width, height);
  const histogram = new Uint32Array(256);
  for (const value of pixels) histogram[value] += 1;
  const tail = Math.floor(pixels.length * STRETCH_TAIL);
  let low = 0;
  for (let seen = 0; low < 255 && seen + histogram[low] <= tail; low += 1) seen += histogram[low];
  let high = 255;
  for (let seen = 0; high > 0 && seen + histogram[high] <= tail; high -= 1) seen += histogram[high];
  const range = Math.max(1, high - low);
  const line = Buffer.alloc(pixels.length);
  for (let index = 0; index < pixels.length; index += 1) {
    const stretched = Math.max(0, Math.min(255, Math.round(((pixels[index] - low) * 255) / range)));
    line[index] = invert ? 255 - stretched : stretched;
  }
  return line;
}
