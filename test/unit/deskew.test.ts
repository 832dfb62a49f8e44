import sharp from 'sharp';

import { CARD_LAYOUTS, cardFaces, renderFace } from '../../bench/document-corpus';
import { skewCorrection } from '../../infrastructure/documents/deskew';
import { BLUE_HORIZON_CARD } from '../support/insurance-cards';

/** The card turned by `degrees` (clockwise) on a grey table, as the search sees it: grey, 600 px wide. */
async function pixelsOf(degrees: number): Promise<[Uint8Array, number, number]> {
  const card = await renderFace(cardFaces(BLUE_HORIZON_CARD, CARD_LAYOUTS[1]!)[0]!);
  const { data, info } = await sharp(await sharp(card).rotate(degrees, { background: '#888888' }).toBuffer())
    .resize({ width: 600 })
    .greyscale()
    .removeAlpha()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [new Uint8Array(data), info.width, info.height];
}

describe('levelling print that is askew', () => {
  it.each([4, 8, -8, 11])('turns print askew by %i° back by as much', async (degrees) => {
    expect(skewCorrection(...(await pixelsOf(degrees)))).toBeCloseTo(-degrees, 0);
  });

  it('leaves level print as it is', async () => {
    expect(skewCorrection(...(await pixelsOf(0)))).toBe(0);
  });

  it('leaves print turned a right angle to the rotation search', async () => {
    expect(skewCorrection(...(await pixelsOf(90)))).toBe(0);
  });

  it('leaves a blank page as it is', () => {
    expect(skewCorrection(new Uint8Array(600 * 400).fill(250), 600, 400)).toBe(0);
  });
});
