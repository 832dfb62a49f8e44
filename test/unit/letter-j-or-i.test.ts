import sharp from 'sharp';

import type { ReadLine } from '../../domain/documents/document-reading';
import { letterJOrI } from '../../infrastructure/documents/letter-j-or-i';
import { readDocument } from '../../infrastructure/documents/read-document';
import { DEFAULT_READING_LIMITS } from '../../infrastructure/documents/reading-limits';
import { scriptedReaders } from '../support/scripted-readers';

const PAGE = { width: 2000, height: 400 };
const WHOLE = { left: 0, top: 0, ...PAGE };

/** A page with one word printed on it, black on white, in a face installed for the document tests. */
function pageWith(text: string, face: string, style = 'font-size="72"'): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${PAGE.height}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<text x="200" y="240" font-family="${face}" ${style} fill="#111111">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function greyOf(page: Buffer) {
  const { data, info } = await sharp(page).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

async function judged(text: string, face: string, index: number, style?: string) {
  return letterJOrI(await greyOf(await pageWith(text, face, style)), WHOLE, text, index);
}

describe('a glyph read as the letter I by one reader and J by the other', () => {
  it.each(['DejaVu Sans Condensed', 'Liberation Sans', 'DejaVu Serif', 'Nimbus Mono PS'])(
    'is the letter J where its foot hooks left of its stem, in %s',
    async (face) => {
      expect(await judged('GJNSRR', face, 1)).toBe('J');
    },
  );

  it.each(['DejaVu Sans Condensed', 'Liberation Sans', 'Liberation Serif', 'URW Bookman'])(
    'is the letter I where its foot is its stem, or serifs reaching as far to either side, in %s',
    async (face) => {
      expect(await judged('GINSRR', face, 1)).toBe('I');
    },
  );

  it('is never the letter J for an italic I, whose foot stands left of its top as a hook would', async () => {
    for (const size of [40, 56, 72, 96]) {
      for (const face of ['Nimbus Sans', 'Nimbus Sans Narrow', 'DejaVu Sans Condensed']) {
        const style = `font-style="italic" font-weight="bold" font-size="${size}"`;
        expect(await judged('NVI', face, 2, style)).not.toBe('J');
      }
    }
  });

  it('is still the letter J in italic print, its hook measured against the slanted stem', async () => {
    expect(await judged('GJNSRR', 'Liberation Sans', 1, 'font-style="italic" font-size="72"')).toBe('J');
  });

  it('measures the glyph’s own ink, not a scratch beside its stem within its serifs', async () => {
    const image = await greyOf(await pageWith('I', 'Liberation Serif', 'font-size="120"'));
    const inkAt = (x: number, y: number) => image.pixels[y * image.width + x] < 128;
    const rows = [...Array(image.height).keys()].filter((y) =>
      [...Array(image.width).keys()].some((x) => inkAt(x, y)),
    );
    const [top, bottom] = [rows[0], rows[rows.length - 1]];
    const middle = Math.round((top + bottom) / 2);
    const stemRight = Math.max(...[...Array(image.width).keys()].filter((x) => inkAt(x, middle)));
    for (
      let y = top + Math.round(0.15 * (bottom - top));
      y < top + Math.round(0.6 * (bottom - top));
      y += 1
    ) {
      for (const x of [stemRight + 4, stemRight + 5]) image.pixels[y * image.width + x] = 0;
    }
    expect(letterJOrI(image, WHOLE, 'I', 0)).toBe('I');
  });

  it('is left undecided where the glyph is too small for its hook to outlast a photo’s blur', async () => {
    expect(await judged('GJNSRR', 'Liberation Sans', 1, 'font-size="24"')).toBeUndefined();
  });

  it('is left undecided in a script face, whose I swashes as a J hooks', async () => {
    expect(await judged('GINSRR', 'Z003', 1)).toBeUndefined();
  });

  it('is left undecided where a glyph parted in two and two run together still count as many as the letters', async () => {
    const image = await greyOf(await pageWith('GINSRR', 'Nimbus Sans', 'font-size="96"'));
    const columnsWithInkAt = (y: number) =>
      [...Array(image.width).keys()].filter((x) => image.pixels[y * image.width + x] < 128);
    const rows = [...Array(image.height).keys()].filter((y) => columnsWithInkAt(y).length > 0);
    const [top, bottom] = [rows[0], rows[rows.length - 1]];
    const middle = Math.round((top + bottom) / 2);
    const [gLeft] = columnsWithInkAt(middle);
    const stemOfI = columnsWithInkAt(middle).find((x) => x > gLeft + 70)!;
    // The G cut across a little below its middle, leaving its lower bowl and spur as a glyph of their
    // own, and the I joined to the N by a bar: six runs of ink for six letters, the second no I at all.
    const cut = Math.round(top + 0.55 * (bottom - top));
    for (let y = cut - 2; y < cut + 2; y += 1) {
      for (let x = gLeft - 2; x < gLeft + 60; x += 1) image.pixels[y * image.width + x] = 255;
    }
    for (let y = middle + 4; y < middle + 8; y += 1) {
      for (let x = stemOfI; x < stemOfI + 60; x += 1) image.pixels[y * image.width + x] = 0;
    }
    expect(letterJOrI(image, WHOLE, 'GINSRR', 1)).toBeUndefined();
  });
});

describe('an identifier the first reader read with the letter I where the second read a J', () => {
  const line = (text: string): ReadLine => ({ words: [{ text, confidence: 0.95, box: WHOLE }], box: WHOLE });
  const firstReadersWords = async (printed: string, first: string, second: string) => {
    const engine = scriptedReaders({ first: [line(first)], second: [line(second)] });
    const reading = await readDocument(
      await pageWith(printed, 'DejaVu Sans Condensed'),
      engine,
      DEFAULT_READING_LIMITS,
    );
    return reading.pages[0].lines.flatMap((each) => each.words.map((word) => word.text));
  };

  it('takes the second reader’s J where the printed glyph hooks, whatever rereads give', async () => {
    expect(await firstReadersWords('GJNSRR', 'GINSRR', 'GJNSRR')).toEqual(['GJNSRR']);
  });

  it('keeps the first reader’s I, so the readers still disagree, where the printed glyph is an I', async () => {
    expect(await firstReadersWords('GINSRR', 'GINSRR', 'GJNSRR')).toEqual(['GINSRR']);
  });
});
