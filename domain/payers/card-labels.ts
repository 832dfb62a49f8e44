import { boxAround } from '../documents/document-reading';
import type { Box, ReadWord } from '../documents/document-reading';
import { horizontalOverlap, verticallyWithin } from './card-agreement';
import type { CardField } from './card-fields';

/**
 * The labels a card prints before or above its values ("Member ID:", "RxBIN", "GROUP #"), and where
 * they stand on a line of words.
 */

export interface Token {
  /** Uppercased, without the punctuation labels end with. */
  key: string;
  word: ReadWord;
}

interface Label {
  field: CardField | null;
  phrase: readonly string[];
}

/**
 * Label phrases, as normalised tokens. `null` marks phrases that are not fields but end a value
 * ("Member Services", "Customer Service"), so a phone line is never taken for a member's name.
 */
const LABELS: readonly Label[] = [
  ...phrases('member_id', [
    'MEMBER ID',
    'MEMBER IDENTIFICATION',
    'ID',
    'IDENTIFICATION',
    'IDENTIFICATION NUMBER',
    'SUBSCRIBER ID',
    'ENROLLEE ID',
    'INSURED ID',
    'POLICY',
    'POLICY ID',
    'CARDHOLDER ID',
    'CERTIFICATE',
    'CERT',
    'MBR ID',
    'MEM ID',
    'BENEFICIARY ID',
    'PARTICIPANT ID',
    'EMPLOYEE ID',
  ]),
  ...phrases('medicaid_id', ['RECIPIENT ID', 'MEDICAID ID', 'CIN', 'MEDICAID NUMBER']),
  ...phrases('medicare_beneficiary_id', ['MEDICARE NUMBER', 'MEDICARE ID', 'MBI']),
  ...phrases('member_name', [
    'MEMBER',
    'MEMBER NAME',
    'NAME',
    'SUBSCRIBER NAME',
    'SUBSCRIBER',
    'RECIPIENT',
    'RECIPIENT NAME',
    'ENROLLEE',
    'BENEFICIARY',
    'INSURED',
    'CARDHOLDER',
    'CARDHOLDER NAME',
    'MBR NAME',
    'NAME OF INSURED',
    'NAME OF MEMBER',
    'NAME OF SUBSCRIBER',
    "INSURED'S NAME",
    "MEMBER'S NAME",
    "SUBSCRIBER'S NAME",
    'PARTICIPANT',
    'PARTICIPANT NAME',
    'EMPLOYEE',
    'EMPLOYEE NAME',
  ]),
  ...phrases('group_number', ['GROUP', 'GRP', 'GROUP NUMBER', 'GROUP ID', 'GROUP NO']),
  ...phrases('rx_bin', ['RXBIN', 'RX BIN', 'BIN']),
  ...phrases('rx_pcn', ['RXPCN', 'RX PCN', 'PCN', 'PROCESSOR CONTROL']),
  ...phrases('rx_group', ['RXGRP', 'RX GRP', 'RXGROUP', 'RX GROUP']),
  ...phrases('payer_name', ['PAYER', 'INSURER', 'CARRIER', 'HEALTH PLAN', 'INSURANCE COMPANY']),
  ...phrases('plan_name', ['PLAN', 'PLAN NAME', 'PRODUCT', 'COVERAGE']),
  ...phrases('client_name', ['EMPLOYER', 'CLIENT', 'GROUP NAME', 'ACCOUNT', 'COMPANY']),
  ...phrases('effective_date', [
    'EFFECTIVE',
    'EFFECTIVE DATE',
    'EFF DATE',
    'EFF',
    'COVERAGE START',
    'ISSUED',
  ]),
  ...phrases('payer_id', ['PAYER ID', 'PAYOR ID', 'EDI', 'EDI PAYER ID', 'CLAIMS PAYER ID']),
  ...phrases(null, [
    'MEMBER SERVICES',
    'CUSTOMER SERVICE',
    'CUSTOMER SERVICES',
    'PHARMACY HELP DESK',
    'PHARMACIST',
    'PROVIDER SERVICES',
    'SEND CLAIMS TO',
    'COPAY',
    'COPAYS',
    'DEDUCTIBLE',
    'PCP',
    'SPECIALIST',
    'URGENT CARE',
    'DEPENDENT',
    'DEPENDENTS',
    'SUFFIX',
    'DOB',
    'DATE OF BIRTH',
    'ISSUER',
    // A chart note's or lab report's identifiers: the provider's, never the plan's.
    'PATIENT',
    'PATIENT ID',
    'PATIENT NAME',
    'PATIENT NUMBER',
    'MRN',
    'MEDICAL RECORD NUMBER',
    'ACCOUNT NUMBER',
    'SPECIMEN NUMBER',
    'CONTROL NUMBER',
    'PHONE',
    'PHONE NUMBER',
    'FAX',
  ]),
];

/**
 * Label phrases that, written without a colon, are as likely to be part of a name ("Group Health
 * Cooperative", "Choice Plus Plan", "… Health Plan"): they label a value only at the start of a line,
 * or on a line of labels, and an id they label must hold a digit.
 */
const AMBIGUOUS_LABEL_WORDS = new Set([
  'ID',
  'IDENTIFICATION',
  'MEMBER',
  'NAME',
  'SUBSCRIBER',
  'RECIPIENT',
  'ENROLLEE',
  'BENEFICIARY',
  'INSURED',
  'PARTICIPANT',
  'EMPLOYEE',
  'POLICY',
  // "Certificate of Coverage" heads a card's back.
  'CERTIFICATE',
  'CERT',
  'GROUP',
  'PLAN',
  'PRODUCT',
  'COVERAGE',
  'PAYER',
  'INSURER',
  'CARRIER',
  'EMPLOYER',
  'CLIENT',
  'ACCOUNT',
  'COMPANY',
  'EFFECTIVE',
  'EFF',
  'ISSUED',
  'EDI',
  // Inside payer names: "Harvard Pilgrim Health Plan", "Guardian Insurance Company".
  'HEALTH PLAN',
  'INSURANCE COMPANY',
]);

function phrases(field: CardField | null, texts: readonly string[]): Label[] {
  return texts.map((text) => ({ field, phrase: text.split(' ') }));
}

/** Tokens that may end a label: "ID #", "Group No.", "Member Number". */
const LABEL_MARKERS = new Set(['#', 'NO', 'NUMBER', 'NBR', 'NUM']);

export interface LabelAt {
  field: CardField | null;
  start: number;
  end: number;
  box: Box;
  /** Written as a label beyond doubt: a colon or marker, or words that are never part of a name. */
  certain: boolean;
}

/**
 * Each line's labels, `GRP` in the pharmacy block taken for the RxGroup: after a BIN or PCN label on
 * its line (`BIN 553391 PCN KGAMVT GRP RX4090`), or on the line under one, in its column (`BIN 553391
 * PCN KGAMVT`, then `GRP RX4090`), unless the RxGroup's own label stands on its line. A `GRP` beside
 * or under a block in no such way (before the block's labels on its line, or under it out of its
 * columns) labels nothing: it may be either group. A reader may give a table's heading row as one
 * line per cell (Tesseract's `RXBIN`, `PCN` and `GRP` each a line of its own), or find lines of a
 * photo's desk between two rows, so on a card with no RxGroup label of its own (where a stray `GRP`
 * may be the member's group) where the labels stand counts too: a `GRP` heading one row with a BIN or
 * PCN label (no value between them), or under one in its column, less than two of its heights down,
 * with no other label between. A BIN or PCN label a reader ran into its value (`RxBin669383`, `PCNAKCXKU`)
 * counts as one.
 */
export function labelsOfLines(lines: Token[][]): LabelAt[][] {
  const labelsByLine = lines.map(labelsIn);
  const labels = labelsByLine.flat();
  const ownRxGroupLabel = labels.some((label) => label.field === 'rx_group');
  const rxGroupLabelled = labelsByLine.map((onLine) => onLine.some((label) => label.field === 'rx_group'));
  const pharmacyMarks = labelsByLine.map((onLine, lineIndex) => [
    ...onLine
      .filter((label) => label.field === 'rx_bin' || label.field === 'rx_pcn')
      .map((label) => label.box),
    ...lines[lineIndex]
      .filter((token) => isRunInPharmacyLabel(token.word.text))
      .map((token) => token.word.box),
  ]);
  const marks = pharmacyMarks.flat();
  const words = lines.flat().map((token) => token.word);
  const labelBoxes = labels.map((label) => label.box);
  labelsByLine.forEach((onLine, lineIndex) => {
    for (const label of onLine) {
      if (label.field !== 'group_number' || lines[lineIndex][label.start].key !== 'GRP') continue;
      // Beside the RxGroup's own label on its row, a GRP is the member's group (`GRP # | RX BIN | RX
      // PCN | RXGRP` heading a wallet card's strip).
      if (rxGroupLabelled[lineIndex]) continue;
      const above = lineIndex > 0 ? pharmacyMarks[lineIndex - 1] : [];
      const byLines =
        pharmacyMarks[lineIndex].some(
          (mark) => mark.left < label.box.left || headsTheRow(mark, label.box, words),
        ) || above.some((mark) => inColumnOf(mark, label.box));
      const byPlace =
        !ownRxGroupLabel &&
        marks.some((mark) => headsTheRow(mark, label.box, words) || standsOver(mark, label.box, labelBoxes));
      // Beside or under a pharmacy block in no way that says whose group it labels: neither field's.
      const nearBlock = pharmacyMarks[lineIndex].length > 0 || above.length > 0;
      if (byLines || byPlace) label.field = 'rx_group';
      else if (nearBlock) label.field = null;
    }
  });
  return labelsByLine;
}

/**
 * Whether a mark and a label head one row of a table: on one row (the middle of each within the
 * other's height), with no word holding a digit between them, as a value would.
 */
function headsTheRow(mark: Box, label: Box, words: readonly ReadWord[]): boolean {
  const [left, right] = mark.left < label.left ? [mark, label] : [label, mark];
  return (
    onOneRow(mark, label) &&
    !words.some(
      (word) =>
        /\d/.test(word.text) &&
        onOneRow(word.box, label) &&
        word.box.left >= left.left + left.width &&
        word.box.left + word.box.width <= right.left,
    )
  );
}

/**
 * Whether a mark stands over a label in its column (their spans across overlap), less than two of the
 * label's heights up, with no other label between them.
 */
function standsOver(mark: Box, label: Box, labels: readonly Box[]): boolean {
  const bottom = mark.top + mark.height;
  const above = label.top - bottom;
  return (
    above >= 0 &&
    above < 2 * label.height &&
    inColumnOf(mark, label) &&
    !labels.some(
      (other) => inColumnOf(other, label) && other.top >= bottom && other.top + other.height <= label.top,
    )
  );
}

/** Whether two boxes' spans across overlap. */
function inColumnOf(box: Box, label: Box): boolean {
  return horizontalOverlap(box, label) > 0;
}

/** Whether two boxes stand on one row: the middle of each within the other's height. */
function onOneRow(a: Box, b: Box): boolean {
  return verticallyWithin(a, b) && verticallyWithin(b, a);
}

/** Whether a word is a BIN's label run into six digits, or a PCN's run into its code. */
function isRunInPharmacyLabel(text: string): boolean {
  const bin = afterRunInLabel('rx_bin', text);
  return (bin !== null && /^\d{6}$/.test(bin)) || Boolean(afterRunInLabel('rx_pcn', text));
}

/**
 * The labels of a line. Every phrase of LABELS is a candidate (the longest at each position, with its
 * markers: "#", "No.", "Number"); an ambiguous word alone counts only where it reads as a label (see
 * AMBIGUOUS_LABEL_WORDS), and on a line made only of labels (a column heading row) every one counts.
 */
export function labelsIn(tokens: Token[]): LabelAt[] {
  const candidates: LabelAt[] = [];
  let index = 0;
  while (index < tokens.length) {
    const match = longestLabelAt(tokens, index);
    if (!match) {
      index += 1;
      continue;
    }
    let end = index + match.phrase.length;
    let marked = /[:#]$/.test(tokens[end - 1].word.text);
    // A marker stands by its label (`Group No.`, `ID #`); one across the card is a value (a PCN `NBR`).
    while (
      end < tokens.length &&
      (LABEL_MARKERS.has(tokens[end].key) || tokens[end].word.text === ':') &&
      withinSpace(tokens[end - 1].word.box, tokens[end].word.box, MARKER_SPACE)
    ) {
      marked = true;
      end += 1;
    }
    // "Member" and "Subscriber" name a person unless an id marker follows ("Member #", "Subscriber No").
    const idMarker = tokens.slice(index + match.phrase.length, end).some((token) => token.key !== '');
    const field = idMarker && match.field === 'member_name' ? 'member_id' : match.field;
    const ambiguous = AMBIGUOUS_LABEL_WORDS.has(match.phrase.join(' '));
    const words = tokens.slice(index, end).map((token) => token.word);
    candidates.push({
      field,
      start: index,
      end,
      box: boxAround(words.map((word) => word.box)),
      certain: marked || !ambiguous,
    });
    index = end;
  }
  const joined = oneLabelPerWording(candidates);
  const covered = joined.reduce((sum, label) => sum + label.end - label.start, 0);
  if (covered === tokens.length) return joined.map((label) => ({ ...label, certain: true }));
  return joined.filter((label) => label.certain || label.start === 0);
}

/**
 * Labels of one field side by side, nothing between and no further apart than a word's space, as one
 * label: `Insured Name` and `Enrollee Name` are each one wording, and apart, the second was taken for
 * the first's value (`Name JANE Q SAMPLE`), or each label for a part of a name printed under both.
 */
function oneLabelPerWording(labels: readonly LabelAt[]): LabelAt[] {
  const joined: LabelAt[] = [];
  for (const label of labels) {
    const last = joined[joined.length - 1];
    const besideLast =
      last !== undefined &&
      last.field !== null &&
      last.field === label.field &&
      last.end === label.start &&
      withinSpace(last.box, label.box, WORD_SPACE);
    if (!besideLast) {
      joined.push(label);
      continue;
    }
    joined[joined.length - 1] = {
      ...last,
      end: label.end,
      box: boxAround([last.box, label.box]),
      certain: last.certain || label.certain,
    };
  }
  return joined;
}

/** The widest space between two words of one label, in letter heights. */
const WORD_SPACE = 1.5;
/**
 * The widest space before a label's marker: small spaced capitals set `GROUP  #` 2 heights apart, and a
 * rows card's value stood 14 off its label.
 */
const MARKER_SPACE = 3;

function withinSpace(left: Box, right: Box, heights: number): boolean {
  return right.left - (left.left + left.width) <= heights * Math.max(left.height, right.height);
}

function longestLabelAt(tokens: Token[], index: number): Label | undefined {
  let best: Label | undefined;
  for (const label of LABELS) {
    if (best && best.phrase.length >= label.phrase.length) continue;
    if (label.phrase.every((part, offset) => tokens[index + offset]?.key === part)) best = label;
  }
  return best;
}

/** Splits a word into the tokens labels are matched on: "ID#:" gives ID and #, "RxBIN:" gives RXBIN. */
export function tokensOf(word: ReadWord): Token[] {
  const upper = word.text.toUpperCase();
  const hash = upper.indexOf('#');
  if (hash > 0) {
    return [
      { key: keyOf(upper.slice(0, hash)), word },
      { key: '#', word },
    ];
  }
  const key = /^#[:.]*$/.test(upper) ? '#' : keyOf(upper);
  return (GLUED_LABELS.get(key) ?? slashedLabels(key) ?? [key]).map((part) => ({ key: part, word }));
}

/**
 * Label words a card prints joined by a slash (`SUBSCRIBER/MEMBER`, `RXBIN/RXPCN`) as their words;
 * null where any part is no label word, so a date (`07/01/2026`) or a value stays one token.
 */
function slashedLabels(key: string): string[] | null {
  const parts = key.split('/').map(keyOf);
  return parts.length > 1 && parts.every((part) => LABEL_WORDS.has(part)) ? parts : null;
}

const LABEL_WORDS: ReadonlySet<string> = new Set(LABELS.flatMap((label) => label.phrase));

/**
 * Labels printed in small spaced capitals that a reader gives without their spaces (`MEMBERNAME`,
 * `ENROLLEEID`, `GROUPNUMBER`), mapped to their words: every phrase of two words or more, and every
 * phrase followed by a marker word, where the glued form is no label word of its own.
 */
const GLUED_LABELS: ReadonlyMap<string, readonly string[]> = new Map(
  LABELS.flatMap((label) => [
    label.phrase,
    ...[...LABEL_MARKERS].filter((marker) => marker !== '#').map((marker) => [...label.phrase, marker]),
  ])
    .filter((parts) => parts.length > 1 && !LABEL_WORDS.has(parts.join('')))
    .map((parts) => [parts.join(''), parts] as const),
);

export function keyOf(text: string): string {
  const key = text.replace(/[:.,;#()|]+$/g, '').replace(/^[('"‘’`|]+/, '');
  return LABEL_LOOK_ALIKES[key] ?? withoutRuleStroke(key);
}

/**
 * A label with a table's rule read into its first letter (`TRXBIN`, `IPCN`: the rule's stroke or its
 * joint with the row's rule): the label, where what follows the stroke is a label word no name holds.
 */
function withoutRuleStroke(key: string): string {
  const rest = key.slice(1);
  const stroke = /^[IL1T![]/.test(key) && rest.length >= 3;
  return stroke && !LABEL_WORDS.has(key) && LABEL_WORDS.has(rest) && !AMBIGUOUS_LABEL_WORDS.has(rest)
    ? rest
    : key;
}

/**
 * Label words as OCR misreads them: the `I` of a small `ID` read as a one. Only the key a label is
 * matched on changes, never a value's text.
 */
const LABEL_LOOK_ALIKES: Readonly<Record<string, string>> = { '1D': 'ID' };

/** Whether a word is part of a label (`ID:`, `Member`, `#`) rather than of a value. */
export function isLabelWord(text: string): boolean {
  const key = keyOf(text.toUpperCase());
  return /[:#]$/.test(text) || LABEL_MARKERS.has(key) || LABEL_WORDS.has(key) || GLUED_LABELS.has(key);
}

/** Fields whose short labels a reader runs into the value when a pharmacy block sets them close. */
const RUN_IN_FIELDS: ReadonlySet<CardField> = new Set(['rx_bin', 'rx_pcn', 'rx_group']);

/**
 * What follows one of the field's own labels at the start of a word a reader ran the label into
 * (`RxBin888761`, `PCNAVGM`), in capitals and without marks; null where the word begins with none. For
 * the RxGroup a `GRP` counts too (`GRPRX6493`): the field is already the candidate's, which only a
 * pharmacy block's `GRP` gives it (labelsOfLines), and this reads only the value after the label.
 */
export function afterRunInLabel(field: CardField, text: string): string | null {
  if (!RUN_IN_FIELDS.has(field)) return null;
  const compact = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  for (const label of LABELS) {
    const glued = label.phrase.join('');
    const fieldsOwn = label.field === field || (field === 'rx_group' && glued === 'GRP');
    if (fieldsOwn && compact.length > glued.length && compact.startsWith(glued))
      return compact.slice(glued.length);
  }
  return null;
}
