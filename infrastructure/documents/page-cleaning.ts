import type { Box } from '../../domain/documents/document-reading';

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

/** A cell wall differs from its box's ground by this much (0–255), darker or lighter. */
const WALL_CONTRAST = 48;
/**
 * A cell wall runs unbroken from the box's top or bottom edge down (or up) this share of the box, and
 * this many times as far as any letter's stroke runs inside it: the detector's box holds a line's
 * letters with a margin above and below, and a table's wall crosses that margin, while its box may
 * reach past the table's rule.
 */
const WALL_ROWS = 0.6;
const WALL_LETTERS = 1.2;
/**
 * Ground either side of a wall, clear of print, at least this share of its box's height across, in
 * the middle rows and in as many rows at the edge it meets.
 */
const WALL_MARGIN = 0.15;
/** Columns either side of a wall that may hold the rest of it. */
const WALL_NEIGHBOURS = 3;

/**
 * The detector's boxes parted at the cell walls they cross. The detector boxes a row of a table's
 * cells as one line where the walls are thin (`RX BIN | RX PCN | RXGROUP` over one box), and the
 * recogniser, reading one crop, runs the cells' values into one word (`AEC06584994217KWCZVFVRX4972`).
 * Each cell is read on its own instead, and a box's own border is left out. Only boxes running across
 * are parted: a sideways page is stood up first.
 */
export function atCellWalls(boxes: readonly Box[], pixels: Uint8Array, width: number): Box[] {
  return boxes.flatMap((box) => (box.width > box.height ? partedAtWalls(box, pixels, width) : [box]));
}

function partedAtWalls(box: Box, pixels: Uint8Array, width: number): Box[] {
  const inBox = new Uint8Array(box.width * box.height);
  for (let y = 0; y < box.height; y += 1) {
    const from = (box.top + y) * width + box.left;
    inBox.set(pixels.subarray(from, from + box.width), y * box.width);
  }
  const ground = medianGrey(inBox);
  // Each column's run of ink from the box's top edge and to its bottom edge, and its longest run that
  // touches neither: a wall crosses an edge, a letter stands inside.
  const fromTop = new Uint32Array(box.width);
  const toBottom = new Uint32Array(box.width);
  const inside = new Uint32Array(box.width);
  const run = new Uint32Array(box.width);
  const inked = inBox.map((value) => (Math.abs(value - ground) > WALL_CONTRAST ? 1 : 0));
  for (let y = 0; y < box.height; y += 1) {
    for (let x = 0; x < box.width; x += 1) {
      const ink = inked[y * box.width + x] === 1;
      if (!ink && run[x] > 0 && run[x] < y) inside[x] = Math.max(inside[x], run[x]);
      run[x] = ink ? run[x] + 1 : 0;
      if (ink && run[x] === y + 1) fromTop[x] = run[x];
    }
  }
  for (let x = 0; x < box.width; x += 1) toBottom[x] = run[x];
  const edgeRun = (x: number) => Math.max(fromTop[x], toBottom[x]);
  const candidate = (x: number) => x >= 0 && x < box.width && edgeRun(x) >= WALL_ROWS * box.height;
  // A wall drawn a little off the pixel grid (a photo warped flat) stands in two columns, one of which
  // may stop short of the edge: columns beside a candidate are no measure of the letters.
  const besideCandidate = (x: number) => {
    for (let near = x - WALL_NEIGHBOURS; near <= x + WALL_NEIGHBOURS; near += 1)
      if (candidate(near)) return true;
    return false;
  };
  let letterHeight = 0;
  for (let x = 0; x < box.width; x += 1)
    if (!besideCandidate(x)) letterHeight = Math.max(letterHeight, inside[x]);
  // A wall stands clear of the print either side of it, in the box's middle rows and in the rows at
  // the edge it meets, as a cell holds its print off its walls. A letter's stem meeting the edge of a
  // box drawn tight round its letters (`T`, `B`, `1`) stands against the rest of its letter or the
  // next, in one or the other: a `T`'s bar beside its stem's top. A rule along the box's edge, drawn
  // aslant, crosses the rows between.
  const band = Math.ceil(WALL_MARGIN * box.height);
  const inkedIn = (from: number, to: number) => {
    const inColumn = new Uint8Array(box.width);
    for (let y = from; y < to; y += 1) {
      for (let x = 0; x < box.width; x += 1) inColumn[x] |= inked[y * box.width + x];
    }
    return inColumn;
  };
  const inkedInMiddle = inkedIn(Math.floor(box.height / 4), Math.ceil((3 * box.height) / 4));
  const inkedAtTop = inkedIn(0, band);
  const inkedAtBottom = inkedIn(box.height - band, box.height);
  const clearBeside = (x: number, inked: Uint8Array) =>
    [
      [x - WALL_NEIGHBOURS - band, x - WALL_NEIGHBOURS],
      [x + WALL_NEIGHBOURS + 1, x + WALL_NEIGHBOURS + 1 + band],
    ].every(([from, to]) =>
      inked.subarray(Math.max(0, from), Math.min(box.width, to)).every((value) => value === 0),
    );
  const standsClear = (x: number) =>
    clearBeside(x, inkedInMiddle) && clearBeside(x, fromTop[x] >= toBottom[x] ? inkedAtTop : inkedAtBottom);
  const isWall = (x: number) => candidate(x) && edgeRun(x) >= WALL_LETTERS * letterHeight && standsClear(x);
  const pieces: Box[] = [];
  let pieceStart = 0;
  let x = 0;
  while (x <= box.width) {
    if (x < box.width && !isWall(x)) {
      x += 1;
      continue;
    }
    let wallEnd = x;
    while (isWall(wallEnd)) wallEnd += 1;
    // A band wider than a rule is print or a panel's edge, not a wall: it stays in its piece.
    if (wallEnd - x > THICKEST_RULE) {
      x = wallEnd;
      continue;
    }
    const hasInk = inside.subarray(pieceStart, x).some((length) => length > 0);
    if (x - pieceStart > THICKEST_RULE && hasInk)
      pieces.push({ ...box, left: box.left + pieceStart, width: x - pieceStart });
    pieceStart = wallEnd;
    x = wallEnd + 1;
  }
  return pieces.length > 0 ? pieces : [box];
}
