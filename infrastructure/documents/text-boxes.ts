import type { Box } from '../../domain/documents/document-reading';

/** A pixel belongs to text where the detector's probability passes this (DB's binarisation). */
const TEXT_PROBABILITY = 0.3;
/** A region is kept when its pixels' mean probability passes this: faint specks are not text. */
const REGION_SCORE = 0.6;
/** Regions smaller than this on their short side, in detector pixels, are noise. */
const MIN_SIDE = 3;
/** DB shrinks each text region when it learns it; its box is grown back by this ratio of area to perimeter. */
const UNCLIP_RATIO = 1.6;

/**
 * The boxes of text in a detector's probability map (Differentiable Binarization's post-processing):
 * the map is thresholded, its connected regions labelled (one pass with an explicit stack: linear in
 * the pixels, whatever their shape), scored by their mean probability, and each kept region's box grown
 * back by the margin the model was trained to shrink it by. Boxes come top to bottom, then left to right.
 */
export function findTextBoxes(probabilities: Float32Array, width: number, height: number): Box[] {
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: Box[] = [];
  let nextLabel = 0;
  for (let start = 0; start < width * height; start += 1) {
    if (labels[start] !== 0 || probabilities[start] <= TEXT_PROBABILITY) continue;
    nextLabel += 1;
    let top = 0;
    stack[top++] = start;
    labels[start] = nextLabel;
    let [minX, minY, maxX, maxY] = [width, height, 0, 0];
    let sum = 0;
    let count = 0;
    while (top > 0) {
      const index = stack[--top];
      const x = index % width;
      const y = (index - x) / width;
      sum += probabilities[index];
      count += 1;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      const neighbours = [
        x > 0 ? index - 1 : -1,
        x < width - 1 ? index + 1 : -1,
        y > 0 ? index - width : -1,
        y < height - 1 ? index + width : -1,
      ];
      for (const neighbour of neighbours) {
        if (neighbour < 0 || labels[neighbour] !== 0 || probabilities[neighbour] <= TEXT_PROBABILITY)
          continue;
        labels[neighbour] = nextLabel;
        stack[top++] = neighbour;
      }
    }
    const boxWidth = maxX - minX + 1;
    const boxHeight = maxY - minY + 1;
    if (Math.min(boxWidth, boxHeight) < MIN_SIDE || sum / count < REGION_SCORE) continue;
    const margin = (boxWidth * boxHeight * UNCLIP_RATIO) / (2 * (boxWidth + boxHeight));
    const left = Math.max(0, Math.floor(minX - margin));
    const topEdge = Math.max(0, Math.floor(minY - margin));
    const right = Math.min(width, Math.ceil(maxX + 1 + margin));
    const bottom = Math.min(height, Math.ceil(maxY + 1 + margin));
    boxes.push({ left, top: topEdge, width: right - left, height: bottom - topEdge });
  }
  return apartInTheirRows(boxes).sort(
    (a, b) => a.top + a.height / 2 - (b.top + b.height / 2) || a.left - b.left,
  );
}

/** Boxes sharing at least this much of the shorter one's height stand in one row. */
const SAME_ROW = 0.5;

/**
 * Boxes of one row parted where their grown margins overlap, halfway across the overlap: a value's box
 * grown over the first glyph of the next column's value reads that glyph twice (`GTY…3939` and `2` of a
 * group number `2665371`, read `22665371`). Each box keeps its own print, which lies inside the region
 * it was grown from; a box lying wholly within another is left as it is.
 */
function apartInTheirRows(boxes: readonly Box[]): Box[] {
  const parted = boxes.map((box) => ({ ...box }));
  for (const left of parted) {
    for (const right of parted) {
      const shared =
        Math.min(left.top + left.height, right.top + right.height) - Math.max(left.top, right.top);
      if (left === right || shared < SAME_ROW * Math.min(left.height, right.height)) continue;
      const leftEnd = left.left + left.width;
      const rightEnd = right.left + right.width;
      if (left.left >= right.left || leftEnd <= right.left || leftEnd >= rightEnd) continue;
      const middle = Math.round((right.left + leftEnd) / 2);
      left.width = middle - left.left;
      right.width = rightEnd - middle;
      right.left = middle;
    }
  }
  return parted;
}

/**
 * How much more of a page's print, by area, the detector found in lines running down than across: over
 * 1 the page lies on its side.
 */
export function runningDown(boxes: readonly Box[]): number {
  const area = (box: Box) => box.width * box.height;
  const down = boxes.filter((box) => box.height > box.width).reduce((sum, box) => sum + area(box), 0);
  const across = boxes.filter((box) => box.height <= box.width).reduce((sum, box) => sum + area(box), 0);
  return across === 0 ? (down > 0 ? Number.POSITIVE_INFINITY : 0) : down / across;
}
