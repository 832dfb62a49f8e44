import { boxAround } from '../documents/document-reading';
import type { Box, ReadLine, ReadPage, ReadWord } from '../documents/document-reading';
import { horizontalOverlap, RUNS_ON_GAP, runsOnGap, sameRegion, verticallyWithin } from './card-agreement';
import type { CardField } from './card-fields';
import {
  ID_FIELDS,
  IDENTIFIERS,
  LOOK_ALIKE_FACTOR,
  LOOK_ALIKE_FIELDS,
  organisationName,
  SHAPES,
} from './card-field-shapes';
import { isLabelWord, labelsIn, labelsOfLines, tokensOf } from './card-labels';
import type { LabelAt, Token } from './card-labels';

/**
 * Where a card's values stand: beside their labels or below them, in columns, and the payer's name in
 * the largest lettering when no label gives it. Reads one reader's page.
 */

/** A value as one reader's words give it, before the readers are compared. */
export interface FoundValue {
  value: string;
  /** 0–1: the least sure of the words it came from, lowered where the layout was a guess. */
  confidence: number;
  /** The words as the recogniser read them, with where they sit (for the reviewer's view). */
  words: ReadWord[];
  /** 1-based page of the document the value was read from. */
  page: number;
}

export interface FoundField {
  field: CardField;
  value: FoundValue;
  /**
   * Whether the value stood by a label beyond doubt: a colon or marker, words never in a name, or any
   * label of a line made only of labels (a column heading row).
   */
  labelCertain: boolean;
}

/** A value found below its label (in a column) rather than beside it is a little less certain. */
const BELOW_LABEL_FACTOR = 0.97;
/** A payer name taken from the card's largest lettering, with no label, is a hint, not a reading. */
const UNLABELLED_PAYER_FACTOR = 0.75;

/** The labelled fields of one reader's page, each value beside its label or below it. */
export function fieldsOnPage(page: ReadPage): FoundField[] {
  const lines = page.lines.map((line) => line.words.flatMap(tokensOf));
  const labelsByLine = labelsOfLines(lines);
  const inLabelColumn = labelColumn(lines, labelsByLine);
  const found: FoundField[] = [];
  lines.forEach((tokens, lineIndex) => {
    const labels = labelsByLine[lineIndex];
    labels.forEach((label, labelIndex) => {
      if (!label.field) return;
      const besideTokens = tokens.slice(label.end, labels[labelIndex + 1]?.start ?? tokens.length);
      // Marks alone beside a label (a stray `(`, `»` or a rule's stroke) are no value, nor print across
      // the card (the next column's value under its own label, on a reader's row): look below it.
      const firstPrint = besideTokens.find(isPrint);
      if (firstPrint && (within(label, firstPrint) || inLabelColumn.has(label))) {
        const beside = valueFrom(label, besideTokens, page.number, 1);
        if (beside) found.push({ field: label.field, value: beside, labelCertain: label.certain });
        return;
      }
      const nextLabel = labels[labelIndex + 1];
      const columnRight = nextLabel ? nextLabel.box.left : Number.POSITIVE_INFINITY;
      const below = valueBelow(label, columnRight, lines, labelsByLine, lineIndex, page.number);
      if (below) found.push({ field: label.field, value: below, labelCertain: label.certain });
    });
  });
  return found;
}

/**
 * How far past its label's end, in the label's heights, a value beside it may begin: a table's value
 * stands a few heights off; print further on belongs to another column. On 480 fresh cards every
 * value read beside its label began within 2.2 heights, and every word beyond 3.1 was another
 * field's value or none; the detector's boxes stand half again as tall as the letters, so the next
 * column's value read on a label's row came at 10.2 of its heights.
 */
const BESIDE_REACH = 6;

const isPrint = (token: Token) => /[A-Za-z0-9]/.test(token.word.text);
const rightOf = (box: { left: number; width: number }) => box.left + box.width;

function within(label: LabelAt, token: Token): boolean {
  return token.word.box.left - rightOf(label.box) <= BESIDE_REACH * label.box.height;
}

/** Rows of a label column: at least this many, so that one line's print far off is not taken for one. */
const LABEL_COLUMN_ROWS = 3;

/**
 * The labels of a label column: rows with nothing between them left of the values that each begin
 * with a label and hold a value beside it, the labels starting within a letter's height of one
 * another and the values too, the values' column within reach of the column's widest label. A short label's value stands as far off as the widest
 * label leaves it (`PCN` at 12 of its heights from `TZSAWB`, under `Identification Number`); print
 * that far off a label in no such column is another column's.
 */
function labelColumn(lines: Token[][], labelsByLine: LabelAt[][]): Set<LabelAt> {
  const rows = lines.flatMap((tokens, lineIndex) => {
    const [first, second] = labelsByLine[lineIndex];
    if (!first?.field || tokens.slice(0, first.start).some(isPrint)) return [];
    const value = tokens.slice(first.end, second?.start ?? tokens.length).find(isPrint);
    return value ? [{ label: first, value: value.word.box, lineIndex }] : [];
  });
  const column = new Set<LabelAt>();
  for (const row of rows) {
    const height = row.label.box.height;
    const alignedLines = new Set(
      rows
        .filter(
          (other) =>
            Math.abs(other.label.box.left - row.label.box.left) <= height &&
            Math.abs(other.value.left - row.value.left) <= height,
        )
        .map((other) => other.lineIndex),
    );
    // Rows with nothing between them left of the values' column: labels over their values, each with
    // print far off on its line (a copays column), align as well every other line.
    const between = (lineIndex: number) =>
      !alignedLines.has(lineIndex) &&
      lines[lineIndex].some((token) => isPrint(token) && token.word.box.left < row.value.left - height);
    let [first, last] = [row.lineIndex, row.lineIndex];
    for (let above = first - 1; above >= 0 && !between(above); above -= 1)
      if (alignedLines.has(above)) first = above;
    for (let under = last + 1; under < lines.length && !between(under); under += 1)
      if (alignedLines.has(under)) last = under;
    const aligned = rows.filter(
      (other) => alignedLines.has(other.lineIndex) && other.lineIndex >= first && other.lineIndex <= last,
    );
    const widestLabelRight = Math.max(...aligned.map((other) => rightOf(other.label.box)));
    const gap = row.value.left - widestLabelRight;
    if (aligned.length >= LABEL_COLUMN_ROWS && gap >= 0 && gap <= BESIDE_REACH * height)
      column.add(row.label);
  }
  return column;
}

/**
 * The value in the label's column on the next line that has words there and is not itself labels. A
 * line whose first print there is claimed ends the search: print in reach beside a label of its own
 * line is that label's, and the label above has no value of its own (a label column's `PCN` over the
 * next row's `RxGroup  RX9342`). So does print that starts across the card from the label, not under it.
 */
function valueBelow(
  label: LabelAt,
  columnRight: number,
  lines: Token[][],
  labelsByLine: LabelAt[][],
  lineIndex: number,
  pageNumber: number,
): FoundValue | null {
  const columnLeft = label.box.left - label.box.height;
  for (let below = lineIndex + 1; below < Math.min(lines.length, lineIndex + 3); below += 1) {
    const labels = labelsByLine[below];
    const inColumn = lines[below]
      .map((token, index) => ({ token, index }))
      .filter(({ token, index }) => {
        const centre = token.word.box.left + token.word.box.width / 2;
        const inLabel = labels.some((other) => index >= other.start && index < other.end);
        return !inLabel && centre >= columnLeft && centre < columnRight;
      });
    if (inColumn.length === 0) continue;
    const claimed = ({ token, index }: { token: Token; index: number }) =>
      labels.some((other) => other.field !== null && index >= other.end && within(other, token));
    // A label of the line below standing where this one stands, before the print, begins a row of its
    // own: the print is its value, however far off (`Processor Control Number  NUM`, its PCN a marker's
    // word, over `Rx Grp  BBZE14`, the values as far off as the widest label leaves them). So does one
    // further left with nothing printed between it and the print: this label stood where that row's
    // value stands (`Processor Control Number  PCN`, a PCN that reads as its own label).
    const rowOfItsOwn = labels.some(
      (other) =>
        other.field !== null &&
        other.end <= inColumn[0].index &&
        (Math.abs(other.box.left - label.box.left) <= label.box.height ||
          (other.box.left < label.box.left &&
            !lines[below].slice(other.end, inColumn[0].index).some(isPrint))),
    );
    if (
      rowOfItsOwn ||
      claimed(inColumn[0]) ||
      besideAnotherLabel(inColumn[0].token, label, labelsByLine) ||
      !within(label, inColumn[0].token)
    )
      return null;
    if (cutByColumn(lines[below], inColumn, labels, label.field as CardField)) return null;
    const value = valueFrom(
      label,
      inColumn.filter((placed) => !claimed(placed)).map(({ token }) => token),
      pageNumber,
      BELOW_LABEL_FACTOR,
    );
    return value && underAnotherHeading(value, label, labelsByLine[lineIndex]) ? null : value;
  }
  return null;
}

/**
 * Whether a value below its heading reaches under another heading of the same row by more than half
 * a letter. A table's cell stands under its own heading; a word under two is cells a reader joined
 * where the rule between them was lost (`PCN  RX GROUP` over `EGZKVSRX9132`), and nothing says where
 * one cell ends.
 */
function underAnotherHeading(value: FoundValue, label: LabelAt, headings: readonly LabelAt[]): boolean {
  const reach = label.box.height / 2;
  return headings.some(
    (other) => other !== label && value.words.some((word) => horizontalOverlap(word.box, other.box) > reach),
  );
}

/**
 * Whether print stands level with another label, within its reach beside it, whichever line a reader
 * put each on: it is that label's value. Tesseract may give a photo's rows a little aslant as lines of
 * their own, the value before its label (`YFNM`, then `Rx PCN`, then `RX8782`, then `RxGRP`), and the
 * RxGroup under the PCN's label was taken for the PCN.
 */
function besideAnotherLabel(token: Token, label: LabelAt, labelsByLine: LabelAt[][]): boolean {
  const middle = (box: Box) => box.top + box.height / 2;
  const box = token.word.box;
  return labelsByLine.some((labels) =>
    labels.some(
      (other) =>
        other !== label &&
        other.field !== null &&
        rightOf(other.box) <= box.left &&
        Math.abs(middle(other.box) - middle(box)) <= Math.max(other.box.height, box.height) / 2 &&
        within(other, token),
    ),
  );
}

/** Two letters or digits at least: a table's rule read as `1`, `i` or `©` beside a cell is no print. */
const isPrintedWord = (text: string) => (text.match(/[A-Za-z0-9]/g)?.length ?? 0) >= 2;

/**
 * Whether print the column leaves out stands as close to what it takes as the value's own words or
 * groups stand: a name centred under its heading (`JANE Q SAMPLE` under `MEMBER NAME` gave `Q
 * SAMPLE`), or running on under the next heading (`Member Name/ID` over `JANE Q SAMPLE` gave `JANE
 * Q`). The column cuts the value, and nothing says where it ends.
 */
function cutByColumn(
  line: Token[],
  inColumn: ReadonlyArray<{ token: Token; index: number }>,
  labels: readonly LabelAt[],
  field: CardField,
): boolean {
  // An identifier's print running on past the column is the agreement's to see (`runsOn`), at the
  // gap its groups join at; a name's words join further apart than that.
  if (IDENTIFIERS.has(field) || field === 'effective_date') return false;
  const first = inColumn[0];
  const last = inColumn[inColumn.length - 1];
  const outside = (index: number) =>
    index >= 0 &&
    index < line.length &&
    isPrintedWord(line[index].word.text) &&
    !labels.some((other) => index >= other.start && index < other.end);
  const before = first.index - 1;
  const after = last.index + 1;
  return (
    (outside(before) && standTogether(line[before].word.box, first.token.word.box, WORD_SPACE)) ||
    (outside(after) && standTogether(last.token.word.box, line[after].word.box, WORD_SPACE))
  );
}

/**
 * A space between words of one line of print, at its widest, in letter heights: a monospace face's or
 * a wide-set title's stood up to 1.1 on fresh cards. A table's cells stand further apart: `MATEO
 * HALVORSEN` stood 2.5 of its heights before the member id in the next column, and at `WORD_GAP` the
 * column was taken to cut the name.
 */
const WORD_SPACE = 1.5;

function valueFrom(
  label: LabelAt,
  tokens: Token[],
  pageNumber: number,
  layoutFactor: number,
): FoundValue | null {
  const field = label.field as CardField;
  const shape = SHAPES[field];
  const kept = tokens.filter((token) => token.key !== '' && token.key !== '#');
  // Print further off than an id's groups or a name's words stand is another column's: a plan or a
  // copay printed at the card's right on the name's line is no part of the name.
  const joined = IDENTIFIERS.has(field) || field === 'effective_date';
  const words = (joined ? idGroups(kept, field) : printedTogether(kept, WORD_GAP)).slice(0, shape.maxWords);
  // Ids printed in groups ("123 456 789", "1EG4-TE5-MK73") join; names keep their spaces.
  const joiner = joined ? '' : ' ';
  for (let count = words.length; count >= 1; count -= 1) {
    const taken = words.slice(0, count);
    const value = shape.normalise(taken.map((token) => token.word.text).join(joiner));
    if (value === null) continue;
    if (!label.certain && ID_FIELDS.has(field) && !/\d/.test(value)) return null;
    // A word of the card's own wording in an id is no group of it (`Member ID Card W190064256`).
    const wording = (token: Token) =>
      !/\d/.test(token.word.text) && (CARD_WORDING.has(token.key) || isLabelWord(token.word.text));
    if (joined && taken.some(wording)) return null;
    const lookAlike = LOOK_ALIKE_FIELDS.has(field) && /[IO]/.test(value) ? LOOK_ALIKE_FACTOR : 1;
    const confidence = Math.min(...taken.map((token) => token.word.confidence)) * layoutFactor * lookAlike;
    return { value, confidence, words: taken.map((token) => token.word), page: pageNumber };
  }
  return null;
}

/**
 * Words of one name stand no further apart than this many letter heights (an id's groups no further
 * than `runsOnGap`): a plan or copays at the card's right, on the name's line, stood 7.7 and more of
 * their heights off on fresh cards, and a monospace face's space or a wide-set title's up to 1.1.
 */
const WORD_GAP = 3;

/** Words a card prints about itself, never in an identifier. */
const CARD_WORDING: ReadonlySet<string> = new Set(['CARD', 'CARDS', 'PLAN', 'HEALTH', 'INSURANCE']);

/** Gaps between a member id's groups, at their widest, within this share of their narrowest. */
const ALIKE_GAPS = 1.3;

/**
 * An id's groups: words standing within a letter's height of each other; for a member id further
 * apart, up to `runsOnGap`, only where it stands in three groups or more whose gaps are alike, as a
 * large, letter-spaced id's are (`ASN 174 323 622`, 1.17–1.37 of their heights apart), each group
 * after the first holding a digit. A lone wider gap is other print's: a plan's (`W711042220  PPO`).
 */
function idGroups(tokens: Token[], field: CardField): Token[] {
  const close = printedTogether(tokens, RUNS_ON_GAP);
  const wide = printedTogether(tokens, runsOnGap(field));
  if (wide.length === close.length) return close;
  const gaps = wide.slice(1).map((token, index) => {
    const previous = wide[index].word.box;
    return (token.word.box.left - rightOf(previous)) / Math.max(previous.height, token.word.box.height);
  });
  // Print after the first group with no digit is not a group of the id (`W711042220 01 SELF`).
  const groupsHoldDigits = wide.slice(1).every((token) => /\d/.test(token.word.text));
  return wide.length >= 3 && groupsHoldDigits && Math.max(...gaps) <= ALIKE_GAPS * Math.min(...gaps)
    ? wide
    : close;
}

/** The words from the first on that stand close together, as an id's groups and a name's words stand. */
function printedTogether(tokens: Token[], gap: number): Token[] {
  const together = tokens.slice(0, 1);
  for (const token of tokens.slice(1)) {
    if (!standTogether(together[together.length - 1].word.box, token.word.box, gap)) break;
    together.push(token);
  }
  return together;
}

function standTogether(left: Box, right: Box, gap: number): boolean {
  return right.left - rightOf(left) <= gap * Math.max(left.height, right.height);
}

/**
 * With no "Payer:" label, the card's name is its largest lettering printed above every certain label
 * of the front, when that line holds words only. Kept below the threshold of identifiers: the catalog match
 * decides which payer it is. A line is measured by its lettering, not its box: a reader may give a card's
 * edge or a rule as a stroke (`|`) on the line of a small label, and that stroke neither makes the label
 * tall nor makes it something other than a label; and by the height most of its words stand, not its
 * tallest word's (a speck of a desk's pattern read as a tall word, a label's box two lines tall).
 * `otherReadersLines`, the other reader's reading of the page (none for a page read once), give its
 * labels, and where it saw print.
 */
export function unlabelledPayerName(
  front: ReadPage,
  otherReadersLines: readonly ReadLine[],
): FoundValue | null {
  const letteringOf = (lines: readonly ReadLine[]) =>
    lines
      .map((line) => ({
        words: line.words.filter((word) => /[A-Za-z0-9]/.test(word.text)),
        printed: line.words,
        bracketed: OPENING_BRACKET.test(line.words[0]?.text ?? ''),
      }))
      .filter((line) => line.words.length > 0);
  // Labels are told on every word printed: a lone `#` makes `ID #` a label beyond doubt.
  const labelledAmong = (lines: ReturnType<typeof letteringOf>) =>
    lines.filter((line) => labelsIn(line.printed.flatMap(tokensOf)).some((label) => label.certain));
  const lettering = letteringOf(front.lines);
  const labelled = labelledAmong(lettering);
  const bottomOf = (line: { words: ReadWord[] }) =>
    Math.max(...line.words.map((word) => word.box.top + word.box.height));
  const heightOf = (line: { words: ReadWord[] }) => medianHeight(line.words);
  // A label either reader read beyond doubt bounds the title: one reader may misread the first label
  // (`\dentification Number`), and a copay's `PCP $25` beside it then stood above every label it read.
  const firstLabelTop = Math.min(
    front.height,
    ...[...labelled, ...labelledAmong(letteringOf(otherReadersLines))].flatMap((line) =>
      line.words.map((word) => word.box.top),
    ),
  );
  // On a page read twice, a line of lettering holds print both readers saw: Tesseract reads a photo's
  // desk beside a card small in its frame as marks taller than the title (`{ oN |`), where PP-OCR
  // finds no text.
  const otherWords = otherReadersLines.flatMap((line) => line.words);
  const seenByBoth = (line: { words: ReadWord[] }) =>
    otherWords.length === 0 ||
    line.words.some((word) => otherWords.some((other) => sameRegion(word.box, other.box)));
  const above = lettering.filter(
    (line) => bottomOf(line) <= firstLabelTop && !labelled.includes(line) && seenByBoth(line),
  );
  // A rule or a card's edge Tesseract read as letters gives a line of words it is all but sure are
  // none (`CRORE TVS PVIIATICE`, boxed taller than the title it crossed): such a line across print it
  // is surer of is set aside. Anywhere else it may be the title read badly, and leaves it unread.
  const unsure = (line: { words: ReadWord[] }) => !printedSurely(line.words);
  const boxOf = (line: { words: ReadWord[] }) => boxAround(line.words.map((word) => word.box));
  const candidates = above.filter(
    (line) =>
      !unsure(line) ||
      !above.some((other) => other !== line && !unsure(other) && boxesCross(boxOf(line), boxOf(other))),
  );
  // A plan's badge a reader gave a line of its own (`(PPO`, `[ POS Choice |`, its border read as marks)
  // may stand taller than the title: it gives way to a line on its own row, the title's it stands
  // beside, and to no other (a logo's name read `(Cigna` over the plan's `Open Access Plus`).
  const byHeight = [...candidates].sort((a, b) => heightOf(b) - heightOf(a));
  const badgeLine = (line: (typeof candidates)[number]) => line.bracketed || isPlanBadge(line.words);
  const rowOf = (line: (typeof candidates)[number]) => boxAround(line.words.map((word) => word.box));
  const sharesARow = (a: Box, b: Box) => verticallyWithin(a, b) || verticallyWithin(b, a);
  const tallestLine =
    byHeight[0] && badgeLine(byHeight[0])
      ? byHeight.find((line) => !badgeLine(line) && sharesARow(rowOf(line), rowOf(byHeight[0])))
      : byHeight[0];
  if (!tallestLine || unsure(tallestLine)) return null;
  // A reader may give a title's words as lines of their own (`Harbor` and `Mutual` on a dark band):
  // words of other lines on its row, standing as a title's words stand by it, are the title's too.
  const rowmates = candidates
    .filter((line) => line !== tallestLine && !badgeLine(line) && sharesARow(rowOf(line), rowOf(tallestLine)))
    .flatMap((line) => line.words);
  const titleRow = [...tallestLine.words];
  for (let grown = true; grown;) {
    const joining = rowmates.filter(
      (word) =>
        !titleRow.includes(word) &&
        titleRow.some(
          (each) =>
            standTogether(each.box, word.box, TITLE_SPACE) && standTogether(word.box, each.box, TITLE_SPACE),
        ),
    );
    titleRow.push(...joining);
    grown = joining.length > 0;
  }
  // The name is the line's words but a plan's badge at its end.
  const words = titleWords(titleRow);
  if (!words) return null;
  const value = organisationName(words.map((word) => word.text).join(' '));
  if (!value) return null;
  const confidence = Math.min(...words.map((word) => word.confidence)) * UNLABELLED_PAYER_FACTOR;
  return { value, confidence, words, page: front.number };
}

/**
 * A title's words stand no further apart than this many of their heights (a monospace or wide-set
 * title's space stood up to 1.1): a plan's badge of the title's size stood 1.8 and more off.
 */
const TITLE_SPACE = 1.5;
/**
 * Lettering less than this share of a title's height within a name's gap of it (`WORD_GAP`) is
 * smaller print that may be the title's own end (`of Texas` under `Blue Cross Blue Shield`). Nearer
 * than `TITLE_SPACE`, a size apart is a reader's box, not print: Tesseract boxed a photographed
 * `Meridian` at 2.5 times `CareFirst`.
 */
const TITLE_SIZE_SHARE = 0.7;
/** A word a reader began with a bracket: boxed print, a badge's border read as `(` or `[`. */
const OPENING_BRACKET = /^[([{]/;
/** Words of a plan's type and tier, which a badge after the payer's title prints (`HMO Select`). */
const PLAN_BADGE_WORDS: ReadonlySet<string> = new Set([
  'PPO',
  'HMO',
  'EPO',
  'POS',
  'HDHP',
  'HSA',
  'HRA',
  'PLAN',
  'WITH',
  'SELECT',
  'CHOICE',
  'PLUS',
  'GOLD',
  'SILVER',
  'BRONZE',
  'PLATINUM',
  'OPEN',
  'ACCESS',
  'NETWORK',
]);

/**
 * Words made only of a plan's type and tier, with a deductible's number among them (`POS Choice`,
 * `Gold 1500`): a badge, never a payer's name.
 */
function isPlanBadge(words: readonly ReadWord[]): boolean {
  return (
    words.some((word) => isPlanWord(word.text)) &&
    words.every((word) => isPlanWord(word.text) || /^\d+$/.test(word.text))
  );
}

function isPlanWord(text: string): boolean {
  return PLAN_BADGE_WORDS.has(text.replace(/[^A-Za-z]/g, '').toUpperCase());
}

/**
 * A title line's words without a plan's badge at its end or specks at either: the words standing as a
 * title's words do, in runs; runs at the end made only of a plan's words, or begun with a bracket, are
 * the badge. None where smaller print stands within a name's gap of the rest, which may be the
 * title's own end.
 */
function titleWords(words: ReadWord[]): ReadWord[] | null {
  const runs: ReadWord[][] = [];
  for (const next of [...words].sort((a, b) => a.box.left - b.box.left)) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1].box;
    const together =
      last !== undefined && standTogether(last, next.box, TITLE_SPACE) && !OPENING_BRACKET.test(next.text);
    if (together) run.push(next);
    else runs.push([next]);
  }
  const badge = (run: ReadWord[]) => OPENING_BRACKET.test(run[0].text) || isPlanBadge(run);
  // A card's corner or a speck far off, read as a mark or two (`4`, `ol`), is no print of the title;
  // two capitals are (`AZ Blue`, `Blue Cross NC`).
  const speck = (run: ReadWord[]) => {
    const print = run
      .map((word) => word.text)
      .join('')
      .replace(/[^A-Za-z0-9]/g, '');
    return print.length < 2 || (print.length === 2 && !/^[A-Z]{2}$/.test(print));
  };
  while (runs.length > 1 && (badge(runs[runs.length - 1]) || speck(runs[runs.length - 1]))) runs.pop();
  while (runs.length > 1 && speck(runs[0])) runs.shift();
  runs[runs.length - 1] = withoutTierAtEnd(runs[runs.length - 1]);
  // What is left of a badge alone (`Gold` of `Gold 1500`) names no payer.
  if (isPlanBadge(runs.flat())) return null;
  const smallerBeside = runs.slice(1).some((run, index) => {
    const [left, right] = [runs[index][runs[index].length - 1].box, run[0].box];
    return (
      standTogether(left, right, WORD_GAP) &&
      Math.min(left.height, right.height) < TITLE_SIZE_SHARE * Math.max(left.height, right.height)
    );
  });
  return smallerBeside ? null : runs.flat();
}

/**
 * A plan's type or metal tier: never the end of a payer's own name. Other plan words may be
 * (`Blue Care Network`, `Blue Plus`, `Community Health Choice`, `Tufts Health Plan`).
 */
const PLAN_TYPES_AND_TIERS: ReadonlySet<string> = new Set([
  'PPO',
  'HMO',
  'EPO',
  'POS',
  'HDHP',
  'HSA',
  'HRA',
  'GOLD',
  'SILVER',
  'BRONZE',
  'PLATINUM',
]);

/**
 * A title's words without a plan set close after them, within a title's space: the plan's words and
 * numbers at the run's end, where they hold a plan's type or tier, a deductible's number, or two plan
 * words (`Harbor Mutual Gold 1500`, `Cascade Benefit Partners Open Access`). One plan word alone
 * may end the payer's own name (`Blue Care Network`), and stays. The title keeps its first word.
 */
function withoutTierAtEnd(run: ReadWord[]): ReadWord[] {
  const inPlan = (word: ReadWord) =>
    /^\d+$/.test(word.text) || (isPlanWord(word.text) && !/^(PLAN|WITH)$/i.test(word.text));
  let kept = run.length;
  while (kept > 1 && inPlan(run[kept - 1])) kept -= 1;
  const tail = run.slice(kept);
  const planWords = tail.filter((word) => isPlanWord(word.text));
  const aPlan =
    planWords.length > 0 &&
    (planWords.length >= 2 ||
      tail.length > planWords.length ||
      planWords.some((word) => isPlanTypeOrTier(word.text)));
  return aPlan ? run.slice(0, kept) : run;
}

/** Whether a word names a plan's type or metal tier (`PPO`, `Gold`), never a payer's own. */
export function isPlanTypeOrTier(text: string): boolean {
  return PLAN_TYPES_AND_TIERS.has(text.replace(/[^A-Za-z]/g, '').toUpperCase());
}

/** Whether two boxes share some of their area. */
function boxesCross(a: Box, b: Box): boolean {
  return horizontalOverlap(a, b) > 0 && a.top < b.top + b.height && b.top < a.top + a.height;
}

/** Whether a reader was sure enough of the words to count them print (see `SURE_OF_PRINT`). */
function printedSurely(words: readonly ReadWord[]): boolean {
  return medianOf(words.map((word) => word.confidence)) >= SURE_OF_PRINT;
}

/**
 * The height most of a line's words stand: a reader may give one word a box as tall as two lines (a
 * label's `Name` in a table's row), which says nothing of the lettering's size.
 */
function medianHeight(words: readonly ReadWord[]): number {
  return medianOf(words.map((word) => word.box.height));
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * A line whose words' middle confidence is below this is no print: a title's words read at 0.3 and
 * more, marks Tesseract made of a rule at 0.07 and less.
 */
const SURE_OF_PRINT = 0.2;

/**
 * Words a card prints in capitals that are no person's name: its services, coverage and the like
 * (`CUSTOMER SERVICE`, `PRESCRIPTION DRUG COVERAGE`, `MEDICARE ADVANTAGE`).
 */
const NOT_NAME_WORDS: ReadonlySet<string> = new Set([
  'CUSTOMER',
  'SERVICE',
  'SERVICES',
  'PROVIDER',
  'PROVIDERS',
  'CALL',
  'PRESCRIPTION',
  'DRUG',
  'DRUGS',
  'COVERAGE',
  'MEDICARE',
  'MEDICAID',
  'ADVANTAGE',
  'MEDICAL',
  'DENTAL',
  'VISION',
  'BENEFIT',
  'BENEFITS',
  'EFFECTIVE',
  'DATE',
  'ISSUED',
  'ISSUER',
  'COPAY',
  'COPAYS',
  'OFFICE',
  'SPECIALIST',
  'EMERGENCY',
  'URGENT',
  'CARE',
  'PHARMACY',
  'PRIMARY',
  'DEPENDENT',
  'DEPENDENTS',
  'ER',
  'UC',
  'PCP',
  'SPC',
  'SPEC',
  'OV',
]);

/** A word of a person's name in capitals (`RIVERA`, `O'NEIL`, `SMITH-JONES`), or an initial (`M`, `M.`). */
const NAME_WORD = /^[A-Z](?:[A-Z'-]*[A-Z]|\.)?$/;

/** The runs of print on each line: words standing as a name's words stand (`WORD_GAP`). */
export function printedRuns(lines: readonly ReadLine[]): ReadWord[][] {
  const runs: ReadWord[][] = [];
  for (const line of lines) {
    const words = [...line.words].sort((a, b) => a.box.left - b.box.left);
    words.forEach((word, index) => {
      if (index > 0 && standTogether(words[index - 1].box, word.box, WORD_GAP))
        runs[runs.length - 1].push(word);
      else runs.push([word]);
    });
  }
  return runs;
}

/**
 * Whether a run is print a card sets about itself (`CUSTOMER SERVICE`, `Open Access`, copays): every
 * word of two letters or more is its wording, a plan's, or a label's.
 */
function cardsOwnWording(run: readonly ReadWord[]): boolean {
  return run
    .filter((word) => /[A-Za-z].*[A-Za-z]/.test(word.text))
    .every((word) => {
      const key = word.text.replace(/[^A-Za-z]/g, '').toUpperCase();
      return (
        NOT_NAME_WORDS.has(key) ||
        CARD_WORDING.has(key) ||
        PLAN_BADGE_WORDS.has(key) ||
        isLabelWord(word.text)
      );
    });
}

/**
 * Runs of print shaped as a member's name a card prints with no label (`DEVON M RIVERA` under the
 * payer's title): two to four words in capitals, two of them at least two letters long, none of
 * them a label's word, a plan's, or the card's own wording.
 */
export function nameShapedRuns(lines: readonly ReadLine[]): ReadWord[][] {
  return printedRuns(lines).filter((run) => {
    const keys = run.map((word) => word.text.replace(/[^A-Za-z]/g, '').toUpperCase());
    return (
      run.length >= 2 &&
      run.length <= 4 &&
      run.every((word) => NAME_WORD.test(word.text) && !isLabelWord(word.text)) &&
      keys.filter((key) => key.length >= 2).length >= 2 &&
      !keys.some((key) => NOT_NAME_WORDS.has(key) || CARD_WORDING.has(key) || PLAN_BADGE_WORDS.has(key))
    );
  });
}

/**
 * Whether a run of print may be a person's name however a reader gave it or the card set it (`Devon
 * Rivera`, `RIVERA JR.`, `RlVERA 01`): two words of two letters or more, in any case, not all the
 * card's own wording, beside no label, read with some certainty. A name printed so is not
 * name-shaped, and another run then must not pass for the one name on the card.
 */
export function mayBeAName(run: readonly ReadWord[]): boolean {
  return (
    run.filter((word) => /[A-Za-z].*[A-Za-z]/.test(word.text)).length >= 2 &&
    !run.some((word) => isLabelWord(word.text)) &&
    !cardsOwnWording(run) &&
    printedSurely(run)
  );
}
