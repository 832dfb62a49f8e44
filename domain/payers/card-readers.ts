import { boxAround } from '../documents/document-reading';
import type { Box, ReadLine, ReadPage, ReadWord } from '../documents/document-reading';
import {
  horizontalOverlap,
  joinedAtDashes,
  reachesAcross,
  runsOn,
  sameRegion,
  splitAfterLabel,
  wordsAcross,
  wordsInRegion,
  wrapsBelow,
} from './card-agreement';
import { FIELD_KIND, IDENTIFIERS, sameReading, SHAPES } from './card-field-shapes';
import { afterRunInLabel, isLabelWord, labelsOfLines, tokensOf } from './card-labels';
import type { CardField } from './card-fields';
import { isPlanTypeOrTier } from './card-layout';
import type { FoundField } from './card-layout';

/**
 * A card's two readers (docs/decisions.md#card-readers): a page as each one saw it, and whether the
 * other reader read a candidate's value alike in its place.
 */

/** The first reader is Tesseract's page; the second, the detector's lines read by PP-OCR. */
export type Reader = 'first' | 'second';
export const READERS: readonly Reader[] = ['first', 'second'];

export interface Candidate extends FoundField {
  pageIndex: number;
  reader: Reader;
}

/** A page as one reader saw it: the second reader's lines in place of the first's. */
export function linesOf(page: ReadPage, reader: Reader): ReadPage {
  const lines = reader === 'first' ? page.lines : (page.second ?? []);
  return {
    ...page,
    lines: joinedAtDashes(lines.map((line) => ({ ...line, words: line.words.flatMap(splitAfterLabel) }))),
  };
}

/** Two agreeing readings are used unless both are this unsure: agreement, not one engine's confidence, decides. */
export const AGREED_FLOOR = 0.5;

export type Verdict =
  /** `value`, where given, is the better of the two readings, used in place of the candidate's. */
  | { kind: 'agreed'; confidence: number; value?: string }
  | { kind: 'disagree'; other: string }
  /** Both read it alike, but the print may hold what neither could see (a space run out). */
  | { kind: 'unsure' }
  | { kind: 'alone' };

export function checkAgainstOtherReader(
  candidate: Candidate,
  page: ReadPage,
  everyCandidate: readonly Candidate[],
): Verdict {
  const own = linesOf(page, candidate.reader).lines;
  const other = linesOf(page, candidate.reader === 'first' ? 'second' : 'first').lines;
  const region = regionOf(candidate);
  const inside = wordsInRegion(other, region);
  const there =
    inside.length > 0 ? inside : wordsAcross(other, region).filter((word) => endsWith(word.box, region));
  const field = candidate.field;
  // The same print labelled as another field by the other reader: one of them misread a label
  // (`GR0UP ID:` read as `ID:`), and nothing says which.
  const otherwise = everyCandidate.find(
    (found) =>
      found.reader !== candidate.reader &&
      found.pageIndex === candidate.pageIndex &&
      FIELD_KIND[found.field] !== FIELD_KIND[field] &&
      sameRegion(regionOf(found), region),
  );
  if (otherwise) return { kind: 'disagree', other: `${otherwise.value.value} (${otherwise.field})` };
  const identifier = IDENTIFIERS.has(field);
  // Another field's value beside this one is a table's next cell, not this value's lost part.
  const otherValues = everyCandidate
    .filter((found) => found.pageIndex === candidate.pageIndex && found.field !== field)
    .map(regionOf)
    .filter((box) => !sameRegion(box, region));
  // A name's own words may be label words (`Insurance`, `Health`): beside a name, only a word that
  // ends as a label does (`ID:`, `Group #`) is one, or a word where either reader found a label beyond
  // doubt, or one of the name's own field (`Subscriber;`, its colon misread), clear of the name or a
  // label word itself (`ENROLLEE` reaching over the name's start in a tilted photo).
  const markedLabel = (word: ReadWord) => (identifier ? isLabelWord(word.text) : /[:#]$/.test(word.text));
  let labelBoxes: Box[] | undefined;
  const whereLabelled = (word: ReadWord) =>
    !identifier &&
    (horizontalOverlap(word.box, region) === 0 || isLabelWord(word.text)) &&
    (labelBoxes ??= [...labelBoxesOf(own, field), ...labelBoxesOf(other, field)]).some((box) =>
      sameRegion(word.box, box),
    );
  // A label either reader read stands apart in the other's misreading of it too (`RXxGrp`), and so
  // does a word without a digit where either read this field's own label (`EEE`, `Rx’CN` where the
  // other read `BIN`, `RxPCN`): a value's lost part would stand beside that label, not in its place.
  const labels = [...own, ...other].flatMap((line) => line.words).filter(markedLabel);
  let ownLabelBoxes: Box[] | undefined;
  const inOwnLabelsPlace = (word: ReadWord) =>
    identifier &&
    !/\d/.test(word.text) &&
    (ownLabelBoxes ??= [...labelBoxesOf(own, field, true), ...labelBoxesOf(other, field, true)]).some((box) =>
      sameRegion(word.box, box),
    );
  // A plan's type or tier printed close after the payer's title (`Harbor Mutual Gold 1500`) is no part
  // of it; other plan words may be (`Blue Care Network`).
  const standsApart = (word: ReadWord) =>
    markedLabel(word) ||
    (field === 'payer_name' && isPlanTypeOrTier(word.text)) ||
    labels.some((label) => misreadLabel(word, label)) ||
    inOwnLabelsPlace(word) ||
    otherValues.some((box) => sameRegion(word.box, box)) ||
    whereLabelled(word);
  // On the value's line, the field's own label run into the value (`RxGRPRX1478`), ending where the
  // value ends, is the value read again with its label, as Tesseract reads a line twice.
  const besideValue = (word: ReadWord) =>
    standsApart(word) ||
    (reachesAcross(word.box, region) &&
      endsWith(word.box, region) &&
      labelRunInto(field, word, candidate.value.value));
  // A speck is told from a lost letter only where no glare may have cut a letter short.
  const specksTellable = !page.glare?.length;
  // A name cut short is as wrong as an id (`Prairie State` where the other reader read `Insurance` on).
  // The other reader seeing a label where this one saw an id: one of them took a label for it.
  if (
    runsOn(own, region, field, besideValue, specksTellable ? region : undefined) ||
    runsOn(
      other,
      region,
      field,
      besideValue,
      specksTellable && there.length > 0 ? boxAround(there.map((word) => word.box)) : undefined,
    ) ||
    (identifier && there.some((word) => isLabelWord(word.text)))
  ) {
    return { kind: 'disagree', other: wordsText(there) };
  }
  if (identifier && (wrapsBelow(own, region, standsApart) || wrapsBelow(other, region, standsApart)))
    return { kind: 'unsure' };
  if (there.length === 0)
    return nameMayRunIn(field, candidate.value.value) || initialRunInByCase(field, candidate.value.words)
      ? { kind: 'unsure' }
      : { kind: 'alone' };
  const shape = SHAPES[field];
  const joined = there.map((word) => word.text).join(identifier ? '' : ' ');
  const otherValue = shape.normalise(joined);
  const confidence = () =>
    Math.max(candidate.value.confidence, Math.min(...there.map((word) => word.confidence)));
  if (otherValue !== null && sameReading(field, otherValue, candidate.value.value)) {
    if (
      field === 'member_name' &&
      (mayHideAnInitial(candidate.value.value) ||
        initialRunInByCase(field, [...candidate.value.words, ...there]))
    )
      return { kind: 'unsure' };
    return { kind: 'agreed', confidence: confidence() };
  }
  // The other reader ran the field's own label into this value: it read the value alike.
  if (there.length === 1 && labelRunInto(field, there[0], candidate.value.value))
    return { kind: 'agreed', confidence: confidence() };
  const spaced = spacedAsFirstReaderRead(candidate, otherValue ?? joined, other, there);
  if (
    spaced !== null &&
    (mayHideAnInitial(spaced.name) || (!spaced.secondSpaced && mayLeadWithAnInitial(spaced.name)))
  )
    return { kind: 'unsure' };
  if (spaced !== null) return { kind: 'agreed', confidence: confidence(), value: spaced.name };
  return { kind: 'disagree', other: otherValue ?? joined };
}

/**
 * Of two readings of a name that differ only in spaces the second reader left out (`PRIYAMORENO` for
 * `PRIYA MORENO`, `ANNAA RIVERA` for `ANNA A RIVERA`), the first reader's: PP-OCR drops the space between
 * words set close, while Tesseract splits words only at gaps the print has. Spaces only the second
 * reader saw are never taken, nor the first reader's where its words lie on more than one of its
 * lines: its line finding may part a word (`LINDQVI`, and `ST` a line of its own), nor where its words
 * stand closer than a space (`spacedApart`). `secondSpaced` says whether the second reader saw any
 * space of its own.
 */
function spacedAsFirstReaderRead(
  candidate: Candidate,
  otherReading: string,
  otherLines: readonly ReadLine[],
  otherWords: readonly ReadWord[],
): { name: string; secondSpaced: boolean } | null {
  if (candidate.field !== 'member_name') return null;
  if (candidate.reader === 'second' && !onOneLine(otherLines, otherWords)) return null;
  const [first, second] =
    candidate.reader === 'first'
      ? [candidate.value.value, otherReading]
      : [otherReading, candidate.value.value];
  const firstBreaks = wordBreaks(first);
  const secondBreaks = wordBreaks(second);
  if (firstBreaks.letters !== secondBreaks.letters || firstBreaks.at.size <= secondBreaks.at.size)
    return null;
  const firstWords = candidate.reader === 'first' ? candidate.value.words : otherWords;
  if (!spacedApart(firstWords, firstBreaks.letters.length, secondBreaks.at)) return null;
  const name = SHAPES.member_name.normalise(first);
  return name !== null && [...secondBreaks.at].every((at) => firstBreaks.at.has(at))
    ? { name, secondSpaced: /[\s,]/.test(second.trim()) }
    : null;
}

/**
 * A space between words stands at least this share of their height: Tesseract parted a photographed
 * `DEVON` as `D EV ON`, 0.11 of it between `EV` and `ON`. Beside an initial the space may be narrower
 * (`ANNA A`, whose capitals have no side bearing), so a one-letter word is not held to it.
 */
const SPACE_SHARE = 0.25;

/**
 * A space only the first reader saw stands at least this share of the narrowest space both readers saw
 * in the same name, as the first reader measured them: one name's spaces are set alike, while a gap
 * within a word of letters set wide (`SA MPLE`, tracked capitals) may pass `SPACE_SHARE` yet stays well
 * short of a space set in the same tracking. The share leaves room for a box edge off by a pixel or two.
 */
const SHARED_SPACE_SHARE = 0.7;

/**
 * Whether each space between a reader's words is a space's width (`SPACE_SHARE`) or stands beside an
 * initial, and each the second reader did not see (`secondBreaks`, after how many letters the second
 * reader's words end) stands at least `SHARED_SPACE_SHARE` of the narrowest it did. Where the words'
 * letters are not the `letters` counted (punctuation read apart), only the height is measured against.
 */
function spacedApart(
  words: readonly ReadWord[],
  letters: number,
  secondBreaks: ReadonlySet<number>,
): boolean {
  const sorted = [...words].sort((a, b) => a.box.left - b.box.left);
  const initial = (word: ReadWord) => word.text.replace(/[^A-Za-z]/g, '').length === 1;
  const lengths = sorted.map((word) => word.text.replace(/\s/g, '').length);
  const comparable = lengths.reduce((sum, length) => sum + length, 0) === letters;
  const ownSpaces: number[] = [];
  const sharedSpaces: number[] = [];
  let before = 0;
  for (const [index, word] of sorted.entries()) {
    const previous = sorted[index - 1];
    if (previous !== undefined && !initial(previous) && !initial(word)) {
      const share =
        (word.box.left - (previous.box.left + previous.box.width)) /
        Math.max(word.box.height, previous.box.height);
      (comparable && secondBreaks.has(before) ? sharedSpaces : ownSpaces).push(share);
    }
    before += lengths[index];
  }
  // With no space both saw, the height alone measures.
  const narrowestShared = sharedSpaces.length > 0 ? Math.min(...sharedSpaces) : 0;
  return (
    [...ownSpaces, ...sharedSpaces].every((share) => share >= SPACE_SHARE) &&
    ownSpaces.every((share) => share >= SHARED_SPACE_SHARE * narrowestShared)
  );
}

/**
 * A name with a word that ends in a doubled A, V, W or Y (`MARIAA NGUYEN`): those
 * capitals stand with no side bearing, so the space between a name ending in one and an initial of
 * the same letter (`MARIA A`) is narrower than the gaps between letters elsewhere, and both readers
 * run them together. Names rarely end so; a reading of one is not trusted.
 */
function mayHideAnInitial(name: string): boolean {
  // The last word too: a card may print the family name first (`NGUYEN, MARIA A`).
  return wordsOfName(name).some((word) => /([AVWY])\1$/.test(word));
}

/**
 * Whether a word after a name's first begins with A, V, W or Y and goes on (`TOMAS ARIVERA`): those
 * capitals stand with no side bearing, so the space after an initial of one of them is narrower than
 * the gaps between letters elsewhere, and Tesseract may run the initial into the next word
 * (`TOMAS A RIVERA`). Trusted only where the second reader saw a space of its own.
 */
function mayLeadWithAnInitial(name: string): boolean {
  return wordsOfName(name)
    .slice(1)
    .some((word) => /^[AVWY][A-Z]/.test(word));
}

/**
 * Whether a name read by one reader alone may hide an initial it ran in: with no second reading, no
 * space either reader saw vouches for its words, and PP-OCR drops a space between words set close as
 * Tesseract does after an A, V, W or Y (`MARIAA COHEN` for `MARIA A COHEN`, read by PP-OCR alone).
 */
function nameMayRunIn(field: CardField, name: string): boolean {
  return field === 'member_name' && (mayHideAnInitial(name) || mayLeadWithAnInitial(name));
}

/**
 * Whether a name printed in capitals and small letters was read with an initial run into the word
 * before it (`CaseyA Morgan` for `Casey A Morgan`, PP-OCR's reading of a photo): no name's word, begun
 * with a capital and going on in small letters, ends in a capital (PP-OCR's case in a name printed in
 * capitals, `LUiS`, `MoRGAN`, says nothing).
 */
function initialRunInByCase(field: CardField, words: readonly ReadWord[]): boolean {
  return (
    field === 'member_name' &&
    words.some((word) => /^[A-Z][a-z]+[A-Z]$/.test(word.text.replace(/[^A-Za-z]/g, '')))
  );
}

/** A name's words in capitals, a comma parting them as a space does (`NGUYEN, MARIA A`). */
function wordsOfName(name: string): string[] {
  return name
    .toUpperCase()
    .split(/[\s,]+/)
    .filter(Boolean);
}

/** Whether the words all lie on one of the lines. */
function onOneLine(lines: readonly ReadLine[], words: readonly ReadWord[]): boolean {
  return lines.filter((line) => line.words.some((word) => words.includes(word))).length <= 1;
}

/** A name's letters run together, and after how many of them each of its words ends. */
function wordBreaks(name: string): { letters: string; at: Set<number> } {
  const words = name.toUpperCase().split(/\s+/).filter(Boolean);
  const at = new Set<number>();
  let length = 0;
  for (const word of words.slice(0, -1)) at.add((length += word.length));
  return { letters: words.join(''), at };
}

/**
 * Where a reader found a label on its lines: one beyond doubt (`certain`), or one of the field's own,
 * which may be a word a name also holds (`Group` of `Group Health Cooperative` is no label of a payer);
 * with `fieldsOwnOnly`, the field's own labels alone.
 */
function labelBoxesOf(lines: readonly ReadLine[], field: CardField, fieldsOwnOnly = false): Box[] {
  return labelsOfLines(lines.map((line) => line.words.flatMap(tokensOf))).flatMap((labels) =>
    labels
      .filter((label) => label.field === field || (!fieldsOwnOnly && label.field !== null && label.certain))
      .map((label) => label.box),
  );
}

/**
 * Whether a box ends within half a letter of where a region ends: a word whose box runs on past the
 * value's end holds print its text does not (a reader that lost `EW` of `RXPCNANTEW` in a box that
 * reaches over them).
 */
function endsWith(box: Box, region: Box): boolean {
  return Math.abs(box.left + box.width - (region.left + region.width)) <= region.height / 2;
}

/** Whether a word is the field's own label run into the value itself (`RxGRPRX1478`), and no more. */
function labelRunInto(field: CardField, word: ReadWord, value: string): boolean {
  const after = afterRunInLabel(field, word.text);
  return after !== null && sameReading(field, after, value);
}

/** Digits OCR gives for the capitals of a label (`RxGr0up`). */
const LETTER_FOR_DIGIT: Readonly<Record<string, string>> = { 0: 'O', 1: 'I', 5: 'S', 8: 'B' };

/**
 * Whether a word is a reader's misreading of a label the other reader read in its place (`RXxGrp` for
 * `RxGrp`, `RxGr0up` for `RxGroup`): a letter at either end, look-alike digits only between, and one
 * letter added, dropped or changed at most. A word that begins or ends with a digit, or holds more
 * than that, may hold the value's own end (`9GRP`), and is never excused as the label.
 */
function misreadLabel(word: ReadWord, label: ReadWord): boolean {
  if (!sameRegion(word.box, label.box) || !/^[A-Za-z](?:[A-Za-z0158]*[A-Za-z])?$/.test(word.text))
    return false;
  const letters = word.text.toUpperCase().replace(/[0158]/g, (digit) => LETTER_FOR_DIGIT[digit]);
  return withinOneEdit(letters, label.text.replace(/[^A-Za-z]/g, '').toUpperCase());
}

/** Whether two strings are equal, or one insertion, deletion or substitution apart. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let [i, j, edits] = [0, 0, 0];
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      [i, j] = [i + 1, j + 1];
      continue;
    }
    edits += 1;
    if (edits > 1) return false;
    if (a.length > b.length) i += 1;
    else if (b.length > a.length) j += 1;
    else [i, j] = [i + 1, j + 1];
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

export function regionOf(candidate: Candidate): Box {
  return boxAround(candidate.value.words.map((word) => word.box));
}

function wordsText(words: readonly ReadWord[]): string {
  return words.map((word) => word.text).join(' ');
}
