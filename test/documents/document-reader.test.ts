import { readFileSync } from 'node:fs';
import path from 'node:path';

import sharp from 'sharp';

import type { CardValues } from '../../bench/document-corpus';
import {
  CARD_LAYOUTS,
  CLEAN,
  DEGRADATIONS,
  cardFaces,
  decompressionBomb,
  pdfDocument,
  renderFace,
  scannedCopy,
  scannedPage,
} from '../../bench/document-corpus';
import { documentText, pageText } from '../../domain/documents/document-reading';
import type { DocumentReading } from '../../domain/documents/document-reading';
import { readInsuranceCard } from '../../domain/payers/insurance-card';
import { DEFAULT_READING_SETTINGS, DocumentReadingPool } from '../../infrastructure/documents/reading-pool';

/**
 * The document reader on documents made for the test (bench/document-corpus.ts): real OCR in the
 * reading threads the worker runs, on the compiled thread entry `npm test` builds.
 */
const CARD: CardValues = {
  payerName: 'Sandbox Health Plan',
  planName: 'Choice Plus PPO',
  memberName: 'JANE Q SAMPLE',
  memberId: 'W123456789',
  groupNumber: '0012345',
  rxBin: '999901',
  rxPcn: 'SBX',
  rxGroup: 'RX4471',
};

const NOTE = ['Progress note', 'Type 2 diabetes mellitus, A1c 8.1 percent.', 'Metformin for six months.'];

const degradation = (name: string) => DEGRADATIONS.find((candidate) => candidate.name === name) ?? CLEAN;

let pool: DocumentReadingPool;
beforeAll(() => {
  pool = new DocumentReadingPool();
});
afterAll(() => pool.close());

async function cardFields(
  layoutName: string,
  degradationName = 'clean',
  values: CardValues = CARD,
): Promise<Record<string, string | null>> {
  const layout = CARD_LAYOUTS.find((candidate) => candidate.name === layoutName);
  if (!layout) throw new Error(`no layout ${layoutName}`);
  const faces = await Promise.all(
    cardFaces(values, layout).map((face) => renderFace(face, degradation(degradationName))),
  );
  const readings = [];
  for (const face of faces) readings.push(await pool.read(face));
  const card = readInsuranceCard(readings.flatMap((reading) => reading.pages));
  return Object.fromEntries(Object.entries(card).map(([field, value]) => [field, value?.value ?? null]));
}

const IDENTIFIERS = {
  payer_name: 'Sandbox Health Plan',
  member_id: 'W123456789',
  group_number: '0012345',
  rx_bin: '999901',
  rx_pcn: 'SBX',
  rx_group: 'RX4471',
};

describe('reading an insurance card image', () => {
  it('reads the identifiers of a clean PNG card', async () => {
    expect(await cardFields('blue-beside')).toMatchObject(IDENTIFIERS);
  });

  it('reads the identifiers of a card printed in columns, values below their labels', async () => {
    expect(await cardFields('white-columns')).toMatchObject(IDENTIFIERS);
  });

  it('reads a phone-like JPEG, 500 pixels wide at quality 40', async () => {
    expect(await cardFields('grey-subscriber', 'narrow-500px')).toMatchObject(IDENTIFIERS);
  });

  it('reads a card photographed sideways (rotated 90°)', async () => {
    expect(await cardFields('blue-beside', 'rotated-90')).toMatchObject(IDENTIFIERS);
  });

  it('reads a card photographed askew (8°), levelled before it is read', async () => {
    expect(await cardFields('white-columns', 'skew-minus-8deg')).toMatchObject(IDENTIFIERS);
  });

  it('reads a card photographed from one side, its print stood up before it is read', async () => {
    expect(await cardFields('blue-beside', 'perspective-shear')).toMatchObject(IDENTIFIERS);
  });

  it('reads a member id printed right after its `ID#` label', async () => {
    const fields = await cardFields('green-hash', 'clean', { ...CARD, memberId: 'JYN352859844' });
    expect(fields.member_id).toBe('JYN352859844');
  });

  it('reads the front and the back of one card sent as two documents', async () => {
    expect(await cardFields('green-hash')).toMatchObject(IDENTIFIERS);
  });

  it('reads TIFF, GIF and WebP as well as PNG and JPEG, deciding the type by the bytes', async () => {
    const png = await renderFace(cardFaces(CARD, CARD_LAYOUTS[0])[0]);
    const formats = await Promise.all([
      sharp(png).tiff().toBuffer(),
      sharp(png).gif().toBuffer(),
      sharp(png).webp({ quality: 90 }).toBuffer(),
    ]);
    const readings: DocumentReading[] = [];
    for (const bytes of formats) readings.push(await pool.read(bytes));
    expect(readings.map((reading) => [reading.format, reading.status, reading.method])).toEqual([
      ['tiff', 'read', 'ocr'],
      ['gif', 'read', 'ocr'],
      ['webp', 'read', 'ocr'],
    ]);
    for (const reading of readings) expect(documentText(reading)).toContain('W123456789');
  });

  it('finds no card fields in an image of a letter', async () => {
    const letter = await scannedPage(['Dear colleague,', 'thank you for seeing our patient on Tuesday.']);
    const reading = await pool.read(letter.scan);
    const card = readInsuranceCard(reading.pages);
    expect(Object.values(card).filter((value) => value !== null)).toEqual([]);
  });
});

describe('reading a PDF', () => {
  it('reads a text layer directly, with the words the note holds', async () => {
    const reading = await pool.read(pdfDocument([{ lines: NOTE }]));
    expect([reading.status, reading.method, reading.pageCount]).toEqual(['read', 'pdf_text', 1]);
    expect(documentText(reading)).toBe(NOTE.join('\n'));
  });

  it('recognises a scanned page, with the words the note holds', async () => {
    const reading = await pool.read(pdfDocument([await scannedPage(NOTE)]));
    expect([reading.status, reading.method]).toEqual(['read', 'ocr']);
    expect(documentText(reading)).toContain('diabetes mellitus');
    expect(documentText(reading)).toContain('8.1 percent');
  });

  it('reads a mixed PDF page by page: the text page directly, the scanned page by OCR', async () => {
    const reading = await pool.read(
      pdfDocument([{ lines: NOTE }, await scannedPage(['Page two', 'BMI 32.'])]),
    );
    expect([reading.status, reading.method]).toEqual(['read', 'mixed']);
    expect(reading.pages.map((page) => [page.number, page.method])).toEqual([
      [1, 'pdf_text'],
      [2, 'ocr'],
    ]);
  });

  it('keeps a small JPEG of each page it read, for a reviewer to see', async () => {
    const reading = await pool.read(
      pdfDocument([{ lines: NOTE }, await scannedPage(['Page two', 'BMI 32.'])]),
    );

    const previews = reading.previews ?? [];
    expect(previews.map((preview) => preview.page)).toEqual([1, 2]);
    for (const preview of previews) {
      const { format, width, height } = await sharp(Buffer.from(preview.jpeg, 'base64')).metadata();
      expect([format, Math.max(width!, height!) <= DEFAULT_READING_SETTINGS.limits.previewLongSide]).toEqual([
        'jpeg',
        true,
      ]);
    }
  });

  it('reports a PDF that needs a password as unreadable, saying so', async () => {
    const reading = await pool.read(pdfDocument([{ lines: NOTE }], { encrypted: true }));
    expect([reading.status, reading.reason]).toEqual([
      'unreadable',
      'The PDF is protected by a password, so it could not be opened.',
    ]);
  });

  it('lists the pages past the page limit as not read', async () => {
    const limited = new DocumentReadingPool({
      ...DEFAULT_READING_SETTINGS,
      limits: { ...DEFAULT_READING_SETTINGS.limits, maxTextPages: 2 },
    });
    try {
      const reading = await limited.read(
        pdfDocument([{ lines: ['one'] }, { lines: ['two'] }, { lines: ['three'] }]),
      );
      expect([reading.status, reading.pages.length, reading.unread]).toEqual([
        'partly_read',
        2,
        [{ number: 3, reason: 'only the first 2 pages of a PDF are read' }],
      ]);
    } finally {
      await limited.close();
    }
  });
});

describe('documents the reader cannot read', () => {
  it('refuses a small image that decodes to 30,000 × 30,000 pixels without decoding it', async () => {
    const reading = await pool.read(decompressionBomb());
    expect([reading.format, reading.status]).toEqual(['png', 'unreadable']);
    expect(reading.reason).toMatch(/over the 40,000,000-pixel limit/);
  });

  it('reports a truncated image as unreadable', async () => {
    const png = await renderFace(cardFaces(CARD, CARD_LAYOUTS[0])[0]);
    const reading = await pool.read(png.subarray(0, 2000));
    expect([reading.status, reading.reason]).toEqual([
      'unreadable',
      'The PNG image could not be decoded (truncated or corrupt).',
    ]);
  });

  it('reports a HEIC photo as unsupported, naming its type', async () => {
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypheic', 'latin1'),
      Buffer.alloc(16),
    ]);
    expect(await pool.read(heic)).toMatchObject({
      status: 'unsupported',
      reason: 'The document is a HEIC/HEIF image.',
    });
  });

  it('stops a page that outlasts its time limit, and reads the next document on a fresh thread', async () => {
    const hurried = new DocumentReadingPool({ ...DEFAULT_READING_SETTINGS, pageTimeoutMs: 1 });
    try {
      const stopped = await hurried.read(await renderFace(cardFaces(CARD, CARD_LAYOUTS[0])[0]));
      expect([stopped.status, stopped.reason]).toEqual([
        'unreadable',
        'The document was not read: reading a page took longer than the 0.001-second limit.',
      ]);
      const text = await hurried.read(Buffer.from('Member ID: W123456789\n'));
      expect(text.status).toBe('read');
    } finally {
      await hurried.close();
    }
  });

  it('stops pages in the middle of either reader without taking the process down, then reads a card whole', async () => {
    const card = await renderFace(cardFaces(CARD, CARD_LAYOUTS[0])[0]);
    // Limits that fall at different points of a card's reading: loading the models, Tesseract, the detector, the recogniser.
    for (const pageTimeoutMs of [150, 400, 900, 1400]) {
      const hurried = new DocumentReadingPool({ ...DEFAULT_READING_SETTINGS, pageTimeoutMs });
      try {
        for (let attempt = 0; attempt < 2; attempt += 1) await hurried.read(card);
      } finally {
        await hurried.close();
      }
    }
    expect((await cardFields('blue-beside')).member_id).toBe(CARD.memberId);
  });
});

describe('reading real clinical PDFs nobody here wrote (HL7 C-CDA examples, CC0)', () => {
  const fixture = (name: string) =>
    readFileSync(path.join(__dirname, '../fixtures/documents/hl7-c-cda-examples', name));
  const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

  it.each([
    ['discharge-summary.pdf', 3],
    ['lab-report.pdf', 3],
    ['advance-directive.pdf', 7],
  ])('reads every page of the text layer of %s', async (name, pages) => {
    const reading = await pool.read(fixture(name));

    expect([reading.status, reading.method, reading.pageCount, reading.pages.length]).toEqual([
      'read',
      'pdf_text',
      pages,
      pages,
    ]);
  });

  it('finds no insurance card field in any of them: a patient id or an account number is no member id', async () => {
    for (const name of ['discharge-summary.pdf', 'lab-report.pdf', 'advance-directive.pdf']) {
      const card = readInsuranceCard((await pool.read(fixture(name))).pages);
      expect(Object.values(card).filter((value) => value !== null)).toEqual([]);
    }
  });

  it('reads a scanned copy of the discharge medications by OCR, with the words of its text layer', async () => {
    const original = await pool.read(fixture('discharge-summary.pdf'));
    const scanned = await pool.read(await scannedCopy(fixture('discharge-summary.pdf'), { pages: [3] }));

    expect([scanned.status, scanned.method]).toEqual(['read', 'ocr']);
    const printed = wordsOf(pageText(original.pages[2]!));
    const recognised = wordsOf(documentText(scanned));
    const found = [...printed].filter((word) => recognised.has(word)).length;
    expect(found / printed.size).toBeGreaterThanOrEqual(0.95);
    expect(documentText(scanned)).toContain('Zocor 20 mg');
  });
});
