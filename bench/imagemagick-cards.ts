import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import type { CardForm, ChromiumCardValues } from './chromium-cards';
import { seededRandom } from './seeded-random';

/**
 * A third renderer, never used to tune the reader: ImageMagick's `convert` draws each card with
 * FreeType straight from the installed font files, with its own layout and label wordings, and its
 * own photo (a perspective distortion onto a desk, glare, blur, noise, JPEG) and scan. The bench
 * reports it apart; nothing in the reader was changed after looking at its results.
 */

const run = promisify(execFile);

const FONT_FILES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
];
const WORDINGS = {
  memberId: ['Member Number', 'Policy ID', 'ID No.', 'Subscriber #', 'Enrollee ID'],
  group: ['Grp', 'Group #', 'Group Number', 'GRP NO.'],
  name: ['Subscriber', 'Member Name', 'Enrollee'],
  bin: ['BIN#', 'RxBin', 'BIN'],
  pcn: ['PCN#', 'RxPcn', 'PCN'],
  rxGroup: ['Rx Grp #', 'RxGrp', 'GRP'],
};

/** Whether this machine has ImageMagick (Debian's `imagemagick`), and not a stand-in. */
export async function imageMagickAvailable(): Promise<boolean> {
  try {
    const { stdout } = await run('convert', ['-version']);
    return stdout.includes('ImageMagick');
  } catch {
    return false;
  }
}

export interface ImageMagickCard {
  values: ChromiumCardValues;
  form: CardForm;
  seed: number;
}

/** Draws one card, photographed or scanned; the bytes are a JPEG (photo) or a PNG (scan). */
export async function drawCard(card: ImageMagickCard): Promise<Buffer> {
  const random = seededRandom(card.seed ^ 0x1b873593);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const font = pick(FONT_FILES.filter((file) => existsSync(file)));
  const dark = random() < 0.35;
  const [width, height] = [1012, 638];
  const hue = () => Math.floor(random() * 200 + 30);
  const ground = dark
    ? `gradient:rgb(${hue() / 4},${hue() / 3},${hue() / 2})-rgb(${hue() / 2},${hue() / 2},${hue()})`
    : random() < 0.5
      ? `gradient:rgb(250,250,245)-rgb(${200 + hue() / 5},${210 + hue() / 6},230)`
      : 'xc:rgb(252,251,247)';
  const ink = dark ? 'white' : pick(['rgb(20,30,60)', 'black', 'rgb(60,20,20)']);
  const label = dark ? 'rgb(225,225,235)' : 'rgb(105,105,115)';
  const words = {
    memberId: pick(WORDINGS.memberId),
    group: pick(WORDINGS.group),
    name: pick(WORDINGS.name),
    bin: pick(WORDINGS.bin),
    pcn: pick(WORDINGS.pcn),
    rxGroup: pick(WORDINGS.rxGroup),
  };
  const { values } = card;
  const args = ['-size', `${width}x${height}`, ground, '-font', font];
  const text = (size: number, colour: string, x: number, y: number, value: string) =>
    args.push(
      '-pointsize',
      String(size),
      '-fill',
      colour,
      '-stroke',
      'none',
      '-annotate',
      `+${x}+${y}`,
      value,
    );
  text(44, ink, 48, 80, values.payerName);
  const above = random() < 0.5;
  const field = (x: number, y: number, name: string, value: string) => {
    if (above) {
      text(17, label, x, y, name.toUpperCase());
      text(30, ink, x, y + 36, value);
    } else text(28, ink, x, y + 30, `${name}: ${value}`);
  };
  field(48, 150, words.name, values.memberName);
  field(48, 250, words.memberId, values.memberIdPrinted);
  field(600, 250, words.group, values.groupNumber);
  if (random() < 0.5) {
    const cells = [
      [words.bin, values.rxBin],
      [words.pcn, values.rxPcn],
      [words.rxGroup, values.rxGroup],
    ];
    const cellWidth = 230;
    args.push('-stroke', ink, '-strokewidth', '2', '-fill', 'none');
    cells.forEach((_, index) => {
      const x = 48 + index * cellWidth;
      args.push(
        '-draw',
        `rectangle ${x},400 ${x + cellWidth},450`,
        '-draw',
        `rectangle ${x},450 ${x + cellWidth},500`,
      );
    });
    cells.forEach(([name, value], index) => {
      text(22, ink, 62 + index * cellWidth, 434, name.toUpperCase());
      text(24, ink, 62 + index * cellWidth, 485, value);
    });
  } else {
    text(25, ink, 48, 430, `${words.bin} ${values.rxBin}    ${words.pcn} ${values.rxPcn}`);
    text(25, ink, 48, 480, `${words.rxGroup} ${values.rxGroup}`);
  }
  const folder = mkdtempSync(path.join(tmpdir(), 'imagemagick-card-'));
  try {
    const face = path.join(folder, 'card.png');
    await run('convert', [...args, face]);
    return card.form === 'photo' ? await photograph(face, random) : await scan(face, random);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function scan(face: string, random: () => number): Promise<Buffer> {
  const { stdout } = await run(
    'convert',
    [
      face,
      '-bordercolor',
      'rgb(250,250,250)',
      '-border',
      '60',
      '-background',
      'rgb(250,250,250)',
      '-rotate',
      ((random() - 0.5) * 2).toFixed(2),
      '-colorspace',
      random() < 0.5 ? 'Gray' : 'sRGB',
      'png:-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

async function photograph(face: string, random: () => number): Promise<Buffer> {
  const [width, height] = [1012, 638];
  const jitter = (value: number) => Math.round(value + (random() - 0.5) * 90);
  const corners = [
    [0, 0, jitter(60), jitter(60)],
    [width, 0, jitter(width - 40), jitter(40)],
    [width, height, jitter(width - 70), jitter(height - 50)],
    [0, height, jitter(40), jitter(height - 30)],
  ]
    .map((corner) => corner.join(','))
    .join(' ');
  const desk = random() < 0.5 ? 'pattern:checkerboard' : 'plasma:rgb(120,90,60)-rgb(70,50,30)';
  const { stdout } = await run(
    'convert',
    [
      '-seed',
      String(Math.floor(random() * 100000)),
      '-size',
      '1300x960',
      desk,
      '-scale',
      '1300x960!',
      '(',
      face,
      '-alpha',
      'set',
      '-virtual-pixel',
      'transparent',
      '+distort',
      'Perspective',
      corners,
      ')',
      '-geometry',
      `+${130 + Math.floor(random() * 60)}+${130 + Math.floor(random() * 60)}`,
      '-composite',
      '(',
      '-size',
      '520x520',
      'radial-gradient:rgba(255,255,255,0.5)-rgba(255,255,255,0)',
      ')',
      '-geometry',
      `+${200 + Math.floor(random() * 600)}+${150 + Math.floor(random() * 400)}`,
      '-composite',
      '-blur',
      `0x${(0.3 + random() * 0.6).toFixed(2)}`,
      '-attenuate',
      '0.3',
      '+noise',
      'Gaussian',
      '-rotate',
      String(Math.floor(random() * 4) * 90),
      '-quality',
      '72',
      'jpg:-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}
