import type { Box } from '../../domain/documents/document-reading';
import { glarePatches } from '../../infrastructure/documents/glare';

const [WIDTH, HEIGHT] = [480, 320];
const CENTRE = { x: 200, y: 150 };

/**
 * A prepared card, dark print on light. Glare lifts its ground towards `glareGround` at CENTRE, fading
 * out over 120 pixels; a printed box is a sharp-edged patch of another ground.
 */
function card(
  ground: number,
  light: { glareGround?: number; printedBox?: Box; boxGround?: number } = {},
): Uint8Array {
  const pixels = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const print = [60, 110, 160, 210].some((row) => y >= row && y < row + 10) && x >= 40 && x < 400;
      const box = light.printedBox;
      const inBox =
        box && x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
      const fade = Math.max(0, 1 - Math.hypot(x - CENTRE.x, y - CENTRE.y) / 120);
      const lit =
        light.glareGround === undefined
          ? ground
          : ground + (light.glareGround - ground) * Math.min(1, fade * 1.6);
      pixels[y * WIDTH + x] = print ? 20 : inBox ? light.boxGround! : Math.round(lit);
    }
  }
  return pixels;
}

const holdsCentre = (patch: Box) =>
  patch.left <= CENTRE.x &&
  CENTRE.x < patch.left + patch.width &&
  patch.top <= CENTRE.y &&
  CENTRE.y < patch.top + patch.height;

describe('glare on a photographed card', () => {
  it('is found where the ground of a tinted card is washed out to near white around its print', () => {
    const patches = glarePatches(card(190, { glareGround: 252 }), WIDTH, HEIGHT, false);
    expect(patches).toHaveLength(1);
    expect(holdsCentre(patches[0])).toBe(true);
  });

  it('is found on a dark card inverted for reading, where the glare lifted its dark ground', () => {
    const patches = glarePatches(card(215, { glareGround: 100 }), WIDTH, HEIGHT, true);
    expect(patches).toHaveLength(1);
    expect(holdsCentre(patches[0])).toBe(true);
  });

  it('is not reported on a white card, nor for a white box printed on a tinted one', () => {
    expect(glarePatches(card(248, { glareGround: 255 }), WIDTH, HEIGHT, false)).toEqual([]);
    const table = { left: 96, top: 96, width: 192, height: 96 };
    expect(glarePatches(card(200, { printedBox: table, boxGround: 252 }), WIDTH, HEIGHT, false)).toEqual([]);
  });
});
