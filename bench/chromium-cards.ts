import type { Browser } from 'playwright-core';

import { seededRandom } from './seeded-random';

/**
 * Insurance cards drawn by a second renderer: HTML and CSS laid out and painted by Chromium, in every
 * face the machine has, with gradient grounds, header bands, bordered pharmacy tables, labels above or
 * beside their values in many wordings and member ids of every common shape, in four layouts (fields
 * stacked, label and value rows, a wallet card with the id large, the pharmacy block split off at the
 * right), some with the print real cards carry besides (an issuer number, copays, phone numbers,
 * dates), each photographed (a 3-D tilt on a patterned desk, near or far, soft glare, blur, JPEG, any
 * of four turns) or scanned. Nothing in it shares the SVG corpus's drawing code
 * (bench/document-corpus.ts), so the reader is measured on print it was not tuned to.
 */

export interface ChromiumCardValues {
  payerName: string;
  memberName: string;
  /** As the card prints it: spaces or dashes in groups where the shape has them. */
  memberIdPrinted: string;
  groupNumber: string;
  rxBin: string;
  rxPcn: string;
  rxGroup: string;
}

export type MemberIdShape = 'digits' | 'letter' | 'u-letter' | 'prefix' | 'sandbox' | 'grouped' | 'dashed';
export const MEMBER_ID_SHAPES: readonly MemberIdShape[] = [
  'digits',
  'letter',
  'u-letter',
  'prefix',
  'sandbox',
  'grouped',
  'dashed',
];

/**
 * Where the fields stand: stacked under the payer's name, as label and value rows in two columns, a
 * wallet card with the name and member id large and the group and pharmacy fields in a strip below, or
 * split: the member's fields at the left and the pharmacy block's label and value lines at the right.
 */
export type ChromiumCardLayout = 'stacked' | 'rows' | 'wallet' | 'split';

export interface ChromiumCardStyle {
  font: string;
  layout: ChromiumCardLayout;
  /** Print no field reads: an issuer number, plan, copays, phone numbers, an effective date. */
  otherPrint: boolean;
  /** The member's name in capitals and small letters, as many cards print it. */
  nameInMixedCase: boolean;
  /** The payer's name printed light on a coloured band across the card's top. */
  headerBand: boolean;
  boldValues: boolean;
  /** A photo taken from further away: the card about two thirds as large in the frame. */
  smallInFrame: boolean;
  /** Light print on a dark or gradient ground. */
  dark: boolean;
  gradient: boolean;
  labelsAbove: boolean;
  pharmacyTable: boolean;
  labelScale: number;
  labels: { memberId: string; group: string; name: string; bin: string; pcn: string; rxGroup: string };
}

export type CardForm = 'scan' | 'photo';

export interface ChromiumCard {
  values: ChromiumCardValues;
  style: ChromiumCardStyle;
  form: CardForm;
  /** Quarter turns the photo was taken at (0–3). */
  turns: number;
  seed: number;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const digits = (random: () => number, count: number) =>
  Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
const letters = (random: () => number, count: number, alphabet = 'ABCDEFGHJKMNPRSTUVWXY') =>
  Array.from({ length: count }, () => pick(random, [...alphabet])).join('');

const FACES = [
  'DejaVu Sans',
  'DejaVu Serif',
  'DejaVu Sans Mono',
  'DejaVu Sans Condensed',
  'Liberation Sans',
  'Liberation Serif',
  'Liberation Mono',
  'Liberation Sans Narrow',
];
/** The other faces the tests' machine installs (Debian's URW base-35 and Noto monospace fonts). */
const MORE_FACES = [
  'Nimbus Sans',
  'Nimbus Sans Narrow',
  'Nimbus Roman',
  'Nimbus Mono PS',
  'URW Bookman',
  'URW Gothic',
  'C059',
  'P052',
  'Noto Sans Mono',
];
const LAYOUTS: readonly ChromiumCardLayout[] = ['stacked', 'rows', 'wallet'];
const PAYERS = [
  'Northwind Health',
  'Harbor Mutual',
  'Cascade Benefit Partners',
  'Lakeshore Health Alliance',
  'Prairie State Insurance',
  'Meridian CareFirst',
];
const GIVEN = ['JORDAN', 'CASEY', 'MARIA', 'DEVON', 'PRIYA', 'LUIS', 'ANNA', 'TOMAS'];
const FAMILY = ['RIVERA', 'MORGAN', 'OKAFOR', 'LINDQVIST', 'NGUYEN', 'BAPTISTE', 'COHEN'];
const LABELS = {
  memberId: ['Member ID', 'MEMBER NUMBER', 'ID #', 'Subscriber ID', 'Identification Number', 'Member #'],
  group: ['Group', 'GROUP NUMBER', 'Grp #', 'Group No.', 'GROUP ID'],
  name: ['Member', 'MEMBER NAME', 'Name', 'Subscriber Name'],
  bin: ['RxBIN', 'BIN', 'Rx BIN'],
  pcn: ['RxPCN', 'PCN', 'Rx PCN'],
  rxGroup: ['RxGRP', 'RxGroup', 'Rx Group'],
};
/** Further wordings real cards use for the two fields every card has. */
const MORE_LABELS = {
  memberId: ['ID', 'ID Number', 'Member No.', 'Subscriber #', 'Identification No.', 'Member ID Number'],
  group: ['GRP', 'Group #', 'Group Number', 'GRP NO.'],
};

/** A member id of the shape asked, as printed. */
export function memberIdOfShape(random: () => number, shape: MemberIdShape, payerCode = 'BHH'): string {
  switch (shape) {
    case 'digits':
      return digits(random, 9 + Math.floor(random() * 4));
    case 'letter':
      return `W${digits(random, 9)}`;
    case 'u-letter':
      return `U${digits(random, 10)}`;
    case 'prefix':
      return `${letters(random, 3)}${digits(random, 9)}`;
    case 'sandbox':
      return `ZZ${payerCode}${digits(random, 9)}`;
    case 'grouped':
      return `${letters(random, 3)} ${digits(random, 3)} ${digits(random, 3)} ${digits(random, 3)}`;
    case 'dashed':
      return `${digits(random, 3)}-${digits(random, 2)}-${digits(random, 4)}-${digits(random, 2)}`;
  }
}

/** The member id a reader should return for a printed one: its groups joined, dashes kept. */
export function expectedMemberId(printed: string): string {
  return printed.replace(/\s+/g, '');
}

export function randomCard(seed: number, form: CardForm = 'photo'): ChromiumCard {
  const random = seededRandom(seed);
  const shape = pick(random, MEMBER_ID_SHAPES);
  const values: ChromiumCardValues = {
    payerName: pick(random, PAYERS),
    memberName: `${pick(random, GIVEN)} ${pick(random, ['A', 'L', 'M', 'R'])} ${pick(random, FAMILY)}`,
    memberIdPrinted: memberIdOfShape(random, shape),
    groupNumber:
      random() < 0.5
        ? digits(random, 5 + Math.floor(random() * 3))
        : `${letters(random, 3)}${digits(random, 5)}`,
    rxBin: digits(random, 6),
    rxPcn: letters(random, 3 + Math.floor(random() * 6), 'ABCDEFGHJKMNPRSTUVWXYZ'),
    rxGroup: `RX${digits(random, 4)}`,
  };
  const style: ChromiumCardStyle = {
    font: pick(random, FACES),
    layout: 'stacked',
    otherPrint: false,
    nameInMixedCase: false,
    headerBand: false,
    boldValues: false,
    smallInFrame: false,
    dark: random() < 0.3,
    gradient: random() < 0.5,
    labelsAbove: random() < 0.5,
    pharmacyTable: random() < 0.5,
    labelScale: 0.55 + random() * 0.3,
    labels: {
      memberId: pick(random, LABELS.memberId),
      group: pick(random, LABELS.group),
      name: pick(random, LABELS.name),
      bin: pick(random, LABELS.bin),
      pcn: pick(random, LABELS.pcn),
      rxGroup: pick(random, LABELS.rxGroup),
    },
  };
  const turns = form === 'photo' ? Math.floor(random() * 4) : 0;
  // Drawn last, so a seed's values, style and turns stay what they were before layouts varied.
  style.layout = pick(random, LAYOUTS);
  style.otherPrint = random() < 0.6;
  style.nameInMixedCase = random() < 0.3;
  // Drawn after those, so a seed's cards before these features stay what they were but for them.
  if (random() < 0.25) style.layout = 'split';
  style.headerBand = random() < 0.35;
  style.boldValues = random() < 0.4;
  style.smallInFrame = form === 'photo' && random() < 0.3;
  if (random() < 0.5) style.font = pick(random, MORE_FACES);
  if (random() < 0.4) {
    style.labels.memberId = pick(random, MORE_LABELS.memberId);
    style.labels.group = pick(random, MORE_LABELS.group);
  }
  return { values, style, form, turns, seed };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Words in capitals and small letters: `JORDAN A RIVERA` as `Jordan A Rivera`. */
const inMixedCase = (text: string) =>
  text.replace(/[A-Z]+/g, (word) => word[0] + word.slice(1).toLowerCase());

/** Print a card carries beside its fields, none of which the reader should return. */
function otherPrint(random: () => number): { plan: string; copays: string[]; contacts: string[] } {
  const dollars = (low: number, high: number) => `$${Math.round(low + random() * (high - low)) * 5}`;
  return {
    plan: pick(random, ['PPO', 'HMO Select', 'EPO Plus', 'POS Choice', 'HDHP with HSA']),
    copays: [
      `PCP ${dollars(2, 8)}`,
      `SPEC ${dollars(6, 16)}`,
      `ER ${dollars(30, 80)}`,
      `UC ${dollars(6, 14)}`,
    ],
    contacts: [
      `Issuer (80840) ${digits(random, 10)}`,
      `Member Services 1-800-${digits(random, 3)}-${digits(random, 4)}`,
      `Pharmacist Help Desk 1-877-${digits(random, 3)}-${digits(random, 4)}`,
      `Effective ${String(1 + Math.floor(random() * 12)).padStart(2, '0')}/01/20${25 + Math.floor(random() * 2)}`,
    ],
  };
}

/** The card itself, 856 × 540 CSS pixels (a CR80 card at about 254 dpi). */
export function cardHtml(card: ChromiumCard): string {
  const { values, style } = card;
  const random = seededRandom(card.seed ^ 0x5bd1e995);
  const hue = Math.floor(random() * 360);
  const ground = style.dark
    ? style.gradient
      ? `linear-gradient(${Math.floor(random() * 180)}deg, hsl(${hue} 70% 22%), hsl(${(hue + 40) % 360} 65% 45%))`
      : `hsl(${hue} 55% 24%)`
    : style.gradient
      ? `linear-gradient(${Math.floor(random() * 180)}deg, hsl(${hue} 60% 96%), hsl(${(hue + 30) % 360} 55% 84%))`
      : `hsl(${hue} 30% 97%)`;
  const ink = style.dark ? '#ffffff' : `hsl(${hue} 60% 14%)`;
  const labelInk = style.dark ? 'rgba(255,255,255,0.82)' : `hsl(${hue} 15% 42%)`;
  const size = 26;
  const labelSize = Math.round(size * style.labelScale);
  const name = style.nameInMixedCase ? inMixedCase(values.memberName) : values.memberName;
  const extra = style.otherPrint ? otherPrint(random) : undefined;
  const body =
    style.layout === 'rows'
      ? rowsLayout(card, name, extra)
      : style.layout === 'wallet'
        ? walletLayout(card, name, extra)
        : style.layout === 'split'
          ? splitLayout(card, name, extra)
          : stackedLayout(card, name, extra);
  const band = style.dark ? `hsl(${hue} 40% 88%)` : `hsl(${hue} 60% 28%)`;
  const onBand = style.dark ? `hsl(${hue} 60% 15%)` : '#ffffff';
  return `<div class="card" style="font-family:'${style.font}';background:${ground};color:${ink}">
  <style>
    .card{width:856px;height:540px;border-radius:28px;position:relative;overflow:hidden;box-sizing:border-box;padding:30px 40px}
    .card .t{font-size:40px;font-weight:bold;margin-bottom:26px}
    .card .t.band{margin:-30px -40px 26px;padding:20px 40px;background:${band};color:${onBand}}
    .card .v{font-weight:${style.boldValues ? 'bold' : 'normal'}}
    .card .f{font-size:${size}px;margin:0 0 18px 0}
    .card .l{font-size:${labelSize}px;color:${labelInk};letter-spacing:1px;margin-bottom:2px}
    .card .lb{color:${labelInk}}
    .card .cols{display:flex;gap:70px}
    .card table.rx{border-collapse:collapse;font-size:${Math.round(size * 0.8)}px;margin-top:8px}
    .card table.rx td{border:2px solid ${ink};padding:6px 18px}
    .card table.kv{border-collapse:collapse;font-size:24px}
    .card table.kv td{padding:4px 22px 8px 0;white-space:nowrap}
    .card table.kv td.lb{font-size:${labelSize}px}
    .card .x{font-size:17px;line-height:1.45;color:${labelInk}}
    .card .big{font-size:34px;letter-spacing:2px;margin-bottom:14px}
    .card .strip{display:flex;gap:36px;position:absolute;left:40px;bottom:${extra ? 74 : 34}px;font-size:21px}
    .card .strip.ruled{gap:0}
    .card .strip.ruled>div{border:2px solid ${ink};padding:4px 12px;margin-left:-2px}
    .card .badge{position:absolute;right:40px;top:34px;font-size:22px;border:2px solid ${ink};border-radius:8px;padding:2px 10px}
    .card .foot{position:absolute;left:40px;right:40px;bottom:24px;display:flex;justify-content:space-between}
    .card .side{position:absolute;right:40px;top:120px;text-align:right}
    .card .rxcol{position:absolute;right:40px;top:${style.headerBand ? 150 : 120}px;font-size:22px;line-height:1.6}
  </style>
  ${body}
</div>`;
}

type OtherPrint = ReturnType<typeof otherPrint>;

const title = (card: ChromiumCard) =>
  `<div class="t${card.style.headerBand ? ' band' : ''}">${escape(card.values.payerName)}</div>`;

const labelled = (card: ChromiumCard, label: string, value: string) =>
  card.style.labelsAbove
    ? `<div class="f"><div class="l">${escape(label.toUpperCase())}</div><div class="v">${escape(value)}</div></div>`
    : `<div class="f"><span class="lb">${escape(label)}:</span> <span class="v">${escape(value)}</span></div>`;

/** The first layout: the fields stacked under the payer's name, the pharmacy block last. */
function stackedLayout(card: ChromiumCard, name: string, extra: OtherPrint | undefined): string {
  const { values, style } = card;
  const pharmacy = style.pharmacyTable
    ? `<table class="rx"><tr><td>${escape(style.labels.bin.toUpperCase())}</td><td>${escape(style.labels.pcn.toUpperCase())}</td><td>${escape(style.labels.rxGroup.toUpperCase())}</td></tr>` +
      `<tr><td>${values.rxBin}</td><td>${values.rxPcn}</td><td>${values.rxGroup}</td></tr></table>`
    : `<div class="f">${escape(style.labels.bin)} ${values.rxBin} &nbsp;&nbsp; ${escape(style.labels.pcn)} ${values.rxPcn} &nbsp;&nbsp; ${escape(style.labels.rxGroup)} ${values.rxGroup}</div>`;
  return `${title(card)}
  ${labelled(card, style.labels.name, name)}
  <div class="cols">${labelled(card, style.labels.memberId, values.memberIdPrinted)}${labelled(card, style.labels.group, values.groupNumber)}</div>
  ${pharmacy}
  ${extra ? `<div class="x foot"><span>${escape(extra.contacts[0])}</span><span>${escape(extra.contacts[1])}</span></div>` : ''}`;
}

/** Label and value rows, the labels in a column of their own; copays and a plan at the right. */
function rowsLayout(card: ChromiumCard, name: string, extra: OtherPrint | undefined): string {
  const { values, style } = card;
  const row = (label: string, value: string) =>
    `<tr><td class="lb">${escape(label)}</td><td class="v">${escape(value)}</td></tr>`;
  return `${title(card)}
  <table class="kv">
    ${row(style.labels.name, name)}
    ${row(style.labels.memberId, values.memberIdPrinted)}
    ${row(style.labels.group, values.groupNumber)}
    ${row(style.labels.bin, values.rxBin)}
    ${row(style.labels.pcn, values.rxPcn)}
    ${row(style.labels.rxGroup, values.rxGroup)}
  </table>
  ${
    extra
      ? `<div class="x side"><div>${escape(extra.plan)}</div>${extra.copays.map((copay) => `<div>${escape(copay)}</div>`).join('')}</div>
  <div class="x foot"><span>${escape(extra.contacts[1])}</span><span>${escape(extra.contacts[3])}</span></div>`
      : ''
  }`;
}

/** A wallet card: the name and member id large, the group and pharmacy fields in a strip below. */
function walletLayout(card: ChromiumCard, name: string, extra: OtherPrint | undefined): string {
  const { values, style } = card;
  const cell = (label: string, value: string) =>
    `<div><div class="l">${escape(label.toUpperCase())}</div><div class="v">${escape(value)}</div></div>`;
  return `${title(card)}
  ${extra ? `<div class="badge">${escape(extra.plan)}</div>` : ''}
  <div class="l">${escape(style.labels.name.toUpperCase())}</div><div class="big v">${escape(name)}</div>
  <div class="l">${escape(style.labels.memberId.toUpperCase())}</div><div class="big v">${escape(values.memberIdPrinted)}</div>
  <div class="strip${style.pharmacyTable ? ' ruled' : ''}">
    ${cell(style.labels.group, values.groupNumber)}${cell(style.labels.bin, values.rxBin)}${cell(style.labels.pcn, values.rxPcn)}${cell(style.labels.rxGroup, values.rxGroup)}
  </div>
  ${extra ? `<div class="x foot"><span>${escape(extra.copays.slice(0, 3).join('   '))}</span><span>${escape(extra.contacts[0])}</span></div>` : ''}`;
}

/** The member's fields at the left; the pharmacy block's label and value lines at the right. */
function splitLayout(card: ChromiumCard, name: string, extra: OtherPrint | undefined): string {
  const { values, style } = card;
  const line = (label: string, value: string) =>
    `<div><span class="lb">${escape(label)}</span> <span class="v">${escape(value)}</span></div>`;
  return `${title(card)}
  ${labelled(card, style.labels.name, name)}
  ${labelled(card, style.labels.memberId, values.memberIdPrinted)}
  ${labelled(card, style.labels.group, values.groupNumber)}
  <div class="rxcol">${line(style.labels.bin, values.rxBin)}${line(style.labels.pcn, values.rxPcn)}${line(style.labels.rxGroup, values.rxGroup)}</div>
  ${extra ? `<div class="x foot"><span>${escape(extra.contacts[1])}</span><span>${escape(extra.contacts[2])}</span></div>` : ''}`;
}

const DESKS = [
  'repeating-linear-gradient(95deg,#7a5230 0 14px,#8d6238 14px 22px,#6e4a2a 22px 40px)',
  'repeating-conic-gradient(#d9d4c7 0 25%,#b8b2a4 0 50%) 0 0/48px 48px',
  'repeating-linear-gradient(45deg,#39424e 0 6px,#2f3742 6px 12px)',
  'radial-gradient(circle at 30% 40%,#c7c2b8,#8f8a80)',
];

/** The page Chromium paints: the card as a phone sees it on a desk, or as a flatbed scans it. */
export function pageHtml(card: ChromiumCard): { html: string; width: number; height: number } {
  const random = seededRandom(card.seed ^ 0x27d4eb2f);
  if (card.form === 'scan') {
    const tilt = (random() - 0.5) * 2;
    return {
      width: 1000,
      height: 680,
      html: `<body style="margin:0;background:#fbfbf8;width:1000px;height:680px;overflow:hidden">
        <div style="position:absolute;left:${60 + Math.floor(random() * 30)}px;top:${60 + Math.floor(random() * 30)}px;transform:rotate(${tilt.toFixed(2)}deg)">${cardHtml(card)}</div></body>`,
    };
  }
  const scale = (0.75 + random() * 0.45) * (card.style.smallInFrame ? 0.65 : 1);
  const [tiltX, tiltY, turn] = [(random() - 0.5) * 24, (random() - 0.5) * 24, (random() - 0.5) * 10];
  const glare = { x: 20 + random() * 60, y: 20 + random() * 60 };
  const left = card.style.smallInFrame ? 212 + (random() - 0.5) * 500 : 212;
  const top = card.style.smallInFrame ? 210 + (random() - 0.5) * 400 : 210;
  return {
    width: 1280,
    height: 960,
    html: `<body style="margin:0;width:1280px;height:960px;overflow:hidden;background:${pick(random, DESKS)}">
      <div style="position:absolute;left:${left.toFixed(0)}px;top:${top.toFixed(0)}px;transform:perspective(1400px) rotateX(${tiltX.toFixed(1)}deg) rotateY(${tiltY.toFixed(1)}deg) rotate(${turn.toFixed(1)}deg) scale(${scale.toFixed(2)});filter:blur(${(random() * 0.9).toFixed(2)}px);box-shadow:0 18px 40px rgba(0,0,0,0.45);border-radius:28px">${cardHtml(card)}</div>
      <div style="position:absolute;inset:0;background:radial-gradient(circle at ${glare.x.toFixed(0)}% ${glare.y.toFixed(0)}%,rgba(255,255,255,0.38),rgba(255,255,255,0) 22%)"></div>
    </body>`,
  };
}

/** Paints each card: a photo as a JPEG (turned as it was held), a scan as a PNG. */
export async function renderCards(browser: Browser, cards: readonly ChromiumCard[]): Promise<Buffer[]> {
  const sharp = (await import('sharp')).default;
  const images: Buffer[] = [];
  const page = await browser.newPage();
  try {
    for (const card of cards) {
      const { html, width, height } = pageHtml(card);
      await page.setViewportSize({ width, height });
      await page.setContent(`<!doctype html><html>${html}</html>`);
      const shot = await page.screenshot({ type: 'png' });
      images.push(
        card.form === 'photo'
          ? await sharp(shot)
              .rotate(card.turns * 90)
              .jpeg({ quality: 72 })
              .toBuffer()
          : await sharp(shot).png().toBuffer(),
      );
    }
  } finally {
    await page.close();
  }
  return images;
}
