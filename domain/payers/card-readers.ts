import { boxAround } from '../documents/document-reading';
import type { Box, ReadPage, ReadWord } from '../documents/document-reading';
import type { CardField } from './card-fields';
import { runsOn, sameRegion, splitAfterLabel, wordsInRegion } from './card-agreement';
import { FIELD_KIND, IDENTIFIERS, sameReading, SHAPES } from './card-field-shapes';
import { isLabelWord } from './card-labels';
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
  return { ...page, lines: lines.map((line) => ({ ...line, words: line.words.flatMap(splitAfterLabel) })) };
}

/** Two agreeing readings are used unless both are this unsure: agreement, not one engine's confidence, decides. */
export const AGREED_FLOOR = 0.5;

export type Verdict =
  /** `value`, where given, is the better of the two readings, used in place of the candidate's. */
  | { kind: 'agreed'; confidence: number; value?: string }
  | { kind: 'disagree'; other: string }
  | { kind: 'alone' };

export function checkAgainstOtherReader(
  candidate: Candidate,
  page: ReadPage,
  everyCandidate: readonly Candidate[],
): Verdict {
  const own = linesOf(page, candidate.reader).lines;
  const other = linesOf(page, candidate.reader === 'first' ? 'second' : 'first').lines;
  const region = regionOf(candidate);
  const there = wordsInRegion(other, region);
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
  if (identifier) {
    // Another field's value beside this one is a table's next cell, not this value's lost part.
    const otherValues = everyCandidate
      .filter((found) => found.pageIndex === candidate.pageIndex && found.field !== field)
      .map(regionOf)
      .filter((box) => !sameRegion(box, region));
    const standsApart = (word: ReadWord) =>
      isLabelWord(word.text) || otherValues.some((box) => sameRegion(word.box, box));
    // The other reader seeing a label where this one saw a value: one of them took a label for it.
    if (
      runsOn(own, region, standsApart) ||
      runsOn(other, region, standsApart) ||
      there.some((word) => isLabelWord(word.text))
    ) {
      return { kind: 'disagree', other: wordsText(there) };
    }
  }
  if (there.length === 0) return { kind: 'alone' };
  const shape = SHAPES[field];
  const joined = there.map((word) => word.text).join(identifier ? '' : ' ');
  const otherValue = shape.normalise(joined);
  const confidence = () =>
    Math.max(candidate.value.confidence, Math.min(...there.map((word) => word.confidence)));
  if (otherValue !== null && sameReading(field, otherValue, candidate.value.value)) {
    return { kind: 'agreed', confidence: confidence() };
  }
  const spaced = otherValue === null ? null : withInitialSpaced(field, candidate.value.value, otherValue);
  if (spaced !== null) return { kind: 'agreed', confidence: confidence(), value: spaced };
  return { kind: 'disagree', other: otherValue ?? joined };
}

/**
 * Of two readings of a name that differ only where one reader ran a middle initial into the next or
 * last word (`ANNAA RIVERA` for `ANNA A RIVERA`), the one with the initial apart: the second reader
 * drops the space around a lone capital, while a word split by a gap it never had is not seen.
 */
function withInitialSpaced(field: CardField, a: string, b: string): string | null {
  if (field !== 'member_name') return null;
  const wordsOf = (text: string) => text.toUpperCase().split(/\s+/).filter(Boolean);
  const [spaced, glued] = wordsOf(a).length > wordsOf(b).length ? [a, b] : [b, a];
  const spacedWords = wordsOf(spaced);
  const gluedText = wordsOf(glued).join(' ');
  const joinsToGlued = spacedWords.some((word, index) => {
    if (word.length !== 1 || !/[A-Z]/.test(word)) return false;
    const joinedBefore = [
      ...spacedWords.slice(0, index - 1),
      spacedWords[index - 1] + word,
      ...spacedWords.slice(index + 1),
    ];
    const joinedAfter = [
      ...spacedWords.slice(0, index),
      word + spacedWords[index + 1],
      ...spacedWords.slice(index + 2),
    ];
    return (
      (index > 0 && joinedBefore.join(' ') === gluedText) ||
      (index + 1 < spacedWords.length && joinedAfter.join(' ') === gluedText)
    );
  });
  return joinsToGlued ? spaced : null;
}

export function regionOf(candidate: Candidate): Box {
  return boxAround(candidate.value.words.map((word) => word.box));
}

function wordsText(words: readonly ReadWord[]): string {
  return words.map((word) => word.text).join(' ');
}
