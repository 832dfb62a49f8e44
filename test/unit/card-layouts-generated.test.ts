import { seededRandom } from '../../bench/seeded-random';
import type { ReadPage } from '../../domain/documents/document-reading';
import type { CardField } from '../../domain/payers/card-fields';
import { readInsuranceCard } from '../../domain/payers/insurance-card';
import { face, readTwice, textPage } from '../support/read-pages';

/**
 * Cards laid out as text from the label wordings real cards print, in six layouts, read from a text
 * layer, by both readers alike, or with one reader misreading one value as OCR does. Each run draws
 * a fresh seed, named in the test's title; set CARD_LAYOUT_SEED to replay one.
 */
const SEED = Number(process.env.CARD_LAYOUT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CARDS = 1000;

type Field = Extract<
  CardField,
  'member_id' | 'group_number' | 'rx_bin' | 'rx_pcn' | 'rx_group' | 'member_name'
>;
const FIELDS: readonly Field[] = ['member_name', 'member_id', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group'];

const WORDINGS: Record<Field, readonly string[]> = {
  member_id: [
    'Member ID',
    'Member ID#',
    'Member Number',
    'Member No.',
    'Member #',
    'ID',
    'ID#',
    'ID No.',
    'ID Number',
    'Identification Number',
    'Identification No.',
    'Subscriber ID',
    'Subscriber #',
    'Subscriber/Member ID',
    'Insured ID',
    'Enrollee ID',
    'Policy Number',
    'Certificate Number',
    'Cardholder ID',
    'Member ID Number',
  ],
  group_number: ['Group', 'Group #', 'Group No.', 'Group Number', 'Group ID', 'GRP', 'GRP#', 'Grp No'],
  rx_bin: ['RxBIN', 'BIN #', 'Rx BIN', 'BIN'],
  rx_pcn: ['RxPCN', 'PCN', 'Rx PCN', 'Processor Control Number'],
  rx_group: ['RxGRP', 'RxGroup', 'Rx Grp', 'Rx Group #', 'RXGRP#'],
  member_name: [
    'Member',
    'Member Name',
    'Name',
    'Subscriber',
    'Subscriber Name',
    'Cardholder',
    'Insured Name',
    'Name of Insured',
    'Enrollee',
  ],
};

const LAYOUTS = ['beside', 'above', 'centred headings', 'rows', 'pharmacy lines', 'two columns'] as const;
type Layout = (typeof LAYOUTS)[number];

/** Misreadings one OCR engine makes of a value: a look-alike, a character lost or doubled, a space, a speck. */
const MISREADINGS = ['look-alike', 'last lost', 'doubled', 'split', 'speck after'] as const;
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  '0': 'O',
  O: '0',
  '1': 'I',
  I: '1',
  '5': 'S',
  S: '5',
  '8': 'B',
  B: '8',
  '2': 'Z',
  Z: '2',
  J: 'I',
  M: 'N',
  N: 'M',
};

function cardMaker(random: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const digits = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
  const letters = (count: number) =>
    Array.from({ length: count }, () => pick([...'ABCDEFGHJKLMNPRSTUVWXYZ'])).join('');
  const values: Record<Field, () => string> = {
    member_id: () =>
      pick([
        () => `W${digits(9)}`,
        () => `${letters(3)}${digits(9)}`,
        () => digits(9 + Math.floor(random() * 3)),
        () => `ZZBHH${digits(9)}`,
        () => `U${digits(10)}`,
      ])(),
    group_number: () =>
      pick([() => digits(5 + Math.floor(random() * 3)), () => `${letters(3)}${digits(5)}`])(),
    rx_bin: () => digits(6),
    rx_pcn: () => letters(2 + Math.floor(random() * 6)),
    rx_group: () => pick([() => `RX${digits(4)}`, () => `${letters(4)}${digits(2)}`, () => digits(5)])(),
    member_name: () =>
      `${pick(['JANE', 'LUIS', 'MARIA', 'DEVON', 'PRIYA'])} ${pick(['Q', 'A', 'M', 'R'])} ${pick(['SAMPLE', 'RIVERA', 'OKAFOR', 'NGUYEN'])}`,
  };

  return function card(): { printed: Record<Field, string>; lines: string[]; layout: Layout } {
    const printed = Object.fromEntries(FIELDS.map((field) => [field, values[field]()])) as Record<
      Field,
      string
    >;
    const wording = Object.fromEntries(FIELDS.map((field) => [field, pick(WORDINGS[field])])) as Record<
      Field,
      string
    >;
    const colon = random() < 0.5 ? ':' : '';
    const label = (field: Field) => wording[field] + (wording[field].endsWith('#') ? '' : colon);
    const beside = (field: Field) => `${label(field)} ${printed[field]}`;
    const padded = (text: string, width: number) => text + ' '.repeat(Math.max(2, width - text.length));
    const layout = pick(LAYOUTS);
    const lines = [pick(['Northwind Health', 'Harbor Mutual', 'Blue Cross NC', 'Cascade Benefit Partners'])];
    if (layout === 'beside') {
      lines.push(beside('member_name'), beside('member_id'), beside('group_number'));
      lines.push(`${beside('rx_bin')}  ${beside('rx_pcn')}  ${beside('rx_group')}`);
    } else if (layout === 'above') {
      lines.push(wording.member_name.toUpperCase(), printed.member_name);
      lines.push(padded(wording.member_id.toUpperCase(), 34) + wording.group_number.toUpperCase());
      lines.push(padded(printed.member_id, 34) + printed.group_number);
      lines.push(
        padded(wording.rx_bin.toUpperCase(), 12) +
          padded(wording.rx_pcn.toUpperCase(), 28) +
          wording.rx_group.toUpperCase(),
      );
      lines.push(padded(printed.rx_bin, 12) + padded(printed.rx_pcn, 28) + printed.rx_group);
    } else if (layout === 'centred headings') {
      const centred = (heading: string, value: string, width: number) => {
        const cell = Math.max(heading.length, value.length);
        const centre = (text: string) =>
          padded(' '.repeat(Math.floor((cell - text.length) / 2)) + text, width);
        return [centre(heading), centre(value)];
      };
      const cells = (['member_name', 'member_id', 'group_number'] as const).map((field) =>
        centred(wording[field].toUpperCase(), printed[field], 34),
      );
      lines.push(cells.map(([heading]) => heading).join(''), cells.map(([, value]) => value).join(''));
      lines.push(`${beside('rx_bin')}  ${beside('rx_pcn')}  ${beside('rx_group')}`);
    } else if (layout === 'rows') {
      const width = Math.max(...FIELDS.map((field) => wording[field].length)) + 2;
      lines.push(...FIELDS.map((field) => padded(wording[field], width) + printed[field]));
    } else if (layout === 'pharmacy lines') {
      lines.push(beside('member_name'), `${beside('member_id')}   ${beside('group_number')}`);
      lines.push(beside('rx_bin'), beside('rx_pcn'), beside('rx_group'));
    } else {
      lines.push(padded(beside('member_name'), 48) + beside('rx_bin'));
      lines.push(padded(beside('member_id'), 48) + beside('rx_pcn'));
      lines.push(padded(beside('group_number'), 48) + beside('rx_group'));
    }
    return { printed, lines, layout };
  };
}

function misread(value: string, random: () => number): string {
  const kind = MISREADINGS[Math.floor(random() * MISREADINGS.length)];
  const at = Math.floor(random() * value.length);
  switch (kind) {
    case 'look-alike': {
      const places = [...value].flatMap((character, index) => (LOOK_ALIKES[character] ? [index] : []));
      if (places.length === 0) return value;
      const place = places[Math.floor(random() * places.length)];
      return value.slice(0, place) + LOOK_ALIKES[value[place]] + value.slice(place + 1);
    }
    case 'last lost':
      return value.slice(0, -1);
    case 'doubled':
      return value.slice(0, at + 1) + value[at] + value.slice(at + 1);
    case 'split':
      return value.includes(' ') || at === 0 ? value : `${value.slice(0, at)} ${value.slice(at)}`;
    case 'speck after':
      return `${value} i`;
  }
}

/**
 * The line with the value misread where it is printed as words of its own, not inside another value:
 * a PCN `AM` misread `A M` is no misreading of `SAMPLE`.
 */
function misprinted(line: string, value: string, misreading: string): string {
  const words = line.split(' ');
  const valueWords = value.split(' ');
  const at = words.findIndex((_, index) =>
    valueWords.every((word, offset) => words[index + offset] === word),
  );
  if (at === -1) return line;
  return [...words.slice(0, at), misreading, ...words.slice(at + valueWords.length)].join(' ');
}

/** The fields returned with a value other than the one printed, as `field: returned (printed)`. */
function wrongValues(page: ReadPage, printed: Record<Field, string>): string[] {
  const card = readInsuranceCard([page]);
  return FIELDS.flatMap((field) => {
    const value = card[field]?.value ?? null;
    return value === null || value.toUpperCase() === printed[field].toUpperCase()
      ? []
      : [`${field}: ${value} (${printed[field]})`];
  });
}

describe(`insurance cards laid out from real cards' label wordings (seed ${SEED})`, () => {
  it('returns no field wrong where both readers read every word alike', () => {
    const random = seededRandom(SEED);
    const card = cardMaker(random);
    const wrong = Array.from({ length: CARDS }, () => {
      const { printed, lines, layout } = card();
      const found = wrongValues(readTwice(lines, lines), printed);
      return found.length ? `${layout}: ${found.join(', ')}\n${lines.join('\n')}` : null;
    }).filter(Boolean);
    expect(wrong).toEqual([]);
  });

  it('returns no field wrong from a text layer, read once', () => {
    const card = cardMaker(seededRandom(SEED ^ 0x2545f491));
    const wrong = Array.from({ length: CARDS }, () => {
      const { printed, lines, layout } = card();
      const found = wrongValues(textPage(lines.join('\n')), printed);
      return found.length ? `${layout}: ${found.join(', ')}\n${lines.join('\n')}` : null;
    }).filter(Boolean);
    expect(wrong).toEqual([]);
  });

  it('returns no field wrong where one reader misread one value as OCR does', () => {
    const random = seededRandom(SEED ^ 0x5f3759df);
    const card = cardMaker(random);
    const wrong = Array.from({ length: CARDS }, () => {
      const { printed, lines, layout } = card();
      const target = FIELDS[Math.floor(random() * FIELDS.length)];
      const misreading = misread(printed[target], random);
      const page: ReadPage = {
        ...face(lines.map((line) => misprinted(line, printed[target], misreading))),
        second: face(lines, 0.97).lines,
      };
      const found = wrongValues(page, printed);
      return found.length ? `${layout}, ${target} read ${misreading}: ${found.join(', ')}` : null;
    }).filter(Boolean);
    expect(wrong).toEqual([]);
  });
});
