import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import sharp from 'sharp';

import type { CardForm, ChromiumCardValues } from './chromium-cards';
import { seededRandom } from './seeded-random';

/**
 * Insurance cards drawn by Ghostscript from PostScript written here. The reader was never tuned on them
 * until issue 41's eighteenth stop, which took Java 2D (bench/java2d-cards.ts) as the renderer kept
 * apart and looked at these cards' misses.
 * Only the printed values come from `randomCard` (bench/chromium-cards.ts); the drawing shares no code
 * with the other renderers. Each card is 85.6 × 54 mm in one of the URW base-35 faces, on a light,
 * dark or gradient ground (white print on the dark ones), with its own label wordings, labels above
 * or beside their values, and the pharmacy block as lines or as a ruled table. A scan lays it a little
 * askew on a flatbed at 300 dpi (PNG); a photo lays it turned, sheared and scaled on a desk pattern
 * under a soft glare, then sharp blurs it, adds sensor noise, saves a JPEG and turns it by none to
 * three quarter turns, as a phone may be held.
 *
 * Licences: Ghostscript is AGPL, and the URW base-35 fonts it draws with (Debian's `fonts-urw-base35`)
 * are AGPL or GPL with a font exception. Both are used only at bench time, through `gs` run as an
 * external program: never linked, never shipped, never run by the service.
 */

const run = promisify(execFile);

/** ISO/IEC 7810 ID-1, in millimetres: every drawing below is in card millimetres. */
const CARD = { width: 85.6, height: 54, cornerRadius: 3.18 };
const SCAN_DPI = 300;
/** The phone's frame in pixels, and the resolution that sets how many millimetres it spans. */
const PHOTO_FRAME = { width: 1360, height: 1020, dpi: 150 };

/**
 * Regular and bold of the base-35 families, under the names this Ghostscript resolves (checked with
 * `/Name findfont /FontName get`); the `face` procedure fails a card rather than let `gs` print it in
 * the Courier it substitutes for a face it lacks.
 */
const FAMILIES = [
  { regular: 'NimbusSans-Regular', bold: 'NimbusSans-Bold' },
  { regular: 'NimbusSansNarrow-Regular', bold: 'NimbusSansNarrow-Bold' },
  { regular: 'NimbusRoman-Regular', bold: 'NimbusRoman-Bold' },
  { regular: 'NimbusMonoPS-Regular', bold: 'NimbusMonoPS-Bold' },
  { regular: 'URWBookman-Light', bold: 'URWBookman-Demi' },
  { regular: 'P052-Roman', bold: 'P052-Bold' },
  { regular: 'URWGothic-Book', bold: 'URWGothic-Demi' },
  { regular: 'C059-Roman', bold: 'C059-Bold' },
] as const;
const WORDINGS = {
  name: ['Member', 'Member Name', 'Name', 'Subscriber'],
  memberId: ['Member ID', 'ID #', 'Subscriber ID', 'Identification No.', 'Member No.'],
  group: ['Group', 'GRP', 'Group No.', 'Group Number'],
  bin: ['RxBIN', 'BIN'],
  pcn: ['RxPCN', 'PCN'],
  rxGroup: ['RxGrp', 'RxGroup'],
};

/** Procedures every program starts with, in PostScript. */
const PROLOGUE = `%!PS-Adobe-3.0
/face { % name -> font; an error, not Courier, when this Ghostscript lacks the face
  dup findfont dup /FontName get 2 index ne { pop /undefinedresource signalerror } { exch pop } ifelse
} bind def
/fitshow { % string right -> shows the string from the current point, narrowed to end by x = right
  currentpoint pop sub 1 index stringwidth pop
  2 copy ge { pop pop show } { div gsave currentpoint translate 1 scale 0 0 moveto show grestore } ifelse
} bind def
/roundrect { % x y width height radius -> the path of a rectangle with rounded corners
  5 dict begin /r exch def /h exch def /w exch def /y exch def /x exch def
  newpath x r add y moveto
  x w add y x w add y h add r arct x w add y h add x y h add r arct
  x y h add x y r arct x y x w add y r arct closepath
  end
} bind def
`;

/** Whether this machine has Ghostscript (Debian's `ghostscript`), and not a stand-in. */
export async function ghostscriptAvailable(): Promise<boolean> {
  try {
    const { stdout } = await run('gs', ['--help']);
    return stdout.includes('Ghostscript');
  } catch {
    return false;
  }
}

export interface GhostscriptCard {
  values: ChromiumCardValues;
  form: CardForm;
  seed: number;
}

/** Draws one card, photographed or scanned; the bytes are a JPEG (photo) or a PNG (scan). */
export async function drawGhostscriptCard(card: GhostscriptCard): Promise<Buffer> {
  const random = seededRandom(card.seed ^ 0x9e3779b9);
  const face = cardFace(card.values, cardStyle(random));
  if (card.form === 'scan') return await ghostscript(scanProgram(face, random));
  return await photograph(await ghostscript(photoProgram(face, random)), random);
}

type Rgb = readonly [number, number, number];
type Ground = { kind: 'solid'; colour: Rgb } | { kind: 'gradient'; from: Rgb; to: Rgb; angle: number };

interface CardStyle {
  family: (typeof FAMILIES)[number];
  ground: Ground;
  ink: Rgb;
  labelInk: Rgb;
  /** The header band's and the table header's fill, and the print on it. */
  accent: Rgb;
  onAccent: Rgb;
  headerBand: boolean;
  labelsAbove: boolean;
  uppercaseLabels: boolean;
  colon: boolean;
  boldValues: boolean;
  idAndGroupSideBySide: boolean;
  pharmacy: 'table' | 'filled-table' | 'lines' | 'paired-lines';
  /** Em sizes in millimetres. */
  sizes: { payer: number; value: number; label: number; pharmacy: number };
  margin: number;
  words: Record<keyof typeof WORDINGS, string>;
}

function cardStyle(random: () => number): CardStyle {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const between = (low: number, high: number) => low + random() * (high - low);
  const hue = random() * 360;
  const dark = random() < 0.35;
  const gradient = random() < 0.5;
  const angle = random() * 180;
  const ground: Ground = dark
    ? gradient
      ? { kind: 'gradient', from: hsl(hue, 0.65, 0.16), to: hsl(hue + 40, 0.6, 0.42), angle }
      : { kind: 'solid', colour: hsl(hue, between(0.3, 0.7), between(0.16, 0.28)) }
    : gradient
      ? { kind: 'gradient', from: hsl(hue, 0.5, 0.97), to: hsl(hue + 30, 0.5, between(0.78, 0.88)), angle }
      : { kind: 'solid', colour: hsl(hue, between(0.2, 0.5), between(0.93, 0.98)) };
  const value = between(2.8, 3.6);
  const labelsAbove = random() < 0.5;
  return {
    family: pick(FAMILIES),
    ground,
    ink: dark ? [1, 1, 1] : random() < 0.3 ? [0, 0, 0] : hsl(hue, 0.55, between(0.1, 0.2)),
    labelInk: dark ? [0.86, 0.86, 0.9] : hsl(hue, 0.15, between(0.35, 0.45)),
    accent: dark ? hsl(hue, 0.3, 0.9) : hsl(hue + between(-20, 20), 0.6, between(0.22, 0.35)),
    onAccent: dark ? hsl(hue, 0.6, 0.15) : [1, 1, 1],
    headerBand: random() < 0.35,
    labelsAbove,
    uppercaseLabels: random() < 0.5,
    colon: random() < 0.6,
    boldValues: random() < 0.5,
    idAndGroupSideBySide: labelsAbove && random() < 0.6,
    pharmacy: pick(['table', 'filled-table', 'lines', 'paired-lines'] as const),
    sizes: {
      payer: between(4.2, 5.6),
      value,
      label: labelsAbove ? value * between(0.55, 0.8) : value,
      pharmacy: value * between(0.8, 0.95),
    },
    margin: between(4, 6),
    words: {
      name: pick(WORDINGS.name),
      memberId: pick(WORDINGS.memberId),
      group: pick(WORDINGS.group),
      bin: pick(WORDINGS.bin),
      pcn: pick(WORDINGS.pcn),
      rxGroup: pick(WORDINGS.rxGroup),
    },
  };
}

/** A block of the card, top to bottom: its height and its PostScript once its top is known. */
interface Block {
  height: number;
  draw: (top: number) => string;
}

/** The least space between blocks, and the most a short card spreads them, in millimetres. */
const BLOCK_GAP = { least: 1.2, most: 5 };

/**
 * The card's PostScript in card millimetres, origin at its lower left corner, clipped to its outline.
 * Where its blocks would not fit the card's height every size shrinks alike, as a designer would.
 */
function cardFace(values: ChromiumCardValues, style: CardStyle): string {
  const top = style.headerBand ? 0 : style.margin;
  const asDrawn = cardBlocks(values, style);
  const room = CARD.height - style.margin - top - BLOCK_GAP.least * (asDrawn.length - 1);
  const needed = asDrawn.reduce((sum, block) => sum + block.height, 0);
  const blocks = needed <= room ? asDrawn : cardBlocks(values, shrunk(style, room / needed));
  const spare = room - blocks.reduce((sum, block) => sum + block.height, 0);
  const gap = Math.min(spare / (blocks.length - 1) + BLOCK_GAP.least, BLOCK_GAP.most);
  let cursor = top;
  const drawn = blocks.map((block) => {
    const postScript = block.draw(cursor);
    cursor += block.height + gap;
    return postScript;
  });
  return `gsave 0 0 ${CARD.width} ${CARD.height} ${CARD.cornerRadius} roundrect clip
${groundPostScript(style.ground)}${drawn.join('')}grestore
`;
}

/** Every block's height is proportional to the sizes, so one shrink makes them fit. */
function shrunk(style: CardStyle, factor: number): CardStyle {
  const { payer, value, label, pharmacy } = style.sizes;
  return {
    ...style,
    sizes: {
      payer: payer * factor,
      value: value * factor,
      label: label * factor,
      pharmacy: pharmacy * factor,
    },
  };
}

/** Payer, member name, member id and group (side by side or one under the other), pharmacy. */
function cardBlocks(values: ChromiumCardValues, style: CardStyle): Block[] {
  const { margin, words } = style;
  const right = CARD.width - margin;
  const blocks = [
    payerBlock(values.payerName, style),
    field(style, words.name, values.memberName, margin, right),
  ];
  if (style.idAndGroupSideBySide) {
    const split = margin + (right - margin) * 0.6;
    const idField = field(style, words.memberId, values.memberIdPrinted, margin, split - 2);
    const groupField = field(style, words.group, values.groupNumber, split, right);
    blocks.push({ height: idField.height, draw: (top) => idField.draw(top) + groupField.draw(top) });
  } else
    blocks.push(
      field(style, words.memberId, values.memberIdPrinted, margin, right),
      field(style, words.group, values.groupNumber, margin, right),
    );
  blocks.push(pharmacyBlock(values, style));
  return blocks;
}

/** A labelled value between x and right: the label small above it, or inline before it. */
function field(style: CardStyle, word: string, value: string, x: number, right: number): Block {
  const { sizes } = style;
  if (!style.labelsAbove)
    return {
      height: sizes.value,
      draw: (top) => inline(style, word, value, x, baseline(top, sizes.value), sizes.value, right),
    };
  const label = style.uppercaseLabels ? word.toUpperCase() : word;
  const valueTop = (top: number) => top + sizes.label + 0.6;
  return {
    height: sizes.label + 0.6 + sizes.value,
    draw: (top) =>
      text(label, x, baseline(top, sizes.label), style.family.regular, sizes.label, style.labelInk, right) +
      text(value, x, baseline(valueTop(top), sizes.value), valueFace(style), sizes.value, style.ink, right),
  };
}

/** The payer's name in bold, in the accent colour or in a band of it across the card's top. */
function payerBlock(payerName: string, style: CardStyle): Block {
  const { sizes, margin, family } = style;
  if (!style.headerBand)
    return {
      height: sizes.payer,
      draw: (top) =>
        text(payerName, margin, baseline(top, sizes.payer), family.bold, sizes.payer, style.accent),
    };
  const height = sizes.payer * 2;
  return {
    height,
    draw: () =>
      `${colour(style.accent)} 0 ${decimal(CARD.height - height)} ${CARD.width} ${decimal(height)} rectfill\n` +
      text(
        payerName,
        margin,
        baseline(sizes.payer / 2, sizes.payer),
        family.bold,
        sizes.payer,
        style.onAccent,
      ),
  };
}

/** BIN, PCN and RxGroup: one line each, BIN and PCN sharing a line, or a ruled table of two rows. */
function pharmacyBlock(values: ChromiumCardValues, style: CardStyle): Block {
  const { sizes, margin, words, family } = style;
  const size = sizes.pharmacy;
  const right = CARD.width - margin;
  const items: [string, string][] = [
    [words.bin, values.rxBin],
    [words.pcn, values.rxPcn],
    [words.rxGroup, values.rxGroup],
  ];
  if (style.pharmacy === 'lines' || style.pharmacy === 'paired-lines') {
    const rows =
      style.pharmacy === 'lines' ? items.map((item) => [item]) : [items.slice(0, 2), items.slice(2)];
    const half = margin + (right - margin) / 2;
    const lineHeight = size * 1.4;
    return {
      height: rows.length * lineHeight,
      draw: (top) =>
        rows
          .flatMap((row, line) =>
            row.map(([word, value], column) =>
              inline(
                style,
                word,
                value,
                column === 0 ? margin : half,
                baseline(top + line * lineHeight, size),
                size,
                column === 0 && row.length > 1 ? half - 2 : right,
              ),
            ),
          )
          .join(''),
    };
  }
  const rowHeight = size * 1.7;
  const cellWidth = (right - margin) / 3;
  const padding = 1.2;
  const filled = style.pharmacy === 'filled-table';
  return {
    height: 2 * rowHeight,
    draw: (top) => {
      const [headerY, valueY] = [CARD.height - top - rowHeight, CARD.height - top - 2 * rowHeight];
      const textBaseline = (rowTop: number) => baseline(rowTop + (rowHeight - size) / 2, size);
      const cell = (x: number, y: number) => `${[x, y, cellWidth, rowHeight].map(decimal).join(' ')}`;
      return items
        .map(([word, value], column) => {
          const x = margin + column * cellWidth;
          const cellRight = x + cellWidth - padding;
          const headerInk = filled ? style.onAccent : style.labelInk;
          return (
            (filled ? `${colour(style.accent)} ${cell(x, headerY)} rectfill\n` : '') +
            `${colour(style.ink)} 0.25 setlinewidth ${cell(x, headerY)} rectstroke ${cell(x, valueY)} rectstroke\n` +
            text(
              word.toUpperCase(),
              x + padding,
              textBaseline(top),
              family.regular,
              size,
              headerInk,
              cellRight,
            ) +
            text(
              value,
              x + padding,
              textBaseline(top + rowHeight),
              valueFace(style),
              size,
              style.ink,
              cellRight,
            )
          );
        })
        .join('');
    },
  };
}

function valueFace(style: CardStyle): string {
  return style.boldValues ? style.family.bold : style.family.regular;
}

/** The y of a line's baseline, in PostScript's upward millimetres, from the top of its em box. */
function baseline(top: number, size: number): number {
  return CARD.height - top - size * 0.78;
}

/** A label and its value on one line: the label in label ink, the value after it in value ink. */
function inline(
  style: CardStyle,
  word: string,
  value: string,
  x: number,
  y: number,
  size: number,
  right: number,
): string {
  return (
    `${colour(style.labelInk)} /${style.family.regular} face ${decimal(size)} scalefont setfont ` +
    `${decimal(x)} ${decimal(y)} moveto (${escaped(`${word}${style.colon ? ':' : ''} `)}) show\n` +
    `${colour(style.ink)} /${valueFace(style)} face ${decimal(size)} scalefont setfont (${escaped(value)}) ${decimal(right)} fitshow\n`
  );
}

function text(
  value: string,
  x: number,
  y: number,
  face: string,
  size: number,
  ink: Rgb,
  right = CARD.width,
): string {
  return (
    `${colour(ink)} /${face} face ${decimal(size)} scalefont setfont ` +
    `${decimal(x)} ${decimal(y)} moveto (${escaped(value)}) ${decimal(right)} fitshow\n`
  );
}

function groundPostScript(ground: Ground): string {
  if (ground.kind === 'solid') return `${colour(ground.colour)} 0 0 ${CARD.width} ${CARD.height} rectfill\n`;
  const radians = (ground.angle * Math.PI) / 180;
  const reach = (Math.abs(CARD.width * Math.cos(radians)) + Math.abs(CARD.height * Math.sin(radians))) / 2;
  const [dx, dy] = [reach * Math.cos(radians), reach * Math.sin(radians)];
  const [cx, cy] = [CARD.width / 2, CARD.height / 2];
  return `<< /ShadingType 2 /ColorSpace /DeviceRGB /Extend [true true]
   /Coords [${[cx - dx, cy - dy, cx + dx, cy + dy].map(decimal).join(' ')}]
   /Function << /FunctionType 2 /Domain [0 1] /N 1 /C0 [${ground.from.map(decimal).join(' ')}] /C1 [${ground.to.map(decimal).join(' ')}] >>
>> shfill
`;
}

interface GhostscriptProgram {
  postScript: string;
  width: number;
  height: number;
  dpi: number;
}

/** The card on a near-white flatbed, up to 1.5° askew, at 300 dpi; the card's edge shows faintly. */
function scanProgram(face: string, random: () => number): GhostscriptProgram {
  const margin = 6 + random() * 4;
  const [pageWidth, pageHeight] = [CARD.width + 2 * margin, CARD.height + 2 * margin];
  const flatbed = 0.96 + random() * 0.03;
  const postScript = `${PROLOGUE}72 25.4 div dup scale
${decimal(flatbed)} ${decimal(flatbed)} ${decimal(flatbed - 0.01)} setrgbcolor 0 0 ${decimal(pageWidth)} ${decimal(pageHeight)} rectfill
${decimal(pageWidth / 2)} ${decimal(pageHeight / 2)} translate ${decimal((random() - 0.5) * 3)} rotate
${decimal(-CARD.width / 2)} ${decimal(-CARD.height / 2)} translate
${face}0 0 ${CARD.width} ${CARD.height} ${CARD.cornerRadius} roundrect 0.62 setgray 0.12 setlinewidth stroke
showpage
`;
  const pixels = (millimetres: number) => Math.round((millimetres / 25.4) * SCAN_DPI);
  return { postScript, width: pixels(pageWidth), height: pixels(pageHeight), dpi: SCAN_DPI };
}

/**
 * The card on a desk, as a phone sees it: turned up to 8°, sheared for the tilt, 55–85 % of the frame
 * wide, its shadow and a soft glare laid with Ghostscript's transparency operators (hence
 * -dALLOWPSTRANSPARENCY, which allows only those).
 */
function photoProgram(face: string, random: () => number): GhostscriptProgram {
  const frameWidth = (PHOTO_FRAME.width / PHOTO_FRAME.dpi) * 25.4;
  const frameHeight = (PHOTO_FRAME.height / PHOTO_FRAME.dpi) * 25.4;
  const scale = ((0.55 + random() * 0.3) * frameWidth) / CARD.width;
  const slack = (1 - (scale * CARD.width) / frameWidth) / 2;
  const centre = [
    frameWidth * (0.5 + (random() - 0.5) * slack * 0.8),
    frameHeight * (0.5 + (random() - 0.5) * slack * 0.8),
  ];
  const turn = (random() - 0.5) * 16;
  const shear = [(random() - 0.5) * 0.12, (random() - 0.5) * 0.08];
  const glare = {
    x: centre[0] + (random() - 0.5) * scale * CARD.width,
    y: centre[1] + (random() - 0.5) * scale * CARD.height,
    radius: frameWidth * (0.15 + random() * 0.25),
    strength: 0.3 + random() * 0.4,
    falloff: 0.7 + random() * 0.8,
  };
  const shadow = [0, 0.7, 1.4]
    .map(
      (spread) =>
        `${decimal(-spread)} ${decimal(-spread)} ${decimal(CARD.width + 2 * spread)} ${decimal(CARD.height + 2 * spread)} ` +
        `${decimal(CARD.cornerRadius + spread)} roundrect fill`,
    )
    .join(' ');
  const postScript = `${PROLOGUE}<< /PageUsesTransparency true >> setpagedevice
0 .pushpdf14devicefilter
72 25.4 div dup scale
${desk(frameWidth, frameHeight, random)}gsave
${decimal(centre[0])} ${decimal(centre[1])} translate ${decimal(turn)} rotate [1 ${decimal(shear[1])} ${decimal(shear[0])} 1 0 0] concat
${decimal(scale)} dup scale ${decimal(-CARD.width / 2)} ${decimal(-CARD.height / 2)} translate
gsave 0.8 -1.2 translate 0 setgray 0.14 .setfillconstantalpha ${shadow} grestore
${face}grestore
gsave /Screen .setblendmode
<< /ShadingType 3 /ColorSpace /DeviceRGB /Extend [false false]
   /Coords [${[glare.x, glare.y, 0, glare.x, glare.y, glare.radius].map(decimal).join(' ')}]
   /Function << /FunctionType 2 /Domain [0 1] /N ${decimal(glare.falloff)} /C0 [${[glare.strength, glare.strength, glare.strength].map(decimal).join(' ')}] /C1 [0 0 0] >>
>> shfill
grestore
.poppdf14devicefilter
showpage
`;
  return { postScript, ...PHOTO_FRAME };
}

/** A desk filling the frame: wooden planks, a dotted cloth or tiles, laid at a random angle. */
function desk(width: number, height: number, random: () => number): string {
  const reach = Math.hypot(width, height);
  const hue = random() * 360;
  const place = `${decimal(width / 2)} ${decimal(height / 2)} translate ${decimal(random() * 180)} rotate\n`;
  const kind = Math.floor(random() * 3);
  if (kind === 0) {
    const seam = hsl(25, 0.4, 0.12);
    const planks: string[] = [];
    for (let x = -reach; x < reach;) {
      const plankWidth = 12 + random() * 18;
      const tone = hsl(20 + random() * 20, 0.35 + random() * 0.2, 0.22 + random() * 0.2);
      planks.push(
        `${colour(tone)} ${decimal(x)} ${decimal(-reach)} ${decimal(plankWidth)} ${decimal(2 * reach)} rectfill`,
      );
      planks.push(`${colour(seam)} ${decimal(x)} ${decimal(-reach)} 0.4 ${decimal(2 * reach)} rectfill`);
      x += plankWidth;
    }
    return `gsave ${place}${planks.join('\n')}\ngrestore\n`;
  }
  const ground = hsl(hue, 0.2 + random() * 0.3, 0.3 + random() * 0.45);
  const figure = hsl(hue + 30 + random() * 120, 0.25 + random() * 0.3, 0.25 + random() * 0.5);
  const step = 8 + random() * 16;
  const figureDrawing =
    kind === 1
      ? `x y ${decimal(step * (0.12 + random() * 0.2))} 0 360 arc fill`
      : `x y ${decimal(step - 1.2)} ${decimal(step - 1.2)} rectfill`;
  return `gsave ${place}${colour(ground)} ${decimal(-reach)} ${decimal(-reach)} ${decimal(2 * reach)} ${decimal(2 * reach)} rectfill
${colour(figure)} ${decimal(-reach)} ${decimal(step)} ${decimal(reach)} { /x exch def ${decimal(-reach)} ${decimal(step)} ${decimal(reach)} { /y exch def ${figureDrawing} } for } for
grestore
`;
}

/**
 * Runs one program through `gs`, fed on stdin and read from stdout: no temporary files. SAFER keeps
 * the program from the file system; the page is set to the image in pixels.
 */
async function ghostscript(program: GhostscriptProgram): Promise<Buffer> {
  const running = run(
    'gs',
    [
      '-q',
      '-dSAFER',
      '-dBATCH',
      '-dNOPAUSE',
      '-dALLOWPSTRANSPARENCY',
      '-sDEVICE=png16m',
      `-r${program.dpi}`,
      `-g${program.width}x${program.height}`,
      '-dTextAlphaBits=4',
      '-dGraphicsAlphaBits=4',
      '-sOutputFile=-',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  running.child.stdin?.end(program.postScript);
  const { stdout } = await running;
  return stdout;
}

/** What the phone adds to the drawn scene: lens blur, sensor noise, JPEG, and the way it was held. */
async function photograph(scene: Buffer, random: () => number): Promise<Buffer> {
  const { data, info } = await sharp(scene)
    .blur(0.4 + random() * 0.6)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const amplitude = 3 + random() * 5;
  for (let index = 0; index < data.length; index += 1)
    data[index] = Math.max(0, Math.min(255, data[index] + (random() + random() - 1) * amplitude));
  return await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .rotate(Math.floor(random() * 4) * 90)
    .jpeg({ quality: 72 + Math.floor(random() * 7) })
    .toBuffer();
}

/** Hue in degrees, saturation and lightness 0–1, to RGB 0–1. */
function hsl(hue: number, saturation: number, lightness: number): Rgb {
  const reach = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + (((hue % 360) + 360) % 360) / 30) % 12;
    return lightness - reach * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [channel(0), channel(8), channel(4)];
}

function colour(rgb: Rgb): string {
  return `${rgb.map(decimal).join(' ')} setrgbcolor`;
}

/** A number for the program, to three decimals: a micrometre on the card, and finer than any ink step. */
function decimal(value: number): string {
  return Number(value.toFixed(3)).toString();
}

/** A PostScript string's body: backslashes and parentheses escaped. */
function escaped(value: string): string {
  return value.replace(/[\\()]/g, (character) => `\\${character}`);
}
