/**
 * What a fax line and a table leave on a page besides its print: isolated dots (speckle), and rules.
 * Both are found on the grey page (dark print on light, as prepared) in one pass each, linear in its
 * pixels, before the page is recognised.
 */

/** Darker than this (0–255) is ink. */
const INK = 128;
/** A page with more lone ink pixels than this share of its pixels is speckled. */
const SPECKLED_SHARE = 0.0005;

/** A page with more pixels than this share between ink and paper is a photo or a grey scan, not a fax. */
const GREY_SHARE = 0.05;

/**
 * Whether a page is a speckled fax: black and white (hardly a pixel between ink and paper, where a
 * photo's ground, gradients and small print all are), with ink pixels that have no ink among their
 * eight neighbours, as a fax line sprinkles them; print has none (a stroke is wider than a pixel).
 * A photo is never taken for one: the 3 × 3 median that clears speckle would thin its small print.
 */
export function isSpeckled(pixels: Uint8Array, width: number, height: number): boolean {
  let grey = 0;
  for (let index = 0; index < pixels.length; index += 1) {
    if (pixels[index] > 48 && pixels[index] < 208) grey += 1;
  }
  if (grey > GREY_SHARE * pixels.length) return false;
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
 * A rule is ink where it is this much darker than the page's ground (its median grey), up to RULE_INK:
 * a hairline drawn at a card's scale and enlarged for reading is grey, not black.
 */
const RULE_BELOW_GROUND = 60;
const RULE_INK = 200;

function ruleInk(pixels: Uint8Array): number {
  return Math.min(RULE_INK, Math.max(INK, medianGrey(pixels) - RULE_BELOW_GROUND));
}

/** The middle grey (0–255) of some pixels: on a page or a line, its ground, which covers most of it. */
export function medianGrey(pixels: Uint8Array): number {
  const histogram = new Uint32Array(256);
  // Indexed, not iterated: a page is millions of pixels, and an iterator costs several times more.
  for (let index = 0; index < pixels.length; index += 1) histogram[pixels[index]] += 1;
  let median = 0;
  for (let seen = histogram[0]; seen < pixels.length / 2; seen += histogram[median]) median += 1;
  return median;
}

/** A rule is at most this many pixels thick: a solid band (a dark card, a coloured header) is no rule. */
const THICKEST_RULE = 8;

/**
 * The page with its rules made ground: thin runs of ink (at most THICKEST_RULE pixels thick at two of
 * the three points a quarter, half and three quarters along) across at least `across` pixels, or down
 * at least `down`, longer than any letter of the page's print is wide or tall (a table's borders, an
 * underline, a form's boxes), and thin runs down that join two rules across (a table's cell walls,
 * shorter than a tall letter where its rows are one line high). Letters a rule crossed keep their other
 * strokes; a solid band of colour is left as it is.
 */
export function withoutRules(
  pixels: Uint8Array,
  width: number,
  height: number,
  { across, down }: { across: number; down: number },
): Buffer {
  const cleaned = Buffer.from(pixels);
  const dark = ruleInk(pixels);
  const ink = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < width && y < height && pixels[y * width + x] < dark;
  /** How thick the ink is through (x, y), counted along (dx, dy) both ways. */
  const thickness = (x: number, y: number, dx: number, dy: number) => {
    let count = 1;
    for (let step = 1; step <= THICKEST_RULE && ink(x + step * dx, y + step * dy); step += 1) count += 1;
    for (let step = 1; step <= THICKEST_RULE && ink(x - step * dx, y - step * dy); step += 1) count += 1;
    return count;
  };
  const thin = (at: (fraction: number) => [number, number], dx: number, dy: number) =>
    [0.25, 0.5, 0.75].filter((fraction) => thickness(...at(fraction), dx, dy) <= THICKEST_RULE).length >= 2;
  const acrossRule = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    let run = 0;
    for (let x = 0; x <= width; x += 1) {
      if (x < width && pixels[y * width + x] < dark) run += 1;
      else {
        const start = x - run;
        if (run >= across && thin((fraction) => [start + Math.floor(fraction * run), y], 0, 1)) {
          cleaned.fill(255, y * width + start, y * width + x);
          acrossRule.fill(1, y * width + start, y * width + x);
        }
        run = 0;
      }
    }
  }
  // Runs down are counted row by row, a counter a column: walking each column down the page strides
  // across memory a row at a time, and took three times as long on a card.
  const runs = new Uint32Array(width);
  for (let y = 0; y <= height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (y < height && pixels[y * width + x] < dark) {
        runs[x] += 1;
        continue;
      }
      const run = runs[x];
      if (run === 0) continue;
      runs[x] = 0;
      const start = y - run;
      // A table's cell wall runs from one of its rules across to another, however short the rows.
      const wall =
        run > 2 * THICKEST_RULE &&
        acrossRule[start * width + x] === 1 &&
        acrossRule[(y - 1) * width + x] === 1;
      if ((run >= down || wall) && thin((fraction) => [x, start + Math.floor(fraction * run)], 1, 0)) {
        for (let row = start; row < y; row += 1) cleaned[row * width + x] = 255;
      }
    }
  }
  return cleaned;
}
