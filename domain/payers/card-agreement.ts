import type { Box, ReadLine, ReadWord } from '../documents/document-reading';
import type { CardField } from './card-fields';

/**
 * Where two readers' words meet: the geometry the card reader compares them by. Both readers read
 * the same prepared image, so a value's box on one is where the other's reading of it must be.
 */

/** Share of a word's width that must lie inside a value's box for the word to be part of it. */
const INSIDE_SHARE = 0.5;
/**
 * Print no further than this many letter heights from a value continues it: the value was cut short.
 * As far as an id's groups may stand apart (card-layout.ts joins them by `runsOnGap`), so a group
 * left out is always seen; a table's next cell stands further off.
 */
export const RUNS_ON_GAP = 1.0;
/**
 * A member id's groups may stand further apart: a wallet card sets the id large and letter-spaced, and
 * `ASN 174 323 622` in a monospace face stood up to 1.28 of its heights apart, where the groups
 * joined at 1.0 returned `ASN174323`. A pharmacy line's next label or cell may stand within this of
 * its short codes, which is why only member ids reach so far.
 */
const MEMBER_ID_RUNS_ON_GAP = 1.4;
const GROUPED_IDS: ReadonlySet<CardField> = new Set(['member_id', 'medicaid_id', 'medicare_beneficiary_id']);

/** How far, in letter heights, a field's print continues it: an id's groups, or its lost end. */
export function runsOnGap(field: CardField): number {
  return GROUPED_IDS.has(field) ? MEMBER_ID_RUNS_ON_GAP : RUNS_ON_GAP;
}

/** Whether a box's middle lies within a region's height: it stands on the region's line. */
export function verticallyWithin(box: Box, region: Box): boolean {
  const centre = box.top + box.height / 2;
  return centre >= region.top && centre <= region.top + region.height;
}

/** How far across a box and a region overlap, 0 where they do not. */
export function horizontalOverlap(box: Box, region: Box): number {
  return Math.max(
    0,
    Math.min(box.left + box.width, region.left + region.width) - Math.max(box.left, region.left),
  );
}

/** The words of `lines` that lie (mostly) in the region, left to right. */
export function wordsInRegion(lines: readonly ReadLine[], region: Box): ReadWord[] {
  return lines
    .flatMap((line) => line.words)
    .filter(
      (word) =>
        verticallyWithin(word.box, region) &&
        horizontalOverlap(word.box, region) >= INSIDE_SHARE * Math.max(1, word.box.width),
    )
    .sort((a, b) => a.box.left - b.box.left);
}

/**
 * The words of `lines` on the region's line that reach past both its edges: the value read as part of
 * one wider word (`RXPCNANTEW`, a label run into it), where no word lies mostly inside it.
 */
export function wordsAcross(lines: readonly ReadLine[], region: Box): ReadWord[] {
  return lines
    .flatMap((line) => line.words)
    .filter((word) => verticallyWithin(word.box, region) && reachesAcross(word.box, region));
}

/** Whether a box reaches past both the left and the right edge of a region. */
export function reachesAcross(box: Box, region: Box): boolean {
  return box.left <= region.left && box.left + box.width >= region.left + region.width;
}

/**
 * Whether print on the region's line runs on from it, left or right, closer than a letter's height
 * and not a lone upright stroke (a rule's remnant), nor print that `standsApart` (a label, a table's
 * next cell), nor a speck (see SPECK_SHARE) against `value`, the value as the same reader boxed it
 * (with none, every word counts): an id read as `482119730` where the card prints `XJK 482 119 730`,
 * or a value whose end a reader lost. Such a value is never used.
 */
export function runsOn(
  lines: readonly ReadLine[],
  region: Box,
  field: CardField,
  standsApart: (word: ReadWord) => boolean,
  value?: Box,
): boolean {
  const gap = runsOnGap(field) * region.height;
  return lines
    .flatMap((line) => line.words)
    .some((word) => {
      if (!verticallyWithin(word.box, region)) return false;
      const overlap = horizontalOverlap(word.box, region);
      if (overlap >= INSIDE_SHARE * Math.max(1, word.box.width)) return false;
      if (standsApart(word) || !/[A-Za-z0-9]/.test(word.text) || RULE_REMNANT.test(word.text)) return false;
      if (value !== undefined && isSpeck(word.box, value)) return false;
      // A word straddling the value's edge, neither in it nor apart from it, is print running on.
      if (overlap > 0) return true;
      const before = region.left - (word.box.left + word.box.width);
      const after = word.box.left - (region.left + region.width);
      return (before >= 0 && before <= gap) || (after >= 0 && after <= gap);
    });
}

/**
 * Whether the line under the region begins, under the start of the value's block (its label, or the
 * value itself), with a group of digits that `standsApart` does not claim: a grouped id the card
 * wrapped where a group began (`MEC 847 899` over `484`), which both readers read alike, cut short.
 * Wrapped print starts again at its block's left; a stray digit further left (a photo's noise read as
 * `2`) is no part of it.
 */
export function wrapsBelow(
  lines: readonly ReadLine[],
  region: Box,
  standsApart: (word: ReadWord) => boolean,
): boolean {
  const bottom = region.top + region.height;
  const blockStart = startOfValueBlock(lines, region);
  return lines.some((line) => {
    const first = line.words.find((word) => /[A-Za-z0-9]/.test(word.text));
    return (
      first !== undefined &&
      startsWrap(first, { bottom, blockStart, height: region.height }) &&
      !standsApart(first)
    );
  });
}

/** Where the block of print holding the region's value begins on its line, or the region's left. */
function startOfValueBlock(lines: readonly ReadLine[], region: Box): number {
  for (const line of lines) {
    const index = line.words.findIndex(
      (word) => verticallyWithin(word.box, region) && horizontalOverlap(word.box, region) > 0,
    );
    if (index >= 0) return startOfBlock(line.words, index);
  }
  return region.left;
}

/**
 * The lines with each id the card wrapped after a dash joined again (`830-97-8752-` over `19`): the
 * part on one of the next lines is taken off it and put after the dash, in the first part's box, so
 * both readers' readings of the id stand in one place. A dash may also end what a crop edge or glare
 * left of an id, so the part is joined only where it has a wrap's place: it starts that line under
 * the start of the id's block (its label, or the id itself), and stands alone there, with no print
 * close after it (`1-800-555-0199 Member Services` is a phone line, not an id's end).
 */
export function joinedAtDashes(lines: readonly ReadLine[]): ReadLine[] {
  const joined = lines.map((line) => ({ ...line, words: [...line.words] }));
  joined.forEach((line, lineIndex) => {
    line.words = line.words.map((word, wordIndex) => {
      if (!/\d-$/.test(word.text)) return word;
      const blockStart = startOfBlock(line.words, wordIndex);
      const bottom = word.box.top + word.box.height;
      const next = joined.slice(lineIndex + 1, lineIndex + 1 + WRAP_LINES_AHEAD).find((other) => {
        const [first, after] = other.words;
        return (
          first !== undefined &&
          startsWrap(first, { bottom, blockStart, height: word.box.height }) &&
          (after === undefined || gapBetween(first, after) > BLOCK_GAP * word.box.height)
        );
      });
      if (!next) return word;
      const [rest] = next.words.splice(0, 1);
      return { ...word, text: word.text + rest.text, confidence: Math.min(word.confidence, rest.confidence) };
    });
  });
  return joined.filter((line) => line.words.length > 0);
}

/** Lines after an id's a wrapped part of it is looked for on: a reader may put a stray mark between. */
const WRAP_LINES_AHEAD = 2;
/** Words closer than this many letter heights are one block of print (a label and its value). */
const BLOCK_GAP = 2;

/** Where the block of print holding the line's word begins: the words before it set close to it. */
function startOfBlock(words: readonly ReadWord[], index: number): number {
  let start = index;
  while (start > 0 && gapBetween(words[start - 1], words[start]) <= BLOCK_GAP * words[start].box.height)
    start -= 1;
  return words[start].box.left;
}

function gapBetween(before: ReadWord, after: ReadWord): number {
  return after.box.left - (before.box.left + before.box.width);
}

/**
 * Whether a line's first word could be where an id's print wrapped to: digits just under the id's line
 * (its bottom), starting under the start of its block, as wrapped print starts again at its block's left.
 */
function startsWrap(first: ReadWord, above: { bottom: number; blockStart: number; height: number }): boolean {
  const { bottom, blockStart, height } = above;
  return (
    first.box.top + first.box.height / 2 > bottom &&
    first.box.top - bottom <= height &&
    first.box.left <= blockStart + height / 2 &&
    first.box.left + first.box.width > blockStart &&
    WRAPPED_GROUP.test(first.text)
  );
}

/** What a wrapped id's next part looks like: digits, in groups a dash may join. */
const WRAPPED_GROUP = /^-?\d+(?:-\d+)*-?$/;

/**
 * Print whose box stands less than this share of a value's height, both boxed by one reader, and
 * clear of the value's top and bottom lines (by EDGE_SHARE of its height) is no letter of it:
 * Tesseract gives a speck of a photo's ground, or a rule's end, as a word a few pixels tall (`BC` 2 px
 * high amid a BIN 51 px high). A value's lost part is printed at its size, and even a lower-case
 * letter stands half; what is left of a letter cut short still stands on the baseline or hangs from
 * the top. The readers' boxes are not compared: the detector's stand half again as tall as the letters
 * Tesseract boxes.
 */
const SPECK_SHARE = 0.35;
const EDGE_SHARE = 0.1;

function isSpeck(word: Box, value: Box): boolean {
  const margin = EDGE_SHARE * value.height;
  return (
    word.height < SPECK_SHARE * value.height &&
    word.top > value.top + margin &&
    word.top + word.height < value.top + value.height - margin
  );
}

/** One upright stroke, as a reader gives what is left of a table's rule beside a cell's value. */
const RULE_REMNANT = /^[|lI![\]]$/;

/** Whether two values sit in one place: on one line, each over half of the narrower's width. */
export function sameRegion(a: Box, b: Box): boolean {
  return (
    (verticallyWithin(a, b) || verticallyWithin(b, a)) &&
    horizontalOverlap(a, b) >= INSIDE_SHARE * Math.max(1, Math.min(a.width, b.width))
  );
}

/**
 * A word that runs a label into its value (`Number:0012345`, `ID#W123456789`), as a reader gives it
 * where the card prints little space after a colon, as two words: the label with its mark, and the
 * value, each with its share of the box by characters.
 */
export function splitAfterLabel(word: ReadWord): ReadWord[] {
  const mark = Math.max(word.text.indexOf(':'), word.text.indexOf('#'));
  if (mark <= 0 || mark === word.text.length - 1 || !/[A-Za-z0-9]/.test(word.text.slice(mark + 1)))
    return [word];
  const split = mark + 1;
  const labelWidth = Math.round((word.box.width * split) / word.text.length);
  return [
    { ...word, text: word.text.slice(0, split), box: { ...word.box, width: labelWidth } },
    {
      ...word,
      text: word.text.slice(split),
      box: { ...word.box, left: word.box.left + labelWidth, width: word.box.width - labelWidth },
    },
  ];
}
