import { findCardCorners, flattened } from '../../infrastructure/documents/card-corners';
import type { Point, Quad, RawImage } from '../../infrastructure/documents/card-corners';

const [WIDTH, HEIGHT] = [400, 300];

/** A card tilted in perspective, as a phone held at an angle sees it. */
const CARD: Quad = [
  { x: 70, y: 62 },
  { x: 338, y: 48 },
  { x: 326, y: 236 },
  { x: 58, y: 224 },
];

function inside(quad: Quad, x: number, y: number): boolean {
  return quad.every((corner, index) => {
    const next = quad[(index + 1) % 4];
    return (next.x - corner.x) * (y - corner.y) - (next.y - corner.y) * (x - corner.x) >= 0;
  });
}

/** Where a point of the card (0–1 across and down) lands in the photo. */
function onCard(across: number, down: number): Point {
  const top = {
    x: CARD[0].x + (CARD[1].x - CARD[0].x) * across,
    y: CARD[0].y + (CARD[1].y - CARD[0].y) * across,
  };
  const bottom = {
    x: CARD[3].x + (CARD[2].x - CARD[3].x) * across,
    y: CARD[3].y + (CARD[2].y - CARD[3].y) * across,
  };
  return { x: top.x + (bottom.x - top.x) * down, y: top.y + (bottom.y - top.y) * down };
}

/** The card's own bands (0–1 down the card) and print (0–1 boxes), drawn within its quadrilateral. */
function photo(
  ground: (x: number, y: number) => [number, number, number],
  bandColour: [number, number, number] = [30, 70, 160],
): RawImage {
  const data = new Uint8Array(WIDTH * HEIGHT * 3);
  const band: Quad = [onCard(0, 0), onCard(1, 0), onCard(1, 0.22), onCard(0, 0.22)];
  const print = [0.35, 0.5, 0.65].map((down): Quad => [
    onCard(0.1, down),
    onCard(0.6, down),
    onCard(0.6, down + 0.05),
    onCard(0.1, down + 0.05),
  ]);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      let colour = ground(x, y);
      if (inside(CARD, x, y)) colour = [236, 234, 226];
      if (inside(band, x, y)) colour = bandColour;
      if (print.some((line) => inside(line, x, y))) colour = [40, 40, 40];
      data.set(colour, (y * WIDTH + x) * 3);
    }
  }
  return { data, width: WIDTH, height: HEIGHT, channels: 3 };
}

const CHECKERED_DESK = (x: number, y: number): [number, number, number] =>
  (Math.floor(x / 8) + Math.floor(y / 8)) % 2 === 0 ? [96, 96, 96] : [168, 168, 168];

function distance(p: Point, q: Point): number {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

function expectNear(found: Quad | null, expected: Quad): void {
  expect(found).not.toBeNull();
  found!.forEach((corner, index) => {
    expect(Math.hypot(corner.x - expected[index].x, corner.y - expected[index].y)).toBeLessThan(4);
  });
}

describe('finding a card in a photo', () => {
  it("finds the card's four corners on a checkered desk, whose squares' edges never pass for the card's", () => {
    expectNear(findCardCorners(photo(CHECKERED_DESK)), CARD);
  });

  it("takes the card's outer edge, not the edge of a coloured band printed across its top", () => {
    const corners = findCardCorners(photo(() => [120, 84, 52]));
    expectNear(corners, CARD);
  });

  it("takes the card's outer edge where its band stands out from the desk in one colour only", () => {
    // Beside the navy band the blue step keeps its sign from square to square of a slate desk, while
    // the green step, as large by the lighter squares, takes the other.
    const checkeredSlate = (x: number, y: number): [number, number, number] =>
      (Math.floor(x / 8) + Math.floor(y / 8)) % 2 === 0 ? [46, 55, 59] : [60, 68, 81];
    expectNear(findCardCorners(photo(checkeredSlate, [33, 29, 116])), CARD);
  });

  it("finds the card's corners on a striped desk whose stripes are more and longer lines than its edges", () => {
    const striped = (x: number, y: number): [number, number, number] =>
      Math.floor((x + 2 * y) / 20) % 2 === 0 ? [100, 100, 100] : [125, 125, 125];
    expectNear(findCardCorners(photo(striped)), CARD);
  });

  it('finds no card on a printed page whose ruled box has the same paper on both sides of its lines', () => {
    const data = new Uint8Array(WIDTH * HEIGHT).fill(250);
    for (let x = 60; x <= 340; x += 1) data[60 * WIDTH + x] = data[240 * WIDTH + x] = 0;
    for (let y = 60; y <= 240; y += 1) data[y * WIDTH + 60] = data[y * WIDTH + 340] = 0;
    expect(findCardCorners({ data, width: WIDTH, height: HEIGHT, channels: 1 })).toBeNull();
  });

  it("finds no card cut short at a table's band where a scanned card fades into the flatbed below it", () => {
    // A scan on a near-white flatbed: the card's ground lightens down the card until its lower edges
    // are lost against the glass, and a dark table header across it closes a quadrilateral twice as
    // long as high with the card's upper edges. Read from that, the card would lose the table's values.
    const scan: Quad = [
      { x: 30, y: 40 },
      { x: 370, y: 46 },
      { x: 366, y: 262 },
      { x: 26, y: 256 },
    ];
    const across = (x: number, y: number, from: Point, to: Point) =>
      ((x - from.x) * (to.x - from.x) + (y - from.y) * (to.y - from.y)) / distance(from, to) ** 2;
    const data = new Uint8Array(WIDTH * HEIGHT * 3);
    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        let grey = 248;
        if (inside(scan, x, y)) {
          const down = across(x, y, scan[0], scan[3]);
          const sideways = across(x, y, scan[0], scan[1]);
          grey = Math.round(196 + 52 * down);
          if (down > 0.58 && down < 0.66 && sideways > 0.04 && sideways < 0.96) grey = 70;
        }
        data.fill(grey, (y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3);
      }
    }
    expect(findCardCorners({ data, width: WIDTH, height: HEIGHT, channels: 3 })).toBeNull();
  });

  it("warps the card flat, its band along the top and its ground below, in a card's proportions", () => {
    const image = photo(CHECKERED_DESK);
    const grey = new Uint8Array(WIDTH * HEIGHT).map((_, index) => image.data[index * 3 + 1]);
    const card = flattened(grey, WIDTH, HEIGHT, CARD);
    expect(card.width).toBe(268);
    expect(card.height).toBe(169);
    const at = (across: number, down: number) =>
      card.data[Math.round(down * (card.height - 1)) * card.width + Math.round(across * (card.width - 1))];
    expect([at(0.05, 0.1), at(0.95, 0.1)]).toEqual([70, 70]);
    expect([at(0.05, 0.9), at(0.95, 0.9), at(0.8, 0.5)]).toEqual([234, 234, 234]);
  });
});
