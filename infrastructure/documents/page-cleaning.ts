/**
 * What a fax line and a table leave on a page besides its print: isolated dots (speckle), and rules.
 * Both are found on the grey page (dark print on light, as prepared) in one pass each, linear in its
 * pixels, before the page is recognised.
 */

/** Darker than this (0–255) is ink. */
const INK = 128;
/** A page with more lone ink pixels than this share of its pixels is speckled. */
const SPECKLED_SHARE = 0.0005;

/**
 * Whether a page is speckled: ink pixels with no ink among their eight neighbours, as a fax line
 * sprinkles them; print has none (a stroke is wider than a pixel).
 */
export function isSpeckled(pixels: Uint8Array, width: number, height: number): boolean {
  let lone = 0;
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const index = y * width + x;
      if (pixels[index] >= INK) continue;
      let neighbours = 0;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1) {
          if ((dx !== 0 || dy !== 0) && pixels[index + dy * width + dx] < INK) neighbours += 1;
        }
      }
      if (neighbours === 0) lone += 1;
    }
  }
  return lone > SPECKLED_SHARE * width * height;
}

/**
 * The page with its rules made ground: runs of ink across at least `across` pixels, or down at least
 * `down`, longer than any letter of the page's print is wide or tall (a table's borders, an underline,
 * a form's boxes). Letters a rule crossed keep their other strokes.
 */
export function withoutRules(
  pixels: Uint8Array,
  width: number,
  height: number,
  { across, down }: { across: number; down: number },
): Buffer {
  const cleaned = Buffer.from(pixels);
  for (let y = 0; y < height; y += 1) {
    let run = 0;
    for (let x = 0; x <= width; x += 1) {
      if (x < width && pixels[y * width + x] < INK) run += 1;
      else {
        if (run >= across) cleaned.fill(255, y * width + x - run, y * width + x);
        run = 0;
      }
    }
  }
  for (let x = 0; x < width; x += 1) {
    let run = 0;
    for (let y = 0; y <= height; y += 1) {
      if (y < height && pixels[y * width + x] < INK) run += 1;
      else {
        if (run >= down) for (let row = y - run; row < y; row += 1) cleaned[row * width + x] = 255;
        run = 0;
      }
    }
  }
  return cleaned;
}
