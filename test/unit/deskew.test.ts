import sharp from 'sharp';

import { CARD_LAYOUTS, cardFaces, renderFace } from '../../bench/document-corpus';
import { printLean, skewCorrection } from '../../infrastructure/documents/deskew';
import { BLUE_HORIZON_CARD } from '../support/insurance-cards';

const card = () => renderFace(cardFaces(BLUE_HORIZON_CARD, CARD_LAYOUTS[1]!)[0]!);

/** The card turned by `degrees` (clockwise) on a grey table, as the search sees it: grey, 600 px wide. */
async function pixelsOf(degrees: number): Promise<[Uint8Array, number, number]> {
  return searchPixels(
    await sharp(await card())
      .rotate(degrees, { background: '#888888' })
      .toBuffer(),
    600,
  );
}

/** The card with its print leaning by `shift` pixels to the right per row down, as the slant search sees it. */
async function leaningPixelsOf(shift: number): Promise<[Uint8Array, number, number]> {
  const leaning = await sharp(await card())
    .affine(
      [
        [1, shift],
        [0, 1],
      ],
      { background: '#888888' },
    )
    .toBuffer();
  return searchPixels(leaning, 1200);
}

async function searchPixels(image: Buffer, width: number): Promise<[Uint8Array, number, number]> {
  const { data, info } = await sharp(image)
    .resize({ width })
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

describe('standing up print that leans, as on a card photographed from one side', () => {
  it.each([0.12, -0.12, 0.2])('finds print leaning %d pixels across per row down', async (shift) => {
    expect(printLean(...(await leaningPixelsOf(shift)))).toBeCloseTo(shift, 1);
  });

  it('finds nothing to stand up in upright print', async () => {
    expect(printLean(...(await leaningPixelsOf(0)))).toBe(0);
  });

  it('finds nothing to stand up in print that is only turned, once it is levelled', async () => {
    const [pixels, width, height] = await searchPixels(
      await sharp(await card())
        .rotate(8, { background: '#888888' })
        .toBuffer(),
      1200,
    );
    expect(printLean(pixels, width, height, -8)).toBe(0);
  });

  it('finds nothing to stand up on a blank page', () => {
    expect(printLean(new Uint8Array(1200 * 800).fill(250), 1200, 800)).toBe(0);
  });
});
