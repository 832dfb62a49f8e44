import sharp from 'sharp';

import { seededRandom } from './seeded-random';

/**
 * A letter as a fax machine sends it: each page drawn at 200 dpi on letter paper, a table with its
 * rules where the page has one, turned a degree, made black and white, speckled with the dots a fax
 * line leaves, and all pages in one CCITT Group 4 TIFF.
 */

export interface FaxPage {
  lines: readonly string[];
  /** Rows of a ruled table under the lines, its first row the heading. */
  table?: ReadonlyArray<readonly string[]>;
}

const WIDTH = 1700;
const HEIGHT = 2200;
const LINE_HEIGHT = 56;
const COLUMN_WIDTH = 330;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function pageSvg(page: FaxPage): string {
  const text = page.lines
    .map(
      (line, index) =>
        `<text x="150" y="${260 + index * LINE_HEIGHT}" font-family="DejaVu Serif" font-size="34" fill="#000">${escapeXml(line)}</text>`,
    )
    .join('');
  const top = 260 + page.lines.length * LINE_HEIGHT + 40;
  const rows = page.table ?? [];
  const table = rows
    .map((row, rowIndex) =>
      row
        .map((cell, column) => {
          const x = 150 + column * COLUMN_WIDTH;
          const y = top + rowIndex * 70;
          return (
            `<rect x="${x}" y="${y}" width="${COLUMN_WIDTH}" height="70" fill="none" stroke="#000" stroke-width="3"/>` +
            `<text x="${x + 18}" y="${y + 47}" font-family="DejaVu Sans" font-size="32" fill="#000">${escapeXml(cell)}</text>`
          );
        })
        .join(''),
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="#fff"/>${text}${table}</svg>`;
}

/** The pages as one faxed TIFF; `seed` places the speckles, so a fax can be sent again exactly. */
export async function faxedLetter(pages: readonly FaxPage[], seed: number): Promise<Buffer> {
  const random = seededRandom(seed);
  const faxed: Buffer[] = [];
  for (const page of pages) {
    const { data, info } = await sharp(Buffer.from(pageSvg(page)))
      .rotate(1, { background: '#ffffff' })
      .resize(WIDTH, HEIGHT, { fit: 'cover' })
      .grayscale()
      .threshold(150)
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (let index = 0; index < data.length; index += 1) {
      if (random() < 0.004) data[index] = data[index] === 0 ? 255 : 0;
    }
    faxed.push(
      await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
        .png()
        .toBuffer(),
    );
  }
  return sharp(faxed, { join: { animated: true } })
    .toColourspace('b-w')
    .tiff({ compression: 'ccittfax4', bitdepth: 1 })
    .toBuffer();
}
