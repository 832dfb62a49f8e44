/**
 * Finds a card (or a sheet) photographed on a desk, and warps it flat.
 *
 * The search runs on a small colour copy of the photo. Each pixel with a strong colour gradient votes
 * for the straight lines through it that run across its gradient; the sign of the gradient is kept, so
 * the edge of a card, a step from desk to card ground all along its length, gathers its votes on one
 * line, while a checkered or striped desk, whose steps change sign square by square, spreads its votes
 * over two. Four such lines, two roughly parallel pairs, close a quadrilateral. It is the card when
 * each of its sides is a step along most of its length, with the same sign throughout and ground of
 * different colour on either side: a table's rule printed on a page has the same paper on both sides, and
 * is never taken for an edge. Of the quadrilaterals that pass, the largest is the card, so a coloured
 * band printed on the card is never taken for its edge.
 *
 * Everything here is linear in the pixels of the small copy, or bounded by the few lines kept.
 */

export interface Point {
  x: number;
  y: number;
}

/** A quadrilateral's corners, clockwise from the one nearest the image's top left. */
export type Quad = [Point, Point, Point, Point];

/** Raw pixels, one to four channels each (only the first three are read). */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** The long side, in pixels, of the copy the card is looked for on. */
export const CARD_SEARCH_SIDE = 400;

/** A gradient this strong (Sobel, 0–1020) marks an edge pixel. */
const EDGE = 48;
/** An edge pixel belongs to a side when its gradient is within 20 degrees of the side's (the cosine). */
const EDGE_AGREEMENT = Math.cos((20 * Math.PI) / 180);
/** Votes a line needs, as a share of the copy's short side, to be kept. */
const LEAST_VOTES_SHARE = 0.12;
/** Lines kept, strongest first, after each has cleared its neighbourhood. */
const MOST_LINES = 40;
/**
 * Lines searched where the strongest `MOST_LINES` close no card of a card's proportions (`NEAR_CARD`):
 * a striped desk's stripes, each a long line of one sign, may fill those, and a card's edge that stands
 * out from the desk in one colour only (a navy band on slate) gathers fewer votes than they do. The
 * first search then found the card's light part inside its band, or nothing. Pairs of pairs of lines
 * grow with the fourth power of the lines (at most about 5 million for 80, 0.1–0.5 s), so only such
 * photos pay for it, and its quadrilateral is taken only where it has a card's proportions.
 */
const MORE_LINES = 80;
/**
 * Quadrilaterals whose sides are walked (`coverage`) in one search at most: on 97 card images the most
 * was 6,627. A desk that closes more is cut off there, and the best found so far stands.
 */
const MOST_MEASURED = 20_000;
/** Mean sides within this share of an ID-1 card's ratio: the whole card, its band not cut off. */
const NEAR_CARD = 0.07;
/** Neighbourhood of a kept line (degrees, pixels) in which weaker lines are dropped. */
const PEAK_DEGREES = 4;
const PEAK_PIXELS = 6;
/** Opposite sides lean by at most this much (degrees) against each other. */
const PARALLEL_DEGREES = 22;
/** Adjacent sides meet at no sharper angle than this (degrees). */
const SQUARE_DEGREES = 55;
/** A side is an edge along at least this share of its length (the ends, rounded corners, are not looked at). */
const LEAST_COVERAGE = 0.65;
const CORNER_SHARE = 0.1;
/** Levels (0–255, of the colour that differs most) between the ground just inside and just outside a side. */
const STEP = 16;
/** How far (pixels of the copy) either side of a side the grounds are compared. */
const STEP_REACH = 4;
/** The card covers at least this share of the photo, and leaves at least the rest of its frame. */
const LEAST_AREA = 0.08;
const MOST_AREA = 0.95;
/**
 * A card's sides, a sheet's too: long over short at most this, and opposite sides alike in length. An
 * ID-1 card is 1.59, and 1.85 at the most in 200 of the bench's photos and scans; a letter is 1.29. A
 * longer quadrilateral is a card cut short along a band printed across it: a scanned card's table
 * header, where the card's lower edges fade into the flatbed, closed one of 2.2 and lost its values.
 */
const MOST_ASPECT = 2.0;
const LEAST_SIDE_RATIO = 0.6;
/**
 * Quadrilaterals within this share of the largest one's area are alike in size (a card's band printed
 * across it takes more than a tenth of it).
 */
const ALIKE_AREA = 0.9;
/** How much larger than the quadrilateral found the part of the photo read is. */
const QUAD_GROWTH = 0.015;

/**
 * Each colour channel's gradient at each pixel (at `index × colours + channel`). Channels are kept
 * apart: along a navy band's edge on a striped slate desk the blue step keeps its sign while the green
 * step, of about the same size, takes the other, and a pixel's strongest channel changes with the
 * stripe under it. That edge is a line of one sign in each channel, and of no one sign at all in the
 * strongest.
 */
interface Gradients {
  dx: Float32Array;
  dy: Float32Array;
  magnitude: Float32Array;
  colours: number;
  image: RawImage;
}

interface Line {
  /** The direction of the gradient that voted for it, in degrees (0–359). */
  degrees: number;
  /** Distance of the line from the origin along that direction. */
  rho: number;
  votes: number;
}

/**
 * The corners of the card in a photo, in the photo's pixels, or null where no quadrilateral of card
 * edges is found (a scan edge to edge, a page, a card whose edge is lost against the desk).
 */
export function findCardCorners(image: RawImage): Quad | null {
  const gradients = gradientsOf(image);
  const lines = strongestLines(gradients, image.width, image.height);
  const first = quadAmong(lines.slice(0, MOST_LINES), gradients);
  if ((first && nearCardRatio(first)) || lines.length <= MOST_LINES) return first;
  const more = quadAmong(lines, gradients);
  return more && nearCardRatio(more) ? more : first;
}

/** Whether a quadrilateral's mean sides stand within `NEAR_CARD` of an ID-1 card's ratio. */
function nearCardRatio(quad: Quad): boolean {
  return Math.abs(sideRatio(quad) / CARD_ASPECT - 1) <= NEAR_CARD;
}

/** The largest quadrilateral of card edges the lines close, as `findCardCorners` tells it. */
function quadAmong(lines: readonly Line[], gradients: Gradients): Quad | null {
  const image = gradients.image;
  const pairs: Array<[Line, Line]> = [];
  for (let i = 0; i < lines.length; i += 1) {
    for (let j = i + 1; j < lines.length; j += 1) {
      if (leaning(lines[i], lines[j]) <= PARALLEL_DEGREES) pairs.push([lines[i], lines[j]]);
    }
  }
  const found: Candidate[] = [];
  let largest = 0;
  let measured = 0;
  search: for (let i = 0; i < pairs.length; i += 1) {
    for (let j = i + 1; j < pairs.length; j += 1) {
      const [a, b] = pairs[i];
      const [c, d] = pairs[j];
      if (leaning(a, c) < SQUARE_DEGREES) continue;
      const quad = quadOf(a, c, b, d);
      if (!quad) continue;
      const area = areaOf(quad);
      if (area < ALIKE_AREA * largest || !plausible(quad, area, image.width, image.height)) continue;
      if ((measured += 1) > MOST_MEASURED) break search;
      const sides = [0, 1, 2, 3].map((index) => {
        const [from, to] = [quad[index], quad[(index + 1) % 4]];
        const line = lineThrough(from, to, a, b, c, d);
        return { from, to, line, covered: coverage(gradients, image.width, image.height, from, to, line) };
      });
      if (sides.some((side) => side.covered < LEAST_COVERAGE)) continue;
      found.push({ area, covered: sides.reduce((sum, side) => sum + side.covered, 0) / 4, sides });
      largest = Math.max(largest, area);
    }
  }
  // Of the quadrilaterals about as large as the largest, the one whose sides are most wholly edges: a
  // desk's line beside the card's edge may close a slightly larger one along part of its length.
  const best = found
    .filter((candidate) => candidate.area >= ALIKE_AREA * largest)
    .reduce<Candidate | null>(
      (surest, candidate) => (!surest || candidate.covered > surest.covered ? candidate : surest),
      null,
    );
  if (!best) return null;
  // The lines voted for are a degree apart; each side is fitted to its own edge pixels, which places a
  // card's far corners to a pixel.
  const [top, right, bottom, left] = best.sides.map(({ from, to, line }) =>
    fitted(gradients, image.width, from, to, line),
  );
  return quadOf(top, right, bottom, left) ?? (best.sides.map((side) => side.from) as Quad);
}

interface Candidate {
  area: number;
  /** The mean share of its sides that are edges. */
  covered: number;
  sides: Array<{ from: Point; to: Point; line: Line; covered: number }>;
}

/** An ID-1 card's long side over its short side (85.6 × 54 mm, ISO/IEC 7810). */
const CARD_ASPECT = 85.6 / 54;
/** A quadrilateral whose mean sides are in a ratio between these is a card seen at an angle. */
const CARD_LIKE = [1.35, 1.85] as const;

/** Whether a quadrilateral's mean sides stand in a card's ratio, as a card seen at an angle does. */
export function cardShaped(quad: Quad): boolean {
  const ratio = sideRatio(quad);
  return ratio >= CARD_LIKE[0] && ratio <= CARD_LIKE[1];
}

/** A quadrilateral's longer mean side over its shorter. */
function sideRatio(quad: Quad): number {
  const [topLeft, topRight, bottomRight, bottomLeft] = quad;
  const across = (distance(topLeft, topRight) + distance(bottomLeft, bottomRight)) / 2;
  const down = (distance(topLeft, bottomLeft) + distance(topRight, bottomRight)) / 2;
  return Math.max(across, down) / Math.min(across, down);
}

/**
 * The size of the flat rectangle: the quadrilateral's mean side lengths, which a tilt foreshortens one
 * way, so a card-like one keeps its long side and takes a card's proportions. Print stretched
 * across reads wrong (Tesseract reads a wide `0` as `O0`).
 */
function flatSize(quad: Quad): [number, number] {
  const [topLeft, topRight, bottomRight, bottomLeft] = quad;
  let across = (distance(topLeft, topRight) + distance(bottomLeft, bottomRight)) / 2;
  let down = (distance(topLeft, bottomLeft) + distance(topRight, bottomRight)) / 2;
  if (cardShaped(quad)) {
    if (across >= down) down = across / CARD_ASPECT;
    else across = down / CARD_ASPECT;
  }
  return [Math.max(1, Math.round(across)), Math.max(1, Math.round(down))];
}

/**
 * The card inside `quad` of a grey image, warped flat to a rectangle of its size (`flatSize`): a
 * projective warp, sampled bilinearly.
 */
export function flattened(
  pixels: Uint8Array,
  width: number,
  height: number,
  quad: Quad,
): { data: Uint8Array; width: number; height: number } {
  const [across, down] = flatSize(quad);
  const toPhoto = homography(
    [
      { x: 0, y: 0 },
      { x: across, y: 0 },
      { x: across, y: down },
      { x: 0, y: down },
    ],
    quad,
  );
  const data = new Uint8Array(across * down);
  for (let y = 0; y < down; y += 1) {
    for (let x = 0; x < across; x += 1) {
      const w = toPhoto[6] * x + toPhoto[7] * y + 1;
      const sourceX = (toPhoto[0] * x + toPhoto[1] * y + toPhoto[2]) / w;
      const sourceY = (toPhoto[3] * x + toPhoto[4] * y + toPhoto[5]) / w;
      data[y * across + x] = sample(pixels, width, height, sourceX, sourceY);
    }
  }
  return { data, width: across, height: down };
}

/**
 * A quadrilateral found on the small copy, in the pixels of the photo it was made from, grown from its
 * middle by a share of its size: a side placed a pixel of the copy inside the card's edge must not cut
 * off print near it, while a sliver of desk costs nothing.
 */
export function photoQuad(quad: Quad, scale: number, growth = QUAD_GROWTH): Quad {
  const middle = {
    x: quad.reduce((sum, corner) => sum + corner.x, 0) / 4,
    y: quad.reduce((sum, corner) => sum + corner.y, 0) / 4,
  };
  return quad.map((corner) => ({
    x: (middle.x + (corner.x - middle.x) * (1 + growth)) * scale,
    y: (middle.y + (corner.y - middle.y) * (1 + growth)) * scale,
  })) as Quad;
}

function gradientsOf(image: RawImage): Gradients {
  const { data, width, height, channels } = image;
  const colours = Math.min(3, channels);
  const size = width * height * colours;
  const gradients: Gradients = {
    dx: new Float32Array(size),
    dy: new Float32Array(size),
    magnitude: new Float32Array(size),
    colours,
    image,
  };
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const index = y * width + x;
      // Each channel on its own: a blue card on a brown desk may be one grey.
      for (let channel = 0; channel < colours; channel += 1) {
        const value = (dx: number, dy: number) => data[(index + dy * width + dx) * channels + channel];
        const dx =
          value(1, -1) + 2 * value(1, 0) + value(1, 1) - value(-1, -1) - 2 * value(-1, 0) - value(-1, 1);
        const dy =
          value(-1, 1) + 2 * value(0, 1) + value(1, 1) - value(-1, -1) - 2 * value(0, -1) - value(1, -1);
        const at = index * colours + channel;
        gradients.dx[at] = dx;
        gradients.dy[at] = dy;
        gradients.magnitude[at] = Math.sqrt(dx * dx + dy * dy);
      }
    }
  }
  return gradients;
}

/**
 * The strength of a pixel's edge along a normal: its strongest channel's gradient that is an edge
 * (`EDGE`) running within `EDGE_AGREEMENT` of the normal, or 0 where none is.
 */
function edgeAlong(gradients: Gradients, index: number, normal: Point): number {
  let strongest = 0;
  for (let channel = 0; channel < gradients.colours; channel += 1) {
    const at = index * gradients.colours + channel;
    const magnitude = gradients.magnitude[at];
    if (magnitude < EDGE || magnitude <= strongest) continue;
    if ((gradients.dx[at] * normal.x + gradients.dy[at] * normal.y) / magnitude >= EDGE_AGREEMENT)
      strongest = magnitude;
  }
  return strongest;
}

/**
 * Each edge pixel votes for the lines across its gradient, within two degrees of it; a line keeps the
 * votes of one sign over those of the other.
 */
function strongestLines(gradients: Gradients, width: number, height: number): Line[] {
  const reach = Math.ceil(Math.hypot(width, height));
  const span = 2 * reach + 1;
  const plane = 360 * span;
  const { colours } = gradients;
  const votes = new Int32Array(colours * plane);
  const cosines = Float64Array.from({ length: 360 }, (_, degree) => Math.cos((degree * Math.PI) / 180));
  const sines = Float64Array.from({ length: 360 }, (_, degree) => Math.sin((degree * Math.PI) / 180));
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      for (let channel = 0; channel < colours; channel += 1) {
        const at = (y * width + x) * colours + channel;
        if (gradients.magnitude[at] < EDGE) continue;
        const direction = Math.round((Math.atan2(gradients.dy[at], gradients.dx[at]) * 180) / Math.PI);
        for (let spread = -2; spread <= 2; spread += 1) {
          const degree = (direction + spread + 720) % 360;
          const rho = Math.round(x * cosines[degree] + y * sines[degree]);
          votes[channel * plane + degree * span + rho + reach] += 1;
        }
      }
    }
  }
  const least = Math.max(8, Math.round(LEAST_VOTES_SHARE * Math.min(width, height)));
  const candidates: Line[] = [];
  for (let degree = 0; degree < 360; degree += 1) {
    const opposite = (degree + 180) % 360;
    for (let rho = 0; rho < span; rho += 1) {
      // The same line with the gradient the other way is at the opposite angle and distance: a desk's
      // checks vote for both equally, a card's edge for one, in each channel.
      let count = 0;
      for (let channel = 0; channel < colours; channel += 1) {
        const own = votes[channel * plane + degree * span + rho];
        count = Math.max(count, own - votes[channel * plane + opposite * span + (span - 1 - rho)]);
      }
      if (count >= least) candidates.push({ degrees: degree, rho: rho - reach, votes: count });
    }
  }
  candidates.sort((a, b) => b.votes - a.votes);
  const kept: Line[] = [];
  for (const line of candidates) {
    if (kept.length >= MORE_LINES) break;
    const crowded = kept.some(
      (other) =>
        angleBetween(other.degrees, line.degrees) <= PEAK_DEGREES &&
        Math.abs(other.rho - line.rho) <= PEAK_PIXELS,
    );
    if (!crowded) kept.push(line);
  }
  return kept;
}

/**
 * The line through a side's edge pixels (at each step along it, the strongest within two pixels of it
 * with its gradient's sign), by least squares across it, or the side's own line where it has too few.
 */
function fitted(gradients: Gradients, width: number, from: Point, to: Point, line: Line): Line {
  const length = distance(from, to);
  const along = { x: (to.x - from.x) / length, y: (to.y - from.y) / length };
  const normal = { x: Math.cos((line.degrees * Math.PI) / 180), y: Math.sin((line.degrees * Math.PI) / 180) };
  const height = gradients.image.height;
  const points: Point[] = [];
  for (let step = Math.ceil(CORNER_SHARE * length); step <= (1 - CORNER_SHARE) * length; step += 1) {
    // Across the side, its strongest pixel: a desk's weaker steps beside it never pull the fit.
    let strongest: { point: Point; magnitude: number } | null = null;
    for (let offset = -2; offset <= 2; offset += 1) {
      const x = Math.round(from.x + along.x * step + normal.x * offset);
      const y = Math.round(from.y + along.y * step + normal.y * offset);
      if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) continue;
      const magnitude = edgeAlong(gradients, y * width + x, normal);
      if (magnitude <= (strongest?.magnitude ?? 0)) continue;
      strongest = { point: { x, y }, magnitude };
    }
    if (strongest) points.push(strongest.point);
  }
  if (points.length < 10) return line;
  // Across the side's run, each pixel's offset along the side's normal; pixels far off the first fit
  // (a corner of print touching the edge) are left out of the second.
  const local = points.map((point) => ({
    t: (point.x - from.x) * along.x + (point.y - from.y) * along.y,
    n: (point.x - from.x) * normal.x + (point.y - from.y) * normal.y,
  }));
  const first = straightFit(local);
  const close = local.filter(({ t, n }) => Math.abs(n - (first.intercept + first.slope * t)) <= 1.5);
  const { slope, intercept } = close.length >= 10 ? straightFit(close) : first;
  const turned = { x: normal.x - slope * along.x, y: normal.y - slope * along.y };
  const size = Math.hypot(turned.x, turned.y);
  const through = { x: from.x + normal.x * intercept, y: from.y + normal.y * intercept };
  return {
    degrees: (Math.atan2(turned.y, turned.x) * 180) / Math.PI,
    rho: (through.x * turned.x + through.y * turned.y) / size,
    votes: line.votes,
  };
}

/** The least-squares line n = intercept + slope × t through some points. */
function straightFit(points: ReadonlyArray<{ t: number; n: number }>): { slope: number; intercept: number } {
  let [sumT, sumN, sumTT, sumTN] = [0, 0, 0, 0];
  for (const { t, n } of points)
    [sumT, sumN, sumTT, sumTN] = [sumT + t, sumN + n, sumTT + t * t, sumTN + t * n];
  const count = points.length;
  const slope = (count * sumTN - sumT * sumN) / (count * sumTT - sumT * sumT || 1);
  return { slope, intercept: (sumN - slope * sumT) / count };
}

/** Degrees between two directions, 0–180. */
function angleBetween(a: number, b: number): number {
  const turn = Math.abs(a - b) % 360;
  return turn > 180 ? 360 - turn : turn;
}

/** Degrees between two lines whatever their gradients' signs, 0–90. */
function leaning(a: Line, b: Line): number {
  const turn = angleBetween(a.degrees, b.degrees);
  return turn > 90 ? 180 - turn : turn;
}

function crossing(a: Line, b: Line): Point | null {
  const [ca, sa] = [Math.cos((a.degrees * Math.PI) / 180), Math.sin((a.degrees * Math.PI) / 180)];
  const [cb, sb] = [Math.cos((b.degrees * Math.PI) / 180), Math.sin((b.degrees * Math.PI) / 180)];
  const determinant = ca * sb - sa * cb;
  if (Math.abs(determinant) < 1e-6) return null;
  return { x: (a.rho * sb - b.rho * sa) / determinant, y: (ca * b.rho - cb * a.rho) / determinant };
}

/** The quadrilateral of two pairs of opposite sides, `a`/`b` and `c`/`d`, in clockwise order. */
function quadOf(a: Line, c: Line, b: Line, d: Line): Quad | null {
  const corners = [crossing(a, c), crossing(c, b), crossing(b, d), crossing(d, a)];
  if (corners.some((corner) => corner === null)) return null;
  const points = corners as Point[];
  const centre = {
    x: points.reduce((sum, point) => sum + point.x, 0) / 4,
    y: points.reduce((sum, point) => sum + point.y, 0) / 4,
  };
  // Image y runs down, so increasing atan2 goes clockwise on screen.
  const around = [...points].sort(
    (p, q) => Math.atan2(p.y - centre.y, p.x - centre.x) - Math.atan2(q.y - centre.y, q.x - centre.x),
  );
  let first = 0;
  for (let index = 1; index < 4; index += 1) {
    if (around[index].x + around[index].y < around[first].x + around[first].y) first = index;
  }
  return [0, 1, 2, 3].map((step) => around[(first + step) % 4]) as Quad;
}

/** Of the four lines, the one a side between two corners runs along. */
function lineThrough(from: Point, to: Point, ...lines: Line[]): Line {
  const middle = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
  const offset = (line: Line) =>
    Math.abs(
      middle.x * Math.cos((line.degrees * Math.PI) / 180) +
        middle.y * Math.sin((line.degrees * Math.PI) / 180) -
        line.rho,
    );
  return lines.reduce((best, line) => (offset(line) < offset(best) ? line : best));
}

function areaOf(quad: Quad): number {
  let twice = 0;
  for (let index = 0; index < 4; index += 1) {
    const [p, q] = [quad[index], quad[(index + 1) % 4]];
    twice += p.x * q.y - q.x * p.y;
  }
  return Math.abs(twice) / 2;
}

function distance(p: Point, q: Point): number {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

/** Convex, inside the photo, of a card's or a sheet's proportions, neither a speck nor the whole frame. */
function plausible(quad: Quad, area: number, width: number, height: number): boolean {
  if (area < LEAST_AREA * width * height || area > MOST_AREA * width * height) return false;
  const margin = 0.02 * Math.max(width, height);
  if (
    quad.some(
      (corner) =>
        corner.x < -margin || corner.y < -margin || corner.x > width + margin || corner.y > height + margin,
    )
  ) {
    return false;
  }
  let sign = 0;
  for (let index = 0; index < 4; index += 1) {
    const [p, q, r] = [quad[index], quad[(index + 1) % 4], quad[(index + 2) % 4]];
    const turn = Math.sign((q.x - p.x) * (r.y - q.y) - (q.y - p.y) * (r.x - q.x));
    if (turn === 0 || (sign !== 0 && turn !== sign)) return false;
    sign = turn;
  }
  const sides = [0, 1, 2, 3].map((index) => distance(quad[index], quad[(index + 1) % 4]));
  const ratio = (x: number, y: number) => Math.min(x, y) / Math.max(x, y);
  if (ratio(sides[0], sides[2]) < LEAST_SIDE_RATIO || ratio(sides[1], sides[3]) < LEAST_SIDE_RATIO)
    return false;
  const [across, down] = [(sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2];
  return Math.max(across, down) / Math.min(across, down) <= MOST_ASPECT;
}

/**
 * The share of a side, its rounded corners left out, along which an edge pixel with the side's own
 * gradient sign lies within two pixels, and the ground a few pixels either side differs in colour.
 */
function coverage(
  gradients: Gradients,
  width: number,
  height: number,
  from: Point,
  to: Point,
  line: Line,
): number {
  const length = distance(from, to);
  const normal = { x: Math.cos((line.degrees * Math.PI) / 180), y: Math.sin((line.degrees * Math.PI) / 180) };
  const steps = Math.max(1, Math.floor(length * (1 - 2 * CORNER_SHARE)));
  let covered = 0;
  for (let step = 0; step < steps; step += 1) {
    const t = CORNER_SHARE + (step / steps) * (1 - 2 * CORNER_SHARE);
    const point = { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t };
    const ground = stepAcross(gradients.image, point, normal);
    if (ground === null || ground < STEP) continue;
    for (let offset = -2; offset <= 2; offset += 1) {
      const x = Math.round(point.x + offset * normal.x);
      const y = Math.round(point.y + offset * normal.y);
      if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) continue;
      if (edgeAlong(gradients, y * width + x, normal) > 0) {
        covered += 1;
        break;
      }
    }
  }
  return covered / steps;
}

/** The largest difference of any colour between the ground a few pixels either side of a point. */
function stepAcross(image: RawImage, point: Point, normal: Point): number | null {
  const at = (sign: number) => {
    const column = Math.round(point.x + sign * STEP_REACH * normal.x);
    const row = Math.round(point.y + sign * STEP_REACH * normal.y);
    if (column < 0 || row < 0 || column >= image.width || row >= image.height) return null;
    return (row * image.width + column) * image.channels;
  };
  const [ahead, behind] = [at(1), at(-1)];
  if (ahead === null || behind === null) return null;
  let largest = 0;
  for (let channel = 0; channel < Math.min(3, image.channels); channel += 1) {
    largest = Math.max(largest, Math.abs(image.data[ahead + channel] - image.data[behind + channel]));
  }
  return largest;
}

/** The projective map taking each of four points to its counterpart, as the eight numbers of its matrix. */
function homography(from: readonly Point[], to: readonly Point[]): number[] {
  const rows: number[][] = [];
  for (let index = 0; index < 4; index += 1) {
    const [{ x, y }, { x: u, y: v }] = [from[index], to[index]];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let column = 0; column < 8; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < 8; row += 1) {
      if (Math.abs(rows[row][column]) > Math.abs(rows[pivot][column])) pivot = row;
    }
    [rows[column], rows[pivot]] = [rows[pivot], rows[column]];
    for (let row = 0; row < 8; row += 1) {
      if (row === column) continue;
      const factor = rows[row][column] / rows[column][column];
      for (let k = column; k < 9; k += 1) rows[row][k] -= factor * rows[column][k];
    }
  }
  return rows.map((row, index) => row[8] / row[index]);
}

function sample(pixels: Uint8Array, width: number, height: number, x: number, y: number): number {
  const [left, top] = [
    Math.max(0, Math.min(width - 2, Math.floor(x))),
    Math.max(0, Math.min(height - 2, Math.floor(y))),
  ];
  const [fx, fy] = [Math.max(0, Math.min(1, x - left)), Math.max(0, Math.min(1, y - top))];
  const at = (column: number, row: number) => pixels[row * width + column];
  const upper = at(left, top) * (1 - fx) + at(left + 1, top) * fx;
  const lower = at(left, top + 1) * (1 - fx) + at(left + 1, top + 1) * fx;
  return Math.round(upper * (1 - fy) + lower * fy);
}
