import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

import sharp from 'sharp';
import type { Sharp } from 'sharp';

import type { CardField } from '../domain/payers/card-fields';

/**
 * Documents made here, so the reader is measured and tested on files nobody outside wrote and whose
 * printed values are known: insurance cards in several layouts (the bench's corpus, and the small
 * sample the tests read), PDFs with a text layer, scanned pages or both, and broken files.
 */

/** The fields the bench scores: those every generated card prints. */
export const SCORED: readonly CardField[] = [
  'member_id',
  'group_number',
  'rx_bin',
  'rx_pcn',
  'rx_group',
  'member_name',
];

export interface CardValues {
  payerName: string;
  planName: string;
  memberName: string;
  memberId: string;
  groupNumber: string;
  rxBin: string;
  rxPcn: string;
  rxGroup: string;
  clientName?: string;
  effectiveDate?: string;
  payerId?: string;
}

/**
 * A card of the sandbox catalog's Blue Horizon Health PPO Select plan, which a case can complete from.
 * Its member id has no Z: the sandbox's ZZ ids read as 22 under OCR, as they would on a real card.
 */
export const BLUE_HORIZON_CARD: CardValues = {
  payerName: 'Blue Horizon Health',
  planName: 'PPO Select',
  memberName: 'JANE Q SAMPLE',
  memberId: 'W123456789',
  groupNumber: '0100',
  rxBin: '999901',
  rxPcn: 'SBXBHHPPO',
  rxGroup: 'SBXBHH0100',
};

/** The members' names the bench's cards print, a first name and a last. */
export const MEMBER_FIRST_NAMES = [
  'JANE',
  'OMAR',
  'LUCIA',
  'WEI',
  'PRIYA',
  'JOHN',
  'AMARA',
  'KOFI',
  'ELENA',
  'MATEO',
];
export const MEMBER_LAST_NAMES = [
  'SAMPLE',
  'RIVERA',
  'OKAFOR',
  'NGUYEN',
  'HALVORSEN',
  'PATEL',
  'KOWALSKI',
  'MORENO',
];

/** How a card prints its values: label words, colours, and where values sit relative to labels. */
export interface CardLayout {
  name: string;
  background: string;
  ink: string;
  accent: string;
  memberIdLabel: string;
  groupLabel: string;
  nameLabel: string;
  binLabel: string;
  pcnLabel: string;
  rxGroupLabel: string;
  /** `beside`: "ID: W123"; `below`: label over value, in columns. */
  placement: 'beside' | 'below';
  /** Pharmacy block (BIN, PCN, RxGroup) on the back of the card, a second document. */
  pharmacyOnBack: boolean;
  font: string;
}

export const CARD_LAYOUTS: readonly CardLayout[] = [
  {
    name: 'blue-beside',
    background: '#e8f0fb',
    ink: '#0b2545',
    accent: '#13315c',
    memberIdLabel: 'Member ID:',
    groupLabel: 'Group:',
    nameLabel: 'Member:',
    binLabel: 'RxBIN:',
    pcnLabel: 'RxPCN:',
    rxGroupLabel: 'RxGrp:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'DejaVu Sans',
  },
  {
    name: 'white-columns',
    background: '#ffffff',
    ink: '#222222',
    accent: '#7a1f5c',
    memberIdLabel: 'MEMBER ID',
    groupLabel: 'GROUP #',
    nameLabel: 'MEMBER NAME',
    binLabel: 'RxBIN',
    pcnLabel: 'RxPCN',
    rxGroupLabel: 'RxGROUP',
    placement: 'below',
    pharmacyOnBack: false,
    font: 'Liberation Sans',
  },
  {
    name: 'green-hash',
    background: '#eaf6ec',
    ink: '#1b4332',
    accent: '#2d6a4f',
    memberIdLabel: 'ID#',
    groupLabel: 'Grp#',
    nameLabel: 'Name:',
    binLabel: 'BIN',
    pcnLabel: 'PCN',
    rxGroupLabel: 'Rx Group',
    placement: 'beside',
    pharmacyOnBack: true,
    font: 'DejaVu Sans',
  },
  {
    name: 'grey-subscriber',
    background: '#f1f1f1',
    ink: '#111111',
    accent: '#444444',
    memberIdLabel: 'Subscriber ID:',
    groupLabel: 'Group Number:',
    nameLabel: 'Subscriber:',
    binLabel: 'Rx BIN:',
    pcnLabel: 'Rx PCN:',
    rxGroupLabel: 'RxGroup:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'Liberation Serif',
  },
  {
    name: 'navy-member-hash',
    background: '#dfe7f2',
    ink: '#0d1b2a',
    accent: '#1b263b',
    memberIdLabel: 'Member #',
    groupLabel: 'Group No.',
    nameLabel: 'Member Name:',
    binLabel: 'BIN:',
    pcnLabel: 'PCN:',
    rxGroupLabel: 'RxGRP:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'DejaVu Serif',
  },
  {
    name: 'orange-columns-back',
    background: '#fff4e6',
    ink: '#3d2b1f',
    accent: '#c2570c',
    memberIdLabel: 'IDENTIFICATION NUMBER',
    groupLabel: 'GROUP NUMBER',
    nameLabel: 'NAME',
    binLabel: 'RxBIN',
    pcnLabel: 'RxPCN',
    rxGroupLabel: 'RxGRP',
    placement: 'below',
    pharmacyOnBack: true,
    font: 'DejaVu Sans',
  },
  {
    name: 'medicaid-recipient',
    background: '#f3f0ff',
    ink: '#2b2350',
    accent: '#5f3dc4',
    memberIdLabel: 'Recipient ID:',
    groupLabel: 'Group:',
    nameLabel: 'Recipient:',
    binLabel: 'RxBIN:',
    pcnLabel: 'RxPCN:',
    rxGroupLabel: 'RxGroup:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'Liberation Sans',
  },
  {
    name: 'teal-mono',
    background: '#e6fcf5',
    ink: '#0b3d2e',
    accent: '#087f5b',
    memberIdLabel: 'ID:',
    groupLabel: 'GRP:',
    nameLabel: 'Member:',
    binLabel: 'BIN:',
    pcnLabel: 'PCN:',
    rxGroupLabel: 'RXGRP:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'DejaVu Sans Mono',
  },
  {
    name: 'red-columns',
    background: '#fff5f5',
    ink: '#2b0a0a',
    accent: '#c92a2a',
    memberIdLabel: 'SUBSCRIBER ID',
    groupLabel: 'GROUP ID',
    nameLabel: 'SUBSCRIBER NAME',
    binLabel: 'BIN',
    pcnLabel: 'PCN',
    rxGroupLabel: 'RX GROUP',
    placement: 'below',
    pharmacyOnBack: false,
    font: 'Liberation Serif',
  },
  {
    name: 'dark-card',
    background: '#1f2933',
    ink: '#f5f7fa',
    accent: '#9fb3c8',
    memberIdLabel: 'Member ID',
    groupLabel: 'Group',
    nameLabel: 'Name',
    binLabel: 'RxBIN',
    pcnLabel: 'RxPCN',
    rxGroupLabel: 'RxGrp',
    placement: 'below',
    pharmacyOnBack: false,
    font: 'DejaVu Sans',
  },
  {
    name: 'yellow-policy',
    background: '#fff9db',
    ink: '#2b2a05',
    accent: '#e67700',
    memberIdLabel: 'Policy ID:',
    groupLabel: 'Group #:',
    nameLabel: 'Insured:',
    binLabel: 'Rx BIN',
    pcnLabel: 'Rx PCN',
    rxGroupLabel: 'Rx Group',
    placement: 'beside',
    pharmacyOnBack: true,
    font: 'Liberation Sans',
  },
  {
    name: 'pink-enrollee',
    background: '#fff0f6',
    ink: '#3b0a24',
    accent: '#a61e4d',
    memberIdLabel: 'Enrollee ID:',
    groupLabel: 'Group Number:',
    nameLabel: 'Enrollee:',
    binLabel: 'RxBIN:',
    pcnLabel: 'RxPCN:',
    rxGroupLabel: 'RxGRP:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'DejaVu Serif',
  },
];

/**
 * Layouts the reader was never tuned on: added after its rules were written and scored apart, with
 * values of another seed, so their figures say how the reader does on cards it has not seen.
 */
export const HELD_OUT_LAYOUTS: readonly CardLayout[] = [
  {
    name: 'held-out-purple-member-number',
    background: '#f8f0fc',
    ink: '#2f0b3a',
    accent: '#862e9c',
    memberIdLabel: 'Member Number:',
    groupLabel: 'Group ID:',
    nameLabel: 'Member Name:',
    binLabel: 'BIN #',
    pcnLabel: 'PCN #',
    rxGroupLabel: 'Rx Grp:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'Liberation Sans',
  },
  {
    name: 'held-out-slate-columns-back',
    background: '#edf2f7',
    ink: '#1a202c',
    accent: '#2c5282',
    memberIdLabel: 'ID NUMBER',
    groupLabel: 'GRP',
    nameLabel: 'ENROLLEE',
    binLabel: 'RX BIN',
    pcnLabel: 'RX PCN',
    rxGroupLabel: 'RX GRP',
    placement: 'below',
    pharmacyOnBack: true,
    font: 'DejaVu Serif',
  },
  {
    name: 'held-out-olive-insured',
    background: '#f4f7e8',
    ink: '#2d3010',
    accent: '#5c940d',
    memberIdLabel: 'Insured ID:',
    groupLabel: 'Group No:',
    nameLabel: 'Insured:',
    binLabel: 'RxBin:',
    pcnLabel: 'RxPcn:',
    rxGroupLabel: 'RxGrp:',
    placement: 'beside',
    pharmacyOnBack: false,
    font: 'DejaVu Sans Mono',
  },
];

/** The card field its member id label fills: a Medicaid card's "Recipient ID" is the Medicaid id. */
export function memberIdFieldOf(layout: CardLayout): 'member_id' | 'medicaid_id' {
  return /recipient/i.test(layout.memberIdLabel) ? 'medicaid_id' : 'member_id';
}

const WIDTH = 1012;
const HEIGHT = 638;

/** The card as one or two SVG faces (front, and back when its pharmacy block is printed there). */
export function cardFaces(values: CardValues, layout: CardLayout): string[] {
  const identity: Array<[string, string]> = [
    [layout.nameLabel, values.memberName],
    [layout.memberIdLabel, values.memberId],
    [layout.groupLabel, values.groupNumber],
  ];
  const pharmacy: Array<[string, string]> = [
    [layout.binLabel, values.rxBin],
    [layout.pcnLabel, values.rxPcn],
    [layout.rxGroupLabel, values.rxGroup],
  ];
  const header = [
    text(40, 78, values.payerName, 46, layout, true),
    text(40, 126, values.planName, 28, layout, false, layout.accent),
  ];
  const front = layout.pharmacyOnBack ? identity : [...identity, ...pharmacy];
  const frontBody = layout.placement === 'beside' ? beside(front, 200, layout) : columns(front, 200, layout);
  const faces = [face(layout, [...header, ...frontBody, ...footer(values, layout)])];
  if (layout.pharmacyOnBack) {
    faces.push(
      face(layout, [
        text(40, 80, 'Pharmacy benefits', 34, layout, true),
        ...beside(pharmacy, 170, layout),
        text(40, 560, 'Member Services 1-800-555-0100', 24, layout, false, layout.accent),
      ]),
    );
  }
  return faces;
}

function footer(values: CardValues, layout: CardLayout): string[] {
  const lines: string[] = [];
  if (values.clientName) lines.push(text(40, 520, `Employer: ${values.clientName}`, 24, layout));
  if (values.effectiveDate) lines.push(text(560, 520, `Effective: ${values.effectiveDate}`, 24, layout));
  if (values.payerId) lines.push(text(40, 570, `Payer ID: ${values.payerId}`, 24, layout));
  return lines;
}

function beside(pairs: Array<[string, string]>, top: number, layout: CardLayout): string[] {
  return pairs.map(([label, value], index) => text(40, top + index * 52, `${label} ${value}`, 32, layout));
}

export const COLUMN_PITCH = 320;
/** The widest a column's value may print, so 20 px stay clear before the next column's. */
export const COLUMN_VALUE_WIDTH = COLUMN_PITCH - 20;

/** Three columns of label over value, the rows 120 px apart. */
function columns(pairs: Array<[string, string]>, top: number, layout: CardLayout): string[] {
  return pairs.flatMap(([label, value], index) => {
    const x = 40 + (index % 3) * COLUMN_PITCH;
    const y = top + Math.floor(index / 3) * 120;
    return [
      text(x, y, label, 22, layout, false, layout.accent),
      text(x, y + 40, value, fittedBoldSize(value, 32, COLUMN_VALUE_WIDTH, layout), layout, true),
    ];
  });
}

/**
 * Of each face a column layout prints in, an upper bound on a bold capital's or digit's mean advance,
 * in ems, measured on every name and longest id this corpus prints (DejaVu Sans Bold 0.787, DejaVu
 * Serif Bold 0.838).
 */
const BOLD_ADVANCE_EMS: Readonly<Record<string, number>> = {
  'DejaVu Sans': 0.8,
  'DejaVu Serif': 0.85,
  'Liberation Sans': 0.72,
  'Liberation Serif': 0.74,
};

/**
 * The size at which a bold value spans at most `width` px, as a card printer sets a long name smaller
 * to keep it in its box: at the layout's size, `MATEO HALVORSEN` ran into the next column's id, and
 * no reader can part two values printed over each other.
 */
function fittedBoldSize(content: string, size: number, width: number, layout: CardLayout): number {
  const advance = BOLD_ADVANCE_EMS[layout.font];
  if (advance === undefined)
    throw new Error(`No bold advance measured for a column layout in ${layout.font}`);
  const widest = content.length * size * advance;
  return widest <= width ? size : Math.floor((size * width) / widest);
}

function text(
  x: number,
  y: number,
  content: string,
  size: number,
  layout: CardLayout,
  bold = false,
  colour = layout.ink,
): string {
  const weight = bold ? ' font-weight="bold"' : '';
  return `<text x="${x}" y="${y}" font-family="${layout.font}, sans-serif" font-size="${size}"${weight} fill="${colour}">${escapeXml(content)}</text>`;
}

function face(layout: CardLayout, elements: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">` +
    `<rect width="100%" height="100%" rx="36" fill="${layout.background}"/>` +
    `<rect y="${HEIGHT - 28}" width="100%" height="28" fill="${layout.accent}"/>` +
    elements.join('') +
    '</svg>'
  );
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Light from a lamp or window on the card's laminate: a bright patch over part of the print. */
const GLARE =
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">` +
  '<defs><radialGradient id="g" cx="0.62" cy="0.38" r="0.32">' +
  '<stop offset="0" stop-color="#ffffff" stop-opacity="0.85"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/>' +
  '</radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>';

/** How a photo or scan spoils a clean card. */
export interface Degradation {
  name: string;
  apply(image: Sharp): Sharp;
  format: 'png' | 'jpeg';
}

export const CLEAN: Degradation = { name: 'clean', apply: (image) => image, format: 'png' };

export const DEGRADATIONS: readonly Degradation[] = [
  { name: 'jpeg-q40', apply: (image) => image, format: 'jpeg' },
  { name: 'blur', apply: (image) => image.blur(1.2), format: 'png' },
  { name: 'narrow-500px', apply: (image) => image.resize({ width: 500 }), format: 'jpeg' },
  { name: 'rotated-90', apply: (image) => image.rotate(90), format: 'png' },
  { name: 'rotated-180', apply: (image) => image.rotate(180), format: 'png' },
  { name: 'rotated-270', apply: (image) => image.rotate(270), format: 'png' },
  { name: 'skew-4deg', apply: (image) => image.rotate(4, { background: '#888888' }), format: 'jpeg' },
  { name: 'skew-8deg', apply: (image) => image.rotate(8, { background: '#888888' }), format: 'jpeg' },
  { name: 'skew-minus-8deg', apply: (image) => image.rotate(-8, { background: '#888888' }), format: 'jpeg' },
  {
    // A card photographed from one side: sharp has no projective warp, so a shear stands for it.
    name: 'perspective-shear',
    apply: (image) =>
      image.affine(
        [
          [1, 0.12],
          [0.04, 1],
        ],
        { background: '#555555' },
      ),
    format: 'jpeg',
  },
  {
    name: 'glare',
    apply: (image) => image.composite([{ input: Buffer.from(GLARE), blend: 'screen' }]),
    format: 'jpeg',
  },
  {
    name: 'dark-background',
    apply: (image) => image.extend({ top: 90, bottom: 90, left: 140, right: 140, background: '#1b1b1b' }),
    format: 'jpeg',
  },
];

/** A face rendered to image bytes, spoiled as the degradation says. */
export async function renderFace(svg: string, degradation: Degradation = CLEAN): Promise<Buffer> {
  const flat = await sharp(Buffer.from(svg)).flatten({ background: '#777777' }).png().toBuffer();
  const spoiled = degradation.apply(sharp(flat));
  return degradation.format === 'jpeg' ? spoiled.jpeg({ quality: 40 }).toBuffer() : spoiled.png().toBuffer();
}

/** A PDF page: lines of text (a text layer), or a JPEG filling the page (a scan). */
export type PdfPageContent = { lines: string[] } | { scan: Buffer; width: number; height: number };

/**
 * A minimal PDF 1.4 writer: Helvetica text pages and DCT image pages, with a cross-reference table.
 * `encrypted` adds a standard security handler whose user password is not empty, so a reader must ask.
 */
export function pdfDocument(pages: readonly PdfPageContent[], options: { encrypted?: boolean } = {}): Buffer {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) =>
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, written once the page ids are known
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const page of pages) {
    let content: string;
    let resources: string;
    if ('lines' in page) {
      content = page.lines
        .map((line, index) => `BT /F1 12 Tf 72 ${740 - index * 16} Td (${escapePdf(line)}) Tj ET`)
        .join('\n');
      resources = '<< /Font << /F1 3 0 R >> >>';
    } else {
      add(
        Buffer.concat([
          Buffer.from(
            `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceGray ` +
              `/BitsPerComponent 8 /Filter /DCTDecode /Length ${page.scan.length} >>\nstream\n`,
            'latin1',
          ),
          page.scan,
          Buffer.from('\nendstream', 'latin1'),
        ]),
      );
      const imageId = objects.length;
      content = `q 612 0 0 792 0 0 cm /Im${imageId} Do Q`;
      resources = `<< /XObject << /Im${imageId} ${imageId} 0 R >> >>`;
    }
    add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const contentId = objects.length;
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contentId} 0 R /Resources ${resources} >>`,
    );
    pageIds.push(objects.length);
  }
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    'latin1',
  );
  let encryption = '';
  if (options.encrypted) {
    const hex = (bytes: number) => randomBytes(bytes).toString('hex');
    add(`<< /Filter /Standard /V 1 /R 2 /O <${hex(32)}> /U <${hex(32)}> /P -44 >>`);
    encryption = ` /Encrypt ${objects.length} 0 R /ID [<${hex(16)}> <${hex(16)}>]`;
  }
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0].length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const framed = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    chunks.push(framed);
    length += framed.length;
  });
  const table =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encryption} >>\nstartxref\n${length}\n%%EOF\n`;
  chunks.push(Buffer.from(table, 'latin1'));
  return Buffer.concat(chunks);
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (char) => `\\${char}`);
}

/** Lines of text as a scanned page: rendered at 200 dpi on letter paper, grey, as a fax would be. */
export async function scannedPage(
  lines: readonly string[],
): Promise<{ scan: Buffer; width: number; height: number }> {
  const width = 1700;
  const height = 2200;
  const body = lines
    .map(
      (line, index) =>
        `<text x="150" y="${260 + index * 56}" font-family="DejaVu Serif, serif" font-size="36" fill="#111">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdfdfb"/>${body}</svg>`;
  const scan = await sharp(Buffer.from(svg)).grayscale().jpeg({ quality: 75 }).toBuffer();
  return { scan, width, height };
}

/**
 * A scanned copy of a PDF, as a clinic's fax or scanner would send it: each page (all, or those asked
 * for) rendered at `dpi` through pdf.js, grey, JPEG at quality 75, in an image-only PDF with no text
 * layer. For real documents whose words are known from their own text layer.
 */
export async function scannedCopy(
  pdf: Buffer,
  options: { pages?: readonly number[]; dpi?: number } = {},
): Promise<Buffer> {
  const { getDocumentProxy, renderPageAsImage } = await import('unpdf');
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const numbers = options.pages ?? Array.from({ length: document.numPages }, (_, index) => index + 1);
  const pages: PdfPageContent[] = [];
  for (const number of numbers) {
    const rendered = await renderPageAsImage(document, number, {
      canvasImport: () => import('@napi-rs/canvas'),
      scale: (options.dpi ?? 200) / 72,
    });
    const image = sharp(Buffer.from(rendered)).flatten({ background: '#ffffff' }).grayscale();
    const { width, height } = await image.metadata();
    pages.push({ scan: await image.jpeg({ quality: 75 }).toBuffer(), width: width!, height: height! });
  }
  return pdfDocument(pages);
}

/**
 * A small PNG that claims 30,000 × 30,000 pixels with one valid compressed row: a reader that decoded
 * before checking would need 900 MB for it.
 */
export function decompressionBomb(): Buffer {
  const side = 30_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const row = deflateSync(Buffer.alloc(side + 1));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', row),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
