import { boxAround } from '../documents/document-reading';
import type { Box, ReadPage, ReadWord } from '../documents/document-reading';
import { sameRegion } from './card-agreement';
import { CARD_FIELDS, identifierCore } from './card-fields';
import type { CardField, CardUnreadReason } from './card-fields';
import {
  CARD_FIELD_THRESHOLDS,
  IDENTIFIERS,
  medicareBeneficiaryId,
  sameReading,
  SHAPES,
} from './card-field-shapes';
import { keyOf, labelsOfLines, tokensOf } from './card-labels';
import { fieldsOnPage, mayBeAName, nameShapedRuns, printedRuns, unlabelledPayerName } from './card-layout';
import type { FoundValue } from './card-layout';
import { AGREED_FLOOR, checkAgainstOtherReader, linesOf, READERS, regionOf } from './card-readers';
import type { Candidate, Reader } from './card-readers';

/**
 * An insurance card read from its words and their positions (docs/decisions.md#insurance-cards).
 *
 * A card prints each value beside its label ("ID: W123") or below it, in columns; the front and back of
 * one card may come as two documents. Every value is checked against the shape its field allows, and
 * the look-alike characters of OCR (O/0, I/1, S/5, B/8) are resolved only where that shape leaves one
 * reading (a BIN is six digits, so an O in it is a 0). A field whose words the recogniser is not sure of
 * is reported as unread: the service never proceeds on a member id it is not sure of.
 *
 * Its parts: the labels (card-labels.ts), where values stand by them (card-layout.ts), each field's
 * shape (card-field-shapes.ts) and the two readers (card-readers.ts); here, each field is decided.
 */

/** A field's value as read: as its words gave it (FoundValue), and how the readers gave it. */
export interface ScannedValue extends FoundValue {
  /**
   * How many independent readings gave this value: 2 where the second reader read the same value in
   * the same place, 1 for a text layer, a typed card, or a reading made before there were two readers.
   */
  readers: 1 | 2;
  /** Placed by its shape and where it stands, its label unread (docs/decisions.md#card-readers). */
  inferred?: true;
}

export type ScannedCard = Record<CardField, ScannedValue | null>;

/** Two readings of one field that differ: shown to a reviewer, never used. */
export interface Disagreement {
  field: CardField;
  readings: [string, string];
}

/** A card's fields, why each unread one is, and where the two readers differed. */
export interface CardReading {
  card: ScannedCard;
  unreadReasons: Partial<Record<CardField, CardUnreadReason>>;
  disagreements: Disagreement[];
}

/** Fields only a card prints: without one of them, large lettering at the top is no payer's name. */
const IDENTIFYING_FIELDS: readonly CardField[] = [
  'member_id',
  'group_number',
  'rx_bin',
  'rx_pcn',
  'rx_group',
  'medicare_beneficiary_id',
  'medicaid_id',
];

/** The fields of one card, read from the pages of its documents (front first, then back). */
export function readInsuranceCard(pages: readonly ReadPage[]): ScannedCard {
  return readCard(pages).card;
}

/**
 * The fields of one card, each decided from both readers' candidates (see `decide`): an identifier
 * read from OCR is used only where the second reader read the same value in the same place.
 */
export function readCard(pages: readonly ReadPage[]): CardReading {
  const candidates = new Map<CardField, Candidate[]>();
  const add = (field: CardField, candidate: Candidate) =>
    candidates.set(field, [...(candidates.get(field) ?? []), candidate]);
  pages.forEach((page, pageIndex) => {
    for (const reader of READERS) {
      for (const found of fieldsOnPage(linesOf(page, reader)))
        add(found.field, { ...found, pageIndex, reader });
    }
  });
  const reading: CardReading = { card: emptyCard(), unreadReasons: {}, disagreements: [] };
  const everyCandidate = [...candidates.values()].flat();
  const rejected = new Map<CardField, Rejection[]>(CARD_FIELDS.map((field) => [field, []]));
  for (const field of CARD_FIELDS)
    decide(reading, field, candidates.get(field) ?? [], pages, everyCandidate, rejected.get(field)!);
  if (!candidates.has('rx_bin')) inferBin(reading, pages, everyCandidate);
  resolveMedicareCard(reading);
  const identified = IDENTIFYING_FIELDS.some((field) => reading.card[field] !== null);
  // Where a label beyond doubt (`Payer:`) gave the payer's name, however it was decided, the largest
  // lettering is some other headline (`MEDICARE ADVANTAGE`), never the payer's name.
  const payerLabelled = (candidates.get('payer_name') ?? []).some((candidate) => candidate.labelCertain);
  if (!reading.card.payer_name && !payerLabelled && identified && pages[0]) {
    // Which line is largest is measured on the first reader's lines, whose boxes hold the letters; the
    // second reader's boxes carry a margin that grows with their width. Its words are then read by both.
    const value = unlabelledPayerName(linesOf(pages[0], 'first'), linesOf(pages[0], 'second').lines);
    if (value)
      decide(
        reading,
        'payer_name',
        [{ field: 'payer_name', value, pageIndex: 0, reader: 'first', labelCertain: false }],
        pages,
        everyCandidate,
        rejected.get('payer_name')!,
      );
  }
  // A payer's name a label gave, or may have given (`Payer Harbor Mutual`), leaves the largest
  // lettering unplaced: a logo's name in capitals (`BLUE CROSS`) would then be a name's shape no rule
  // sets apart.
  if (!candidates.has('member_name') && identified && !candidates.has('payer_name'))
    inferMemberName(reading, pages, everyCandidate);
  blameGlare(reading, pages, everyCandidate);
  // A field another candidate gave with both readers agreeing is read: its rejected readings are not a disagreement.
  reading.disagreements = reading.disagreements.filter(
    (disagreement) => reading.card[disagreement.field] === null,
  );
  return reading;
}

/** How far from its label, in the label's heights, a value beside it or below it may stand. */
const VALUE_REACH_ACROSS = 12;
const VALUE_REACH_DOWN = 2.5;

/**
 * An unread field whose label, where a value would stand by it, or whose value lies under a patch of
 * glare is unread for the glare: the reviewer then asks for a photo without it, not for a better
 * card. Fields with neither a label nor a value found say nothing of where they are, and keep their
 * reason.
 */
function blameGlare(
  reading: CardReading,
  pages: readonly ReadPage[],
  candidates: readonly Candidate[],
): void {
  const glared = (pageIndex: number, box: Box) =>
    (pages[pageIndex]?.glare ?? []).some((patch) => overlapping(patch, box));
  const places: Array<{ field: CardField; pageIndex: number; box: Box }> = candidates.map((candidate) => ({
    field: candidate.field,
    pageIndex: candidate.pageIndex,
    box: regionOf(candidate),
  }));
  pages.forEach((page, pageIndex) => {
    if (!page.glare?.length) return;
    for (const reader of READERS) {
      const lines = linesOf(page, reader).lines.map((line) => line.words.flatMap(tokensOf));
      for (const labels of labelsOfLines(lines)) {
        for (const label of labels) {
          if (!label.field) continue;
          const { left, top, height } = label.box;
          places.push({
            field: label.field,
            pageIndex,
            box: { left, top, width: VALUE_REACH_ACROSS * height, height: VALUE_REACH_DOWN * height },
          });
        }
      }
    }
  });
  for (const field of Object.keys(reading.unreadReasons) as CardField[]) {
    if (places.some((place) => place.field === field && glared(place.pageIndex, place.box))) {
      reading.unreadReasons[field] = 'glare';
    }
  }
}

function overlapping(a: Box, b: Box): boolean {
  return (
    a.left < b.left + b.width &&
    b.left < a.left + a.width &&
    a.top < b.top + b.height &&
    b.top < a.top + a.height
  );
}

/** Words that say a card's pharmacy block is near, even where its BIN's own label was not read. */
const PHARMACY_WORDS: ReadonlySet<string> = new Set([
  'RXPCN',
  'PCN',
  'RXGRP',
  'RXGROUP',
  'PHARMACY',
  'PHARMACIST',
  'RXBIN',
  'BIN',
]);

/**
 * An RxBIN whose label neither reader read: the one six-digit number printed alone on a card that shows
 * a pharmacy block (a word such as `RxPCN`, `PCN`, `RxGRP`, `Pharmacy`), and only where both readers
 * read it alike there. Two such numbers leave it unread: nothing then says which is the BIN.
 */
function inferBin(
  reading: CardReading,
  pages: readonly ReadPage[],
  everyCandidate: readonly Candidate[],
): void {
  // Print either reader took for a labelled value (a group number of six digits) is never the BIN.
  const labelled = everyCandidate.map((candidate) => ({
    pageIndex: candidate.pageIndex,
    box: regionOf(candidate),
  }));
  const unlabelledSixDigits = (pageIndex: number, reader: Reader): Candidate[] =>
    linesOf(pages[pageIndex], reader)
      .lines.flatMap((line) => line.words)
      .filter((word) => /^\d{6}$/.test(identifierCore(word.text)))
      .filter(
        (word) => !labelled.some((other) => other.pageIndex === pageIndex && sameRegion(other.box, word.box)),
      )
      .map((word) => ({
        field: 'rx_bin' as const,
        labelCertain: false,
        value: {
          value: identifierCore(word.text),
          confidence: word.confidence,
          words: [word],
          page: pages[pageIndex].number,
        },
        pageIndex,
        reader,
      }));
  const showsPharmacy = (page: ReadPage) =>
    READERS.some((reader) =>
      linesOf(page, reader).lines.some((line) =>
        line.words.some((word) => PHARMACY_WORDS.has(keyOf(word.text.toUpperCase()))),
      ),
    );
  const found = pages.flatMap((page, pageIndex) =>
    page.second !== undefined && showsPharmacy(page)
      ? READERS.map((reader) => unlabelledSixDigits(pageIndex, reader))
      : [],
  );
  // Each reader must see exactly one such number, and the same one.
  if (found.length === 0 || found.some((numbers) => numbers.length !== 1)) return;
  const [candidate] = found[0];
  if (found.some(([other]) => other.value.value !== candidate.value.value)) return;
  const verdict = checkAgainstOtherReader(candidate, pages[candidate.pageIndex], everyCandidate);
  if (verdict.kind !== 'agreed' || verdict.confidence < AGREED_FLOOR) return;
  reading.card.rx_bin = { ...candidate.value, confidence: verdict.confidence, readers: 2, inferred: true };
  delete reading.unreadReasons.rx_bin;
}

/**
 * A member's name printed with no label, as many cards print it under the payer's title: the one run
 * of print shaped as a name (`nameShapedRuns`) on the front that is neither the payer's title, as
 * read, nor print either reader took for a labelled value, on a card where neither reader read a
 * name's label; and only where both readers read it alike there. Any other print either reader
 * gave that may be a name (`mayBeAName`) leaves it unread: nothing then says which is the member's.
 * With the payer's title unread, nothing says which line it is, and the name stays unread too; so it
 * does where a payer's label was read.
 */
function inferMemberName(
  reading: CardReading,
  pages: readonly ReadPage[],
  everyCandidate: readonly Candidate[],
): void {
  const front = pages[0];
  const payerWords = reading.card.payer_name?.words ?? [];
  if (front?.second === undefined || payerWords.length === 0) return;
  const nameLabelled = READERS.some((reader) =>
    labelsOfLines(linesOf(front, reader).lines.map((line) => line.words.flatMap(tokensOf)))
      .flat()
      .some((label) => label.field === 'member_name'),
  );
  if (nameLabelled) return;
  const taken = [
    ...everyCandidate.filter((candidate) => candidate.pageIndex === 0).map(regionOf),
    boxAround(payerWords.map((word) => word.box)),
  ];
  const regionOfRun = (run: readonly ReadWord[]) => boxAround(run.map((word) => word.box));
  const free = (run: readonly ReadWord[]) =>
    !run.some((word) => taken.some((box) => sameRegion(word.box, box)));
  const ownRuns = nameShapedRuns(linesOf(front, 'first').lines).filter(free);
  if (ownRuns.length !== 1) return;
  const [run] = ownRuns;
  // Any other print either reader gave that may be a name, shaped as one or not (`Devon Rivera`, a
  // name in small letters beside `REFERRAL REQUIRED`), leaves nothing to say which is the member's.
  // The second reader may give the name itself in mixed case (`DEvOn m rIvera`): it stands in its place.
  const contenders = READERS.flatMap((reader) => printedRuns(linesOf(front, reader).lines))
    .filter(free)
    .filter(mayBeAName);
  if (contenders.some((other) => !sameRegion(regionOfRun(other), regionOfRun(run)))) return;
  const value = SHAPES.member_name.normalise(run.map((word) => word.text).join(' '));
  if (!value) return;
  const candidate: Candidate = {
    field: 'member_name',
    labelCertain: false,
    value: {
      value,
      confidence: Math.min(...run.map((word) => word.confidence)),
      words: run,
      page: front.number,
    },
    pageIndex: 0,
    reader: 'first',
  };
  const verdict = checkAgainstOtherReader(candidate, front, everyCandidate);
  if (verdict.kind !== 'agreed' || verdict.confidence < AGREED_FLOOR) return;
  reading.card.member_name = {
    ...candidate.value,
    value: verdict.value ?? value,
    confidence: verdict.confidence,
    readers: 2,
    inferred: true,
  };
  delete reading.unreadReasons.member_name;
}

/** A candidate rejected: where it stood, its reading and the other reader's there, and its label. */
interface Rejection {
  pageIndex: number;
  box: Box;
  readings: [string, string];
  labelCertain: boolean;
}

/**
 * Names a card may print twice for two different bearers: a dependent's card names its subscriber
 * too, and a card may name its payer and an administrator or network under another payer label.
 */
const NAME_FIELDS: ReadonlySet<CardField> = new Set(['member_name', 'payer_name']);

/**
 * Decides one field from its candidates. A page read by one reader only (a text layer, a typed card,
 * a reading made before there were two readers) is taken as before, on its threshold. On an OCR page
 * read twice, each candidate is checked against the other
 * reader's words in its place: the same value there makes it agreed (readers 2); another value
 * there, or print running on from it, leaves the field unread; nothing there leaves a name or date to
 * its threshold (a name that may hide an initial unread) and an identifier unread. A name both read alike that may hide an initial run in
 * (`unsure`) is unread too, below its threshold.
 *
 * A value accepted so is still unread where the field stands elsewhere on the card with another
 * value: one accepted there too, or one rejected there that both readers read alike (`Member: JANE
 * DOE 02`, rejected for the print running on, beside `Subscriber: JOHN DOE`; or a name that may hide
 * an initial); for a name, also one rejected under a label beyond doubt whose either reading is a
 * name (`Member: JANE D0E`, one reader misreading it), unless the other reading is the accepted value
 * with a letter misread. Nothing then says which is the field's. Other rejections say nothing of the value:
 * most are a label or a speck taken for one. `rejected` holds the field's rejections across calls, so
 * a payer name taken from the largest lettering is held to them too.
 */
function decide(
  reading: CardReading,
  field: CardField,
  candidates: Candidate[],
  pages: readonly ReadPage[],
  everyCandidate: readonly Candidate[],
  rejected: Rejection[],
): void {
  const threshold = CARD_FIELD_THRESHOLDS[field];
  const ranked = [...candidates].sort((a, b) => b.value.confidence - a.value.confidence);
  let reason: CardUnreadReason = ranked.length > 0 ? 'below_threshold' : 'not_found';
  const accepted: Array<{ candidate: Candidate; value: ScannedValue }> = [];
  const aloneAccepted: Array<{ candidate: Candidate; value: ScannedValue }> = [];
  for (const candidate of ranked) {
    const page = pages[candidate.pageIndex];
    if (page.second === undefined) {
      if (candidate.value.confidence >= threshold)
        accepted.push({ candidate, value: { ...candidate.value, readers: 1 } });
      continue;
    }
    const verdict = checkAgainstOtherReader(candidate, page, everyCandidate);
    if (verdict.kind === 'agreed' && verdict.confidence >= AGREED_FLOOR) {
      const value = verdict.value ?? candidate.value.value;
      accepted.push({
        candidate,
        value: { ...candidate.value, value, confidence: verdict.confidence, readers: 2 },
      });
    } else if (verdict.kind === 'disagree') {
      reason = 'readers_disagree';
      rejected.push({
        pageIndex: candidate.pageIndex,
        box: regionOf(candidate),
        readings: [candidate.value.value, verdict.other],
        labelCertain: candidate.labelCertain,
      });
      if (!reading.disagreements.some((known) => known.field === field)) {
        reading.disagreements.push({ field, readings: [candidate.value.value, verdict.other] });
      }
    } else if (verdict.kind === 'unsure') {
      // A name both read alike that may hide an initial still stands there, whatever it reads.
      rejected.push({
        pageIndex: candidate.pageIndex,
        box: regionOf(candidate),
        readings: [candidate.value.value, candidate.value.value],
        labelCertain: candidate.labelCertain,
      });
    } else if (
      verdict.kind === 'alone' &&
      !IDENTIFIERS.has(field) &&
      candidate.value.confidence >= threshold
    ) {
      aloneAccepted.push({ candidate, value: { ...candidate.value, readers: 1 } });
    }
  }
  const [first] = accepted.length > 0 ? accepted : aloneAccepted;
  let chosen: ScannedValue | null = first?.value ?? null;
  if (first) {
    const elsewhere = (pageIndex: number, box: Box) =>
      pageIndex !== first.candidate.pageIndex || !sameRegion(box, regionOf(first.candidate));
    const readsSo = (text: string) => sameReading(field, text, first.value.value);
    const anotherValue = (rejection: Rejection) => {
      const [own, other] = rejection.readings;
      if (sameReading(field, own, other)) return !readsSo(own);
      // One reader misread a letter of the accepted value printed there too (`JANE DOF`).
      if (own.length === other.length && (readsSo(own) || readsSo(other))) return false;
      const isValue = (text: string) => SHAPES[field].normalise(text) !== null && !readsSo(text);
      return NAME_FIELDS.has(field) && rejection.labelCertain && (isValue(own) || isValue(other));
    };
    const contradicted =
      [...accepted, ...aloneAccepted].some(
        (other) =>
          elsewhere(other.candidate.pageIndex, regionOf(other.candidate)) && !readsSo(other.value.value),
      ) ||
      rejected.some((rejection) => elsewhere(rejection.pageIndex, rejection.box) && anotherValue(rejection));
    if (contradicted) {
      chosen = null;
      reason = 'readers_disagree';
    }
  }
  reading.card[field] = chosen;
  if (chosen) delete reading.unreadReasons[field];
  else reading.unreadReasons[field] = reason;
}

/** On a Medicare card the "Medicare Number" is the MBI; a member id that has its shape is one too. */
function resolveMedicareCard(reading: CardReading): void {
  const id = reading.card.member_id;
  if (!reading.card.medicare_beneficiary_id && id) {
    const mbi = medicareBeneficiaryId(id.value);
    if (mbi) {
      reading.card.medicare_beneficiary_id = { ...id, value: mbi };
      delete reading.unreadReasons.medicare_beneficiary_id;
    }
  }
}

function emptyCard(): ScannedCard {
  return Object.fromEntries(CARD_FIELDS.map((field) => [field, null])) as ScannedCard;
}
