import type { Box } from '../../domain/documents/document-reading';

/**
 * Glare on a photographed card: a patch of its ground washed out far lighter than the rest of it. The
 * page's ground is measured over square blocks, and blocks well lighter than the ground around them
 * (and near white, on a pale card) are glare. Patches of a few blocks or more
 * are kept, each as the box around it. A white card's glare cannot be told from its ground, and is not
 * reported.
 */

/** Side, in pixels of the prepared page, of the blocks averaged. */
const BLOCK = 16;
/** A glare block is at least this light (0–255)… */
const GLARE_LIGHTEST = 232;
/** …and this much lighter than the card's ground. */
const GLARE_ABOVE_GROUND = 28;
/** A dark card's glare is a grey veil over it: its ground this much lighter than the rest. */
const GLARE_ABOVE_DARK_GROUND = 70;
/** Blocks a patch needs to count: a glint on an embossed letter is not glare over a field. */
const LEAST_BLOCKS = 6;

/** The mean of the lighter half of one block: its mean, then the mean of the pixels at or above it. */
function blockGround(pixels: Uint8Array, width: number, left: number, top: number): number {
  let sum = 0;
  for (let y = top; y < top + BLOCK; y += 1) {
    for (let x = left; x < left + BLOCK; x += 1) sum += pixels[y * width + x];
  }
  const mean = sum / (BLOCK * BLOCK);
  let [lighterSum, lighter] = [0, 0];
  for (let y = top; y < top + BLOCK; y += 1) {
    for (let x = left; x < left + BLOCK; x += 1) {
      const value = pixels[y * width + x];
      if (value >= mean) [lighterSum, lighter] = [lighterSum + value, lighter + 1];
    }
  }
  return Math.round(lighterSum / lighter);
}

/**
 * The glare patches of a prepared grey page, dark print on light; `inverted` when it was made so by
 * inverting a dark card, whose glare is then the darkest ground.
 */
export function glarePatches(pixels: Uint8Array, width: number, height: number, inverted: boolean): Box[] {
  const across = Math.floor(width / BLOCK);
  const down = Math.floor(height / BLOCK);
  if (across === 0 || down === 0) return [];
  // Each block's ground is the mean of its lighter half, so print in it does not hide glare over it.
  const grounds = new Uint8Array(across * down);
  for (let row = 0; row < down; row += 1) {
    for (let column = 0; column < across; column += 1) {
      const ground = blockGround(pixels, width, column * BLOCK, row * BLOCK);
      grounds[row * across + column] = inverted ? 255 - ground : ground;
    }
  }
  const around = surroundingGround(grounds, across, down);
  const glared = (block: number) =>
    inverted
      ? grounds[block] >= around[block] + GLARE_ABOVE_DARK_GROUND
      : grounds[block] >= Math.max(GLARE_LIGHTEST, around[block] + GLARE_ABOVE_GROUND);
  // The outermost blocks may hold the card's edge or a sliver of the desk, never a field.
  const inner = (block: number) => {
    const [column, row] = [block % across, Math.floor(block / across)];
    return column > 0 && row > 0 && column < across - 1 && row < down - 1;
  };
  const seen = new Uint8Array(grounds.length);
  const patches: Box[] = [];
  for (let start = 0; start < grounds.length; start += 1) {
    if (seen[start] || !glared(start) || !inner(start)) continue;
    const queue = [start];
    const edgeSteps: number[] = [];
    seen[start] = 1;
    let [left, top, right, bottom] = [across, down, 0, 0];
    for (let next = 0; next < queue.length; next += 1) {
      const block = queue[next];
      const [column, row] = [block % across, Math.floor(block / across)];
      [left, top, right, bottom] = [
        Math.min(left, column),
        Math.min(top, row),
        Math.max(right, column),
        Math.max(bottom, row),
      ];
      const neighbours = [
        column > 0 ? block - 1 : -1,
        column < across - 1 ? block + 1 : -1,
        row > 0 ? block - across : -1,
        row < down - 1 ? block + across : -1,
      ];
      for (const neighbour of neighbours) {
        if (neighbour < 0 || seen[neighbour]) continue;
        if (!glared(neighbour) || !inner(neighbour)) {
          edgeSteps.push(Math.abs(grounds[block] - grounds[neighbour]));
          continue;
        }
        seen[neighbour] = 1;
        queue.push(neighbour);
      }
    }
    // Glare fades into the ground around it; a white box printed on a tinted card (a table's cells)
    // stops at a sharp edge, the whole step from one block to the next.
    const peak = queue.reduce((lightest, block) => (grounds[block] > grounds[lightest] ? block : lightest));
    const sharp = median(edgeSteps) >= SHARP_EDGE_SHARE * (grounds[peak] - around[peak]);
    if (queue.length < LEAST_BLOCKS || sharp) continue;
    patches.push({
      left: left * BLOCK,
      top: top * BLOCK,
      width: (right - left + 1) * BLOCK,
      height: (bottom - top + 1) * BLOCK,
    });
  }
  return patches;
}

/**
 * A patch whose ground steps down from its edge blocks to the next ones out by this share of its whole
 * rise over the ground around it has a printed edge.
 */
const SHARP_EDGE_SHARE = 0.6;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
}

/** Blocks either side of a block over which the ground around it is averaged. */
const SURROUNDING_BLOCKS = 12;

/**
 * Each block's surrounding ground: the mean over the square of blocks around it (an integral image),
 * so a card's gradient, lighter at one end, is its ground there and not glare.
 */
function surroundingGround(grounds: Uint8Array, across: number, down: number): Float64Array {
  const sums = new Float64Array((across + 1) * (down + 1));
  for (let row = 0; row < down; row += 1) {
    for (let column = 0; column < across; column += 1) {
      sums[(row + 1) * (across + 1) + column + 1] =
        grounds[row * across + column] +
        sums[row * (across + 1) + column + 1] +
        sums[(row + 1) * (across + 1) + column] -
        sums[row * (across + 1) + column];
    }
  }
  const around = new Float64Array(across * down);
  for (let row = 0; row < down; row += 1) {
    for (let column = 0; column < across; column += 1) {
      const [left, right] = [
        Math.max(0, column - SURROUNDING_BLOCKS),
        Math.min(across, column + SURROUNDING_BLOCKS + 1),
      ];
      const [top, bottom] = [
        Math.max(0, row - SURROUNDING_BLOCKS),
        Math.min(down, row + SURROUNDING_BLOCKS + 1),
      ];
      const total =
        sums[bottom * (across + 1) + right] -
        sums[top * (across + 1) + right] -
        sums[bottom * (across + 1) + left] +
        sums[top * (across + 1) + left];
      around[row * across + column] = total / ((right - left) * (bottom - top));
    }
  }
  return around;
}
