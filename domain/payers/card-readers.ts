import { boxAround } from '../documents/document-reading';
import type { Box, ReadPage, ReadWord } from '../documents/document-reading';
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
  { kind: 'agreed'; confidence: number } | { kind: 'disagree'; other: string } | { kind: 'alone' };

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
  if (identifier && (runsOn(own, region, isLabelWord) || runsOn(other, region, isLabelWord))) {
    return { kind: 'disagree', other: wordsText(there) };
  }
  if (there.length === 0) return { kind: 'alone' };
  const shape = SHAPES[field];
  const joined = there.map((word) => word.text).join(identifier ? '' : ' ');
  const otherValue = shape.normalise(joined);
  if (otherValue !== null && sameReading(field, otherValue, candidate.value.value)) {
    const otherConfidence = Math.min(...there.map((word) => word.confidence));
    return { kind: 'agreed', confidence: Math.max(candidate.value.confidence, otherConfidence) };
  }
  return { kind: 'disagree', other: otherValue ?? joined };
}

export function regionOf(candidate: Candidate): Box {
  return boxAround(candidate.value.words.map((word) => word.box));
}

function wordsText(words: readonly ReadWord[]): string {
  return words.map((word) => word.text).join(' ');
}
