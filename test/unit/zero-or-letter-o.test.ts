import sharp from 'sharp';

import type { ReadLine } from '../../domain/documents/document-reading';
import { readDocument } from '../../infrastructure/documents/read-document';
import { DEFAULT_READING_LIMITS } from '../../infrastructure/documents/reading-limits';
import { zeroOrLetterO } from '../../infrastructure/documents/zero-or-letter-o';
import { scriptedReaders } from '../support/scripted-readers';

const PAGE = { width: 2000, height: 400 };

/**
 * A page with one word printed on it, black on white, in a face installed for the document tests, at
 * 96 px unless `style` (SVG attributes) says otherwise.
 */
async function pageWith(text: string, face: string, style = 'font-size="96"'): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${PAGE.height}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>` +
    `<text x="200" y="240" font-family="${face}" ${style} fill="#111111">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function judged(text: string, face: string, index: number, style?: string) {
  const { data, info } = await sharp(await pageWith(text, face, style))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image = { pixels: data, width: info.width, height: info.height };
  return zeroOrLetterO(image, { left: 0, top: 0, ...PAGE }, text, index);
}

describe('a glyph read as the digit 0 by one reader and the letter O by the other', () => {
  it('is the digit where it is as wide as its word’s digits and a wide letter shows the face is not monospace', async () => {
    expect(await judged('RV076', 'Liberation Sans', 2)).toBe('0');
  });

  it('is the letter where it is clearly wider than its word’s digits', async () => {
    expect(await judged('RVO76', 'Liberation Sans', 2)).toBe('O');
    expect(await judged('RVO76', 'DejaVu Serif', 2)).toBe('O');
  });

  it('is left undecided in a monospace face, whose letter O is as narrow as its digits', async () => {
    expect(await judged('RVO76', 'DejaVu Sans Mono', 2)).toBeUndefined();
    expect(await judged('RV076', 'DejaVu Sans Mono', 2)).toBeUndefined();
  });

  it('is left undecided in a monospace face where a speck lies in the letter O, as a zero’s dot would', async () => {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${PAGE.height}">` +
      `<rect width="100%" height="100%" fill="#ffffff"/>` +
      `<text x="200" y="240" font-family="DejaVu Sans Mono" font-size="96" fill="#111111">NNPO1751</text></svg>`;
    const { data, info } = await sharp(await sharp(Buffer.from(svg)).png().toBuffer())
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image = { pixels: data, width: info.width, height: info.height };
    const whole = { left: 0, top: 0, ...PAGE };
    const letterO = 200 + 3.5 * 57.8;
    for (let y = 196; y < 212; y += 1) {
      for (let x = Math.round(letterO) - 8; x < Math.round(letterO) + 8; x += 1)
        image.pixels[y * info.width + x] = 17;
    }
    expect(zeroOrLetterO(image, whole, 'NNPO1751', 3)).toBeUndefined();
  });

  it('is left undecided where the print is too small and blurred to measure, as a bold serif O at 13 pixels', async () => {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${PAGE.height}">` +
      `<rect width="100%" height="100%" fill="#ffffff"/>` +
      `<text x="200" y="240" font-family="DejaVu Serif" font-weight="bold" font-size="96" fill="#111111">NNPO1751</text></svg>`;
    const { data, info } = await sharp(await sharp(Buffer.from(svg)).png().toBuffer())
      .resize(400)
      .blur(1.5)
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image = { pixels: data, width: info.width, height: info.height };
    const whole = { left: 0, top: 0, width: info.width, height: info.height };
    expect(zeroOrLetterO(image, whole, 'NNPO1751', 3)).toBeUndefined();
  });

  it('is left undecided where no letter of the word shows its face is not monospace', async () => {
    expect(await judged('K07945735', 'Liberation Sans', 1)).toBeUndefined();
  });

  it('is left undecided in an oblique monospace face, whose slanted X passes for a proportional face’s', async () => {
    for (const size of [66, 74, 96, 106, 114]) {
      expect(
        await judged('XKO27', 'DejaVu Sans Mono', 2, `font-style="italic" font-size="${size}"`),
      ).toBeUndefined();
    }
  });
});

describe('an identifier the first reader read with the letter O where the second read a 0', () => {
  const whole = { left: 0, top: 0, ...PAGE };
  const line = (text: string): ReadLine => ({ words: [{ text, confidence: 0.95, box: whole }], box: whole });
  const firstReadersWords = async (printed: string, first: string, second: string) => {
    const engine = scriptedReaders({ first: [line(first)], second: [line(second)] });
    const reading = await readDocument(
      await pageWith(printed, 'Liberation Sans'),
      engine,
      DEFAULT_READING_LIMITS,
    );
    return reading.pages[0].lines.flatMap((each) => each.words.map((word) => word.text));
  };

  it('takes the second reader’s 0 where the printed glyph is a digit’s width', async () => {
    expect(await firstReadersWords('RV076', 'RVO76', 'RV076')).toEqual(['RV076']);
  });

  it('keeps the first reader’s O, so the readers still disagree, where the printed glyph is a letter O', async () => {
    expect(await firstReadersWords('RVO76', 'RVO76', 'RV076')).toEqual(['RVO76']);
  });
});

describe('an identifier printed in a monospace face beside labels in a proportional one', () => {
  it('keeps the first reader’s letter O, since other words’ face says nothing of the identifier’s', async () => {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${PAGE.height}">` +
      `<rect width="100%" height="100%" fill="#ffffff"/>` +
      `<text x="100" y="240" font-family="Liberation Sans" font-size="96" fill="#111111">Member</text>` +
      `<text x="700" y="240" font-family="DejaVu Sans Mono" font-size="96" fill="#111111">KO7945735</text></svg>`;
    const page = await sharp(Buffer.from(svg)).png().toBuffer();
    const label = { left: 80, top: 140, width: 560, height: 130 };
    const id = { left: 680, top: 140, width: 1300, height: 130 };
    const engine = scriptedReaders({
      first: [
        {
          words: [
            { text: 'Member', confidence: 0.95, box: label },
            { text: 'KO7945735', confidence: 0.9, box: id },
          ],
          box: { ...label, width: 1900 },
        },
      ],
      second: [
        {
          words: [
            { text: 'Member', confidence: 0.99, box: label },
            { text: 'K07945735', confidence: 0.99, box: id },
          ],
          box: { ...label, width: 1900 },
        },
      ],
    });
    const reading = await readDocument(page, engine, DEFAULT_READING_LIMITS);
    expect(reading.pages[0].lines.flatMap((line) => line.words.map((word) => word.text))).toEqual([
      'Member',
      'KO7945735',
    ]);
  });
});
