import sharp from 'sharp';

import { readDocument } from '../../infrastructure/documents/read-document';
import { DEFAULT_READING_LIMITS } from '../../infrastructure/documents/reading-limits';
import { lineOf, scriptedReaders, wordAt } from '../support/scripted-readers';

const printedLine = lineOf(wordAt('MEMBER', 20, 40, 100), wordAt('W123456789', 200, 40, 160));

/** A card of one ground colour with a line of print in another, as its photo would be sent. */
async function card(ground: string, print: string): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="380"><rect width="100%" height="100%" fill="${ground}"/>` +
    `<rect x="60" y="170" width="420" height="24" fill="${print}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The grey the first reader sees over most of an image: its ground. */
async function groundOf(image: Buffer): Promise<{ median: number }> {
  const data = await sharp(image).greyscale().raw().toBuffer();
  const sorted = [...data].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] };
}

describe('a page prepared for the first reader', () => {
  const seenBy = async (image: Buffer) => {
    let seen: Buffer | undefined;
    const engine = scriptedReaders({
      first: [printedLine],
      second: [],
      async onRecognise(prepared) {
        seen ??= prepared;
      },
    });
    await readDocument(image, engine, DEFAULT_READING_LIMITS);
    return groundOf(seen!);
  };

  it('is light print on a dark card turned to dark print on a light ground', async () => {
    expect((await seenBy(await card('#1d2a44', '#f2f2f2'))).median).toBeGreaterThan(200);
  });

  it('is dark print on a light card kept the way it is printed', async () => {
    expect((await seenBy(await card('#f4f4f4', '#202020'))).median).toBeGreaterThan(200);
  });
});
