import { boxAround } from '../documents/document-reading';
import type { Box, ReadPage, ReadWord } from '../documents/document-reading';
import { CASE_FAILURE_CODE } from '../failures';
import { RUNS_ON_GAP, runsOn, sameRegion, splitAfterLabel, wordsInRegion } from './card-agreement';
import { CARD_FIELDS, identifierCore } from './card-fields';
import type { CardField, CardGap, CardUnreadReason } from './card-fields';
import type { ScannedCardFields } from './payer-connector';

/**
 * An insurance card read from its words and their positions (docs/decisions.md#insurance-cards).
 *
 * A card prints each value beside its label ("ID: W123") or below it, in columns; the front and back of
 * one card may come as two documents. Every value is checked against the shape its field allows, and
 * the look-alike characters of OCR (O/0, I/1, S/5, B/8) are resolved only where that shape leaves one
 * reading (a BIN is six digits, so an O in it is a 0). A field whose words the recogniser is not sure of
 * is reported as unread: the service never proceeds on a member id it is not sure of.
 */

export interface ScannedValue {
  value: string;
  /** 0–1: the least sure of the words it came from, lowered where the layout was a guess. */
  confidence: number;
  /** The words as the recogniser read them, with where they sit (for the reviewer's view). */
  words: ReadWord[];
  /** 1-based page of the document the value was read from. */
  page: number;
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

/**
 * Below these, a value is unread. Checked by calibration on generated cards the bench never scores
 * (seed 7; docs/documents.md): no wrong member id there was surer than 0.68, while right ones often
 * read at 0.80–0.85 (OCR is unsure of words no dictionary holds). Names and dates only inform, and ask
 * less.
 */
export const CARD_FIELD_THRESHOLDS: Readonly<Record<CardField, number>> = {
  payer_name: 0.6,
  plan_name: 0.6,
  member_name: 0.7,
  member_id: 0.8,
  group_number: 0.8,
  rx_bin: 0.8,
  rx_pcn: 0.8,
  rx_group: 0.8,
  client_name: 0.6,
  effective_date: 0.75,
  payer_id: 0.8,
  medicare_beneficiary_id: 0.8,
  medicaid_id: 0.8,
};

interface Token {
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
    'IDENTIFICATION NUMBER',
    'SUBSCRIBER ID',
    'ENROLLEE ID',
    'INSURED ID',
    'POLICY',
    'POLICY ID',
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
  ]),
  ...phrases('group_number', ['GROUP', 'GRP', 'GROUP NUMBER', 'GROUP ID', 'GROUP NO']),
  ...phrases('rx_bin', ['RXBIN', 'RX BIN', 'BIN']),
  ...phrases('rx_pcn', ['RXPCN', 'RX PCN', 'PCN']),
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
  'MEMBER',
  'NAME',
  'SUBSCRIBER',
  'RECIPIENT',
  'ENROLLEE',
  'BENEFICIARY',
  'INSURED',
  'POLICY',
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

/** What the words after a label must look like for each field, and how they become the value. */
interface FieldShape {
  /** How many words the value may take: ids take one word (or a dashed group), names several. */
  maxWords: number;
  normalise(text: string): string | null;
}

const ALNUM_ID = /^[A-Z0-9][A-Z0-9-]*$/;

const SHAPES: Readonly<Record<CardField, FieldShape>> = {
  member_id: { maxWords: 5, normalise: (text) => memberId(text) },
  medicaid_id: { maxWords: 5, normalise: (text) => memberId(text) },
  medicare_beneficiary_id: { maxWords: 3, normalise: (text) => medicareBeneficiaryId(text) },
  group_number: { maxWords: 3, normalise: (text) => identifier(text, 1, 20) },
  rx_bin: { maxWords: 1, normalise: (text) => digitsOnly(text, 6, 6) },
  rx_pcn: { maxWords: 1, normalise: (text) => identifier(text, 1, 10) },
  rx_group: { maxWords: 2, normalise: (text) => identifier(text, 1, 15) },
  payer_id: { maxWords: 1, normalise: (text) => identifier(text, 3, 10) },
  effective_date: { maxWords: 1, normalise: (text) => isoDate(text) },
  member_name: { maxWords: 5, normalise: (text) => personName(text) },
  payer_name: { maxWords: 6, normalise: (text) => organisationName(text) },
  plan_name: { maxWords: 6, normalise: (text) => organisationName(text) },
  client_name: { maxWords: 6, normalise: (text) => organisationName(text) },
};

/** A value found below its label (in a column) rather than beside it is a little less certain. */
const BELOW_LABEL_FACTOR = 0.97;
/** A payer name taken from the card's largest lettering, with no label, is a hint, not a reading. */
const UNLABELLED_PAYER_FACTOR = 0.75;

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
  for (const field of CARD_FIELDS) decide(reading, field, candidates.get(field) ?? [], pages, everyCandidate);
  if (!candidates.has('rx_bin')) inferBin(reading, pages, everyCandidate);
  resolveMedicareCard(reading);
  const identified = IDENTIFYING_FIELDS.some((field) => reading.card[field] !== null);
  if (!reading.card.payer_name && identified && pages[0]) {
    // Which line is largest is measured on the first reader's lines, whose boxes hold the letters; the
    // second reader's boxes carry a margin that grows with their width. Its words are then read by both.
    const value = unlabelledPayerName(linesOf(pages[0], 'first'));
    if (value)
      decide(
        reading,
        'payer_name',
        [{ field: 'payer_name', value, pageIndex: 0, reader: 'first' }],
        pages,
        everyCandidate,
      );
  }
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

/** The first reader is Tesseract's page; the second, the detector's lines read by PP-OCR. */
type Reader = 'first' | 'second';
const READERS: readonly Reader[] = ['first', 'second'];

interface Candidate extends FoundField {
  pageIndex: number;
  reader: Reader;
}

/** A page as one reader saw it: the second reader's lines in place of the first's. */
function linesOf(page: ReadPage, reader: Reader): ReadPage {
  const lines = reader === 'first' ? page.lines : (page.second ?? []);
  return { ...page, lines: lines.map((line) => ({ ...line, words: line.words.flatMap(splitAfterLabel) })) };
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

/** Identifiers are codes a wrong character changes the meaning of: only two agreeing readings give one. */
const IDENTIFIERS: ReadonlySet<CardField> = new Set([
  'member_id',
  'medicaid_id',
  'medicare_beneficiary_id',
  'group_number',
  'rx_bin',
  'rx_pcn',
  'rx_group',
  'payer_id',
]);
/** Two agreeing readings are used unless both are this unsure: agreement, not one engine's confidence, decides. */
const AGREED_FLOOR = 0.5;

type Verdict =
  { kind: 'agreed'; confidence: number } | { kind: 'disagree'; other: string } | { kind: 'alone' };

/**
 * Decides one field from its candidates. A page read by one reader only (a text layer, a typed card,
 * a reading made before there were two readers) is taken as before, on its threshold. On an OCR page
 * read twice, each candidate is checked against the other reader's words in its place: the same
 * value there makes it agreed (readers 2); another value there, or print running on from it, leaves
 * the field unread; nothing there leaves a name or date to its threshold and an identifier unread.
 */
function decide(
  reading: CardReading,
  field: CardField,
  candidates: Candidate[],
  pages: readonly ReadPage[],
  everyCandidate: readonly Candidate[],
): void {
  const threshold = CARD_FIELD_THRESHOLDS[field];
  const ranked = [...candidates].sort((a, b) => b.value.confidence - a.value.confidence);
  let reason: CardUnreadReason = ranked.length > 0 ? 'below_threshold' : 'not_found';
  let chosen: ScannedValue | null = null;
  for (const candidate of ranked) {
    const page = pages[candidate.pageIndex];
    if (page.second === undefined) {
      if (candidate.value.confidence >= threshold) {
        chosen = { ...candidate.value, readers: 1 };
        break;
      }
      continue;
    }
    const verdict = checkAgainstOtherReader(candidate, page, everyCandidate);
    if (verdict.kind === 'agreed' && verdict.confidence >= AGREED_FLOOR) {
      chosen = { ...candidate.value, confidence: verdict.confidence, readers: 2 };
      break;
    }
    if (verdict.kind === 'disagree') {
      reason = 'readers_disagree';
      if (!reading.disagreements.some((known) => known.field === field)) {
        reading.disagreements.push({ field, readings: [candidate.value.value, verdict.other] });
      }
    } else if (
      verdict.kind === 'alone' &&
      !IDENTIFIERS.has(field) &&
      candidate.value.confidence >= threshold
    ) {
      chosen ??= { ...candidate.value, readers: 1 };
    }
  }
  reading.card[field] = chosen;
  if (chosen) delete reading.unreadReasons[field];
  else reading.unreadReasons[field] = reason;
}

function checkAgainstOtherReader(
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

function regionOf(candidate: Candidate): Box {
  return boxAround(candidate.value.words.map((word) => word.box));
}

/** Fields one print may be read as without the readers disagreeing: a Medicare or Medicaid number is a member id. */
const FIELD_KIND: Readonly<Record<CardField, string>> = {
  ...(Object.fromEntries(CARD_FIELDS.map((field) => [field, field])) as Record<CardField, string>),
  medicaid_id: 'member_id',
  medicare_beneficiary_id: 'member_id',
};

function wordsText(words: readonly ReadWord[]): string {
  return words.map((word) => word.text).join(' ');
}

/**
 * Codes and dates are compared on every letter and digit; names on their letters, digits and the
 * spaces between them, not their punctuation (a reader may drop a period), so `JORDANA RIVERA` never
 * agrees with `JORDAN A RIVERA`, nor `Prairie State 3 Insurance` with `Prairie State Insurance`.
 */
function sameReading(field: CardField, a: string, b: string): boolean {
  const compared = (text: string) =>
    IDENTIFIERS.has(field) || field === 'effective_date'
      ? text.toUpperCase().replace(/[^A-Z0-9]/g, '')
      : text
          .toUpperCase()
          .replace(/[^A-Z0-9\s]/g, '')
          .replace(/\s+/g, ' ')
          .trim();
  return compared(a) === compared(b);
}

/** Whether a word is part of a label (`ID:`, `Member`, `#`) rather than of a value. */
function isLabelWord(text: string): boolean {
  const key = keyOf(text.toUpperCase());
  return /[:#]$/.test(text) || LABEL_MARKERS.has(key) || LABEL_WORDS.has(key);
}

const LABEL_WORDS: ReadonlySet<string> = new Set(LABELS.flatMap((label) => label.phrase));

/** The fields a case may use, those read with confidence, and the names of the card fields that were not. */
export function scannedCardFields(card: ScannedCard, text: string, documents: string[]): ScannedCardFields {
  const value = (field: CardField) => card[field]?.value;
  return {
    payer_name: value('payer_name'),
    plan_name: value('plan_name'),
    member_id: value('member_id') ?? value('medicare_beneficiary_id') ?? value('medicaid_id'),
    group_number: value('group_number'),
    rx_bin: value('rx_bin'),
    rx_pcn: value('rx_pcn'),
    rx_group: value('rx_group'),
    unread: (['payer_name', 'member_id', 'group_number', 'rx_bin', 'rx_pcn'] as const).filter(
      (field) => card[field] === null,
    ),
    text,
    documents,
  };
}

/**
 * Why a card read from images or PDFs cannot identify the member, or null when it can: the service
 * never goes on with a member id it is not sure of. The message names the documents and the fields not
 * read, and says what the provider can send instead.
 */
export function unreadCardGap(card: ScannedCardFields): CardGap | null {
  if (card.member_id) return null;
  const documents = card.documents.join(', ');
  const identified = card.rx_bin ?? card.rx_pcn ?? card.group_number ?? card.payer_name;
  if (identified || printsCardLabels(card.text)) {
    return {
      code: CASE_FAILURE_CODE.insuranceCardMemberIdUnreadable,
      message:
        `The member ID on the insurance card (${documents}) could not be read with confidence ` +
        `(unread: ${card.unread.join(', ')}). ${CARD_ADVICE}`,
    };
  }
  if (wordCount(card.text) >= NOT_A_CARD_MIN_WORDS) {
    return {
      code: CASE_FAILURE_CODE.insuranceDocumentNotACard,
      message:
        `The insurance documents (${documents}) read clearly but show no insurance card field: they are ` +
        `not insurance cards. Send insurance_content, or an image of the card itself.`,
    };
  }
  return {
    code: CASE_FAILURE_CODE.insuranceCardUnreadable,
    message:
      `No insurance card field could be read from the insurance documents (${documents}): they are too ` +
      `unclear to read, or not cards. ${CARD_ADVICE}`,
  };
}

const CARD_ADVICE = 'Send insurance_content with the missing fields, or a clearer image of the card.';

/** Labels only an insurance card prints, as a reader gives them (`RxBIN`, `RX BIN`, `ID #`, `Member ID`). */
const CARD_LABEL =
  /\b(?:RX ?BIN|RX ?PCN|RX ?GRP|RX ?GROUP|BIN|PCN|MEMBER (?:ID|NUMBER|#)|GROUP (?:NUMBER|NO|ID|#)|ID ?#)(?![A-Z0-9])/g;

/**
 * Whether a document prints two or more of the labels only a card prints: then it is a card whose
 * values could not be read (a photo the readers disagreed on), never "not a card".
 */
function printsCardLabels(text: string): boolean {
  const labels = (text.toUpperCase().match(CARD_LABEL) ?? []).map((label) => label.replace(/^RX ?|\s/g, ''));
  return new Set(labels).size >= 2;
}

/**
 * Words a document must read clearly to be called "not a card" rather than "unreadable": a card front
 * alone prints more, and OCR of an unclear photo yields a few scattered fragments at most.
 */
const NOT_A_CARD_MIN_WORDS = 8;

/** Words of two or more letters: OCR noise of a blurred image is mostly single marks and digits. */
function wordCount(text: string): number {
  let count = 0;
  let letters = 0;
  for (const character of text) {
    if (/\p{L}/u.test(character)) letters += 1;
    else {
      if (letters >= 2) count += 1;
      letters = 0;
    }
  }
  return letters >= 2 ? count + 1 : count;
}

function emptyCard(): ScannedCard {
  return Object.fromEntries(CARD_FIELDS.map((field) => [field, null])) as ScannedCard;
}

/** A value as one reader's words give it, before the readers are compared. */
type FoundValue = Omit<ScannedValue, 'readers'>;

interface FoundField {
  field: CardField;
  value: FoundValue;
}

interface LabelAt {
  field: CardField | null;
  start: number;
  end: number;
  box: Box;
  /** Written as a label beyond doubt: a colon or marker, or words that are never part of a name. */
  certain: boolean;
}

/** Each line's labels, `GRP` in the pharmacy block taken for the RxGroup. */
function labelsOfLines(lines: Token[][]): LabelAt[][] {
  const labelsByLine = lines.map(labelsIn);
  const pharmacyLine = labelsByLine.map((labels) =>
    labels.some((label) => label.field === 'rx_bin' || label.field === 'rx_pcn'),
  );
  labelsByLine.forEach((labels, lineIndex) => {
    const inPharmacyBlock = pharmacyLine[lineIndex] || (lineIndex > 0 && pharmacyLine[lineIndex - 1]);
    for (const label of labels) {
      // `GRP` beside or under a BIN or PCN is the pharmacy's group (`BIN 553391 PCN KGAMVT`, then
      // `GRP RX4090`); the member's group is spelled out elsewhere on the card.
      if (label.field === 'group_number' && inPharmacyBlock && lines[lineIndex][label.start].key === 'GRP') {
        label.field = 'rx_group';
      }
    }
  });
  return labelsByLine;
}

function fieldsOnPage(page: ReadPage): FoundField[] {
  const lines = page.lines.map((line) => line.words.flatMap(tokensOf));
  const labelsByLine = labelsOfLines(lines);
  const found: FoundField[] = [];
  lines.forEach((tokens, lineIndex) => {
    const labels = labelsByLine[lineIndex];
    labels.forEach((label, labelIndex) => {
      if (!label.field) return;
      const nextStart = labels[labelIndex + 1]?.start ?? tokens.length;
      if (label.end < nextStart) {
        const beside = valueFrom(label, tokens.slice(label.end, nextStart), page.number, 1);
        if (beside) found.push({ field: label.field, value: beside });
        return;
      }
      const nextLabel = labels[labelIndex + 1];
      const columnRight = nextLabel ? nextLabel.box.left : Number.POSITIVE_INFINITY;
      const below = valueBelow(label, columnRight, lines, labelsByLine, lineIndex, page.number);
      if (below) found.push({ field: label.field, value: below });
    });
  });
  return found;
}

/** The value in the label's column on the next line that has words there and is not itself labels. */
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
    const inColumn = lines[below].filter((token, index) => {
      const centre = token.word.box.left + token.word.box.width / 2;
      const labelled = labelsByLine[below].some((other) => index >= other.start && index < other.end);
      return !labelled && centre >= columnLeft && centre < columnRight;
    });
    if (inColumn.length === 0) continue;
    return valueFrom(label, inColumn, pageNumber, BELOW_LABEL_FACTOR);
  }
  return null;
}

const ID_FIELDS: ReadonlySet<CardField> = new Set([
  'member_id',
  'medicaid_id',
  'group_number',
  'rx_group',
  'payer_id',
]);

/**
 * Codes whose letters OCR confuses with what it reads as `I` (J, 1, l, a bar) or `O` (0, D, Q): nothing
 * in a member id's or a PCN's shape says which was printed, so a code holding one is a little less sure.
 */
const LOOK_ALIKE_FIELDS: ReadonlySet<CardField> = new Set([
  'member_id',
  'medicaid_id',
  'group_number',
  'rx_pcn',
  'rx_group',
  'payer_id',
]);
const LOOK_ALIKE_FACTOR = 0.9;

function valueFrom(
  label: LabelAt,
  tokens: Token[],
  pageNumber: number,
  layoutFactor: number,
): FoundValue | null {
  const field = label.field as CardField;
  const shape = SHAPES[field];
  const kept = tokens.filter((token) => token.key !== '' && token.key !== '#');
  const words = (IDENTIFIERS.has(field) ? printedTogether(kept) : kept).slice(0, shape.maxWords);
  // Ids printed in groups ("123 456 789", "1EG4-TE5-MK73") join; names keep their spaces.
  const joiner = IDENTIFIERS.has(field) || field === 'effective_date' ? '' : ' ';
  for (let count = words.length; count >= 1; count -= 1) {
    const taken = words.slice(0, count);
    const value = shape.normalise(taken.map((token) => token.word.text).join(joiner));
    if (value === null) continue;
    if (!label.certain && ID_FIELDS.has(field) && !/\d/.test(value)) return null;
    const lookAlike = LOOK_ALIKE_FIELDS.has(field) && /[IO]/.test(value) ? LOOK_ALIKE_FACTOR : 1;
    const confidence = Math.min(...taken.map((token) => token.word.confidence)) * layoutFactor * lookAlike;
    return { value, confidence, words: taken.map((token) => token.word), page: pageNumber };
  }
  return null;
}

/** Words further apart than this many letter heights are not groups of one id: the next column's value is. */
const GROUP_GAP = RUNS_ON_GAP;

/** The words from the first on that stand close together, as an id's groups are printed. */
function printedTogether(tokens: Token[]): Token[] {
  const together = tokens.slice(0, 1);
  for (const token of tokens.slice(1)) {
    const previous = together[together.length - 1].word.box;
    const gap = token.word.box.left - (previous.left + previous.width);
    if (gap > GROUP_GAP * Math.max(previous.height, token.word.box.height)) break;
    together.push(token);
  }
  return together;
}

/** Splits a word into the tokens labels are matched on: "ID#:" gives ID and #, "RxBIN:" gives RXBIN. */
function tokensOf(word: ReadWord): Token[] {
  const upper = word.text.toUpperCase();
  const hash = upper.indexOf('#');
  if (hash > 0) {
    return [
      { key: keyOf(upper.slice(0, hash)), word },
      { key: '#', word },
    ];
  }
  return [{ key: /^#[:.]*$/.test(upper) ? '#' : keyOf(upper), word }];
}

function keyOf(text: string): string {
  return text.replace(/[:.,;#()]+$/g, '').replace(/^[(]+/, '');
}

/**
 * The labels of a line. Every phrase of LABELS is a candidate (the longest at each position, with its
 * markers: "#", "No.", "Number"); an ambiguous word alone counts only where it reads as a label (see
 * AMBIGUOUS_LABEL_WORDS), and on a line made only of labels (a column heading row) every one counts.
 */
function labelsIn(tokens: Token[]): LabelAt[] {
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
    while (end < tokens.length && (LABEL_MARKERS.has(tokens[end].key) || tokens[end].word.text === ':')) {
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
  const covered = candidates.reduce((sum, label) => sum + label.end - label.start, 0);
  if (covered === tokens.length) return candidates.map((label) => ({ ...label, certain: true }));
  return candidates.filter((label) => label.certain || label.start === 0);
}

function longestLabelAt(tokens: Token[], index: number): Label | undefined {
  let best: Label | undefined;
  for (const label of LABELS) {
    if (best && best.phrase.length >= label.phrase.length) continue;
    if (label.phrase.every((part, offset) => tokens[index + offset]?.key === part)) best = label;
  }
  return best;
}

/**
 * With no "Payer:" label, the card's name is its largest lettering printed above every certain label
 * of the front, when that line holds words only. Kept below the threshold of identifiers: the catalog match
 * decides which payer it is.
 */
function unlabelledPayerName(front: ReadPage): FoundValue | null {
  const labelled = front.lines.filter((line) =>
    labelsIn(line.words.flatMap(tokensOf)).some((label) => label.certain),
  );
  const firstLabelTop = Math.min(front.height, ...labelled.map((line) => line.box.top));
  const candidates = front.lines.filter(
    (line) =>
      line.box.top + line.box.height <= firstLabelTop && line.words.length > 0 && !labelled.includes(line),
  );
  const tallest = [...candidates].sort((a, b) => b.box.height - a.box.height)[0];
  if (!tallest) return null;
  const value = organisationName(tallest.words.map((word) => word.text).join(' '));
  if (!value) return null;
  const confidence = Math.min(...tallest.words.map((word) => word.confidence)) * UNLABELLED_PAYER_FACTOR;
  return { value, confidence, words: tallest.words, page: front.number };
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

/** Look-alikes a position that must be a digit reads as that digit. */
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  I: '1',
  L: '1',
  S: '5',
  B: '8',
  Z: '2',
};

function digitsOnly(text: string, min: number, max: number): string | null {
  const upper = text.toUpperCase().replace(/[\s-]/g, '');
  const digits = [...upper].map((char) => AS_DIGIT[char] ?? char).join('');
  return /^\d+$/.test(digits) && digits.length >= min && digits.length <= max ? digits : null;
}

/**
 * A member id: letters and digits (and dashes), 5–20 characters, at least one digit, and no more than
 * five letters before its first digit (a three-letter prefix, the sandbox's `ZZ` and payer code): a
 * longer run is a name OCR ran into the id beside it (`HALVORSENR30784084`).
 */
function memberId(text: string): string | null {
  const upper = identifierCore(text);
  if (!ALNUM_ID.test(upper)) return null;
  const compact = upper.replace(/-/g, '');
  if (compact.length < 5 || compact.length > 20 || !/\d/.test(compact)) return null;
  if (/^[A-Z]{6,}/.test(compact)) return null;
  return upper;
}

function identifier(text: string, min: number, max: number): string | null {
  const upper = identifierCore(text);
  if (!ALNUM_ID.test(upper) || upper.length < min || upper.length > max) return null;
  return upper;
}

/**
 * CMS's Medicare Beneficiary Identifier: 11 characters, C A AN N A AN N A A N N (C a digit 1–9, N a
 * digit, A a letter other than S L O I B Z, AN either). The excluded letters are exactly OCR's
 * look-alikes of digits, so where a position allows a digit, such a letter can only be that digit.
 */
const MBI_POSITIONS = 'CAPNAPNAANN';
const MBI_LETTER = /^[AC-HJKMNP-RT-Y]$/;

export function medicareBeneficiaryId(text: string): string | null {
  const compact = text.toUpperCase().replace(/[\s-]/g, '');
  if (compact.length !== 11) return null;
  let result = '';
  for (let index = 0; index < 11; index += 1) {
    const kind = MBI_POSITIONS[index];
    let char = compact[index];
    if (kind !== 'A' && !MBI_LETTER.test(char)) char = AS_DIGIT[char] ?? char;
    const fits =
      kind === 'C'
        ? /^[1-9]$/.test(char)
        : kind === 'N'
          ? /^\d$/.test(char)
          : kind === 'A'
            ? MBI_LETTER.test(char)
            : /^\d$/.test(char) || MBI_LETTER.test(char);
    if (!fits) return null;
    result += char;
  }
  return result;
}

/** MM/DD/YYYY, MM/DD/YY, MM-DD-YYYY or YYYY-MM-DD, as an ISO date; null for anything else. */
function isoDate(text: string): string | null {
  const cleaned = text.replace(/[^\d/-]/g, '');
  let year: number;
  let month: number;
  let day: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(cleaned);
  const us = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/.exec(cleaned);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) {
    [month, day, year] = [Number(us[1]), Number(us[2]), Number(us[3])];
    if (us[3].length === 2) year += 2000;
  } else return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return date.toISOString().slice(0, 10);
}

/** A person's name: letters, spaces, apostrophes, hyphens and periods, with at least two letters. */
/**
 * A member's name as cards print it: given and family name at least ("JANE Q SAMPLE", "SAMPLE, JANE").
 * One word alone is more often a misread label ("NAMI" for "NAME") than a name.
 */
function personName(text: string): string | null {
  const cleaned = text.replace(/\s+/g, ' ').trim();
  if (!/^[A-Za-z][A-Za-z .,'-]*[A-Za-z.]$/.test(cleaned)) return null;
  if (cleaned.split(/[ ,]+/).filter(Boolean).length < 2) return null;
  return cleaned.toUpperCase();
}

/** An organisation or plan name: words with at least three letters in all, few digits. */
function organisationName(text: string): string | null {
  // A table's rule read beside the name (`Lakeshore Health Alliance |`) is no part of it.
  const cleaned = text.replace(/\s+/g, ' ').replace(/^[\s:|]+|[\s:|]+$/g, '');
  const letters = cleaned.replace(/[^A-Za-z]/g, '').length;
  const digits = cleaned.replace(/\D/g, '').length;
  if (letters < 3 || digits > letters / 2) return null;
  if (!/^[A-Za-z0-9][A-Za-z0-9 &.,'/+-]*$/.test(cleaned)) return null;
  return cleaned;
}
