import type { LookAlikeReader } from './ocr-look-alikes';
import type { Questionnaire } from '../cases/case-model';
import { calendarDate } from './clinical-dates';
import type { ClinicalEvidence, ClinicalRecord } from './clinical-model';
import { group, isWhitespace } from './text-patterns';

/** The record's items read as texts: passages to find facts in, and documents for documentation criteria. */

export type DocumentKind = 'visit_note' | 'evidence' | 'questionnaire';

/** One item of the record as searchable text, for documentation criteria. */
export interface RecordDocument {
  kind: DocumentKind;
  source: string;
  date: string | null;
  text: string;
}

/** A yes/no answer given about the claim a passage makes (a questionnaire answer or a JSON boolean). */
type Answer = 'yes' | 'no';

/** A piece of the record read as one text. */
export interface Passage {
  source: string;
  date: string | null;
  text: string;
  /**
   * Recognised text as it was read, when `text` reads its OCR look-alikes (`Alc` as `A1c`): the same
   * length, so a citation quotes these words at the places matched in `text`.
   */
  cited?: string;
  /** When set, cited instead of the words matched (a questionnaire's answer, whose question is the source). */
  excerpt?: string;
  answer?: Answer;
}

/**
 * Longest text a citation repeats from the record. Every fact of a passage cites it, so an unbounded
 * question or answer would be copied once per fact: quadratic in the passage's length.
 */
const CITATION_LIMIT = 200;

function bounded(text: string): string {
  return text.length > CITATION_LIMIT ? `${text.slice(0, CITATION_LIMIT)}…` : text;
}

/** Both ends of a long excerpt, where the drug and its cue are ("metformin ---- … ---- failed"). */
export function abridged(text: string): string {
  const half = CITATION_LIMIT / 2;
  return text.length > CITATION_LIMIT ? `${text.slice(0, half)} … ${text.slice(-half)}` : text;
}

export function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The words of a passage at a place matched in its text, as they were written or read. */
export function wordsAsCited(passage: Passage, start: number, length: number): string {
  return (passage.cited ?? passage.text).slice(start, start + length);
}

/** The text without its trailing run of `char` and whitespace, read from the end (an end-anchored pattern rescans every run). */
function withoutTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && (text.charAt(end - 1) === char || isWhitespace(text.charAt(end - 1)))) end -= 1;
  return text.slice(0, end);
}

export function normalizeQuotes(text: string): string {
  return text.replace(/[’‘]/g, "'");
}

const POLAR_ANSWER = /^(?<word>yes|y|true|no|n|false)(?![a-z0-9/])[\s,.;:!–—-]*(?<rest>.*)$/is;
/** An answer that completes its question ("32.4", "6 months", "since 2024") rather than standing alone. */
const COMPLETES_QUESTION = /^(?:(?:for|x|×|over|about|approximately|at least|~|>=?|<=?|≥|≤)\s*)?\d|^since\b/i;
const NEGATIVE_ANSWER = /^(?:no|n|false|none|unknown|unsure|not sure|not applicable|n\/a|na)(?![a-z0-9])/i;

export function questionnairePassages(questionnaire: Questionnaire): Passage[] {
  const date = calendarDate(questionnaire.created_at);
  return questionnaire.questions.flatMap(({ question, answer }): Passage[] => {
    const source = `questionnaire: "${bounded(tidy(question))}"`;
    const reply = normalizeQuotes(answer.trim());
    const excerpt = bounded(reply);
    const claim = withoutTrailing(normalizeQuotes(question.trim()), '?');
    const polar = POLAR_ANSWER.exec(reply);
    if (polar) {
      const answered: Answer = /^(?:yes|y|true)$/i.test(group(polar, 'word') ?? '') ? 'yes' : 'no';
      const rest = (group(polar, 'rest') ?? '').trim();
      if (!rest) return [{ source, date, text: claim, excerpt, answer: answered }];
      if (COMPLETES_QUESTION.test(rest))
        return [{ source, date, text: `${claim} ${rest}`, excerpt, answer: answered }];
      return [
        { source, date, text: claim, excerpt, answer: answered },
        { source, date, text: rest },
      ];
    }
    if (COMPLETES_QUESTION.test(reply)) return [{ source, date, text: `${claim} ${reply}`, excerpt }];
    return [{ source, date, text: reply }];
  });
}

const NAME_KEYS = new Set([
  'name',
  'test',
  'test_name',
  'label',
  'analyte',
  'measure',
  'measurement',
  'observation',
  'lab',
  'drug',
  'medication',
  'therapy',
  'display',
]);
const VALUE_KEYS = ['value', 'result', 'value_quantity', 'amount', 'level', 'reading'];
const UNIT_KEYS = ['unit', 'units', 'uom'];
const DATE_KEYS = new Set([
  'date',
  'collected',
  'collected_at',
  'collection_date',
  'date_collected',
  'result_date',
  'resulted_at',
  'observed_at',
  'effective_date',
  'measured_at',
  'recorded_at',
]);
const START_KEYS = new Set(['start', 'start_date', 'started', 'started_on', 'since']);
const DURATION_KEY = /^(?:duration_)?(days|weeks|months|years)$|_(days|weeks|months|years)$/;
const TRIAL_FLAG_KEY = /tried|trial|used|taken|received|given/;
const POLAR_VALUE = /^(?:yes|no|true|false)$/i;

function snakeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

function humanize(key: string): string {
  return snakeKey(key).replace(/_/g, ' ');
}

type Primitive = string | number | boolean;

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Evidence JSON as lines that read like a note: `{ "bmi": 32.4 }` → "bmi: 32.4"; a lab row
 * `{ "name": "A1c", "value": 8.1, "unit": "%" }` → "A1c: 8.1 %"; a medication row
 * `{ "drug": "metformin", "duration_months": 6, "status": "failed" }` → "metformin for 6 months, failed".
 * A date inside an object dates everything under it.
 */
function contentPassages(value: unknown, key: string | null, source: string, date: string | null): Passage[] {
  if (Array.isArray(value)) return value.flatMap((item) => contentPassages(item, key, source, date));
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([name, nested]) => [snakeKey(name), nested] as const);
    const ownDate =
      entries
        .filter(([name, nested]) => DATE_KEYS.has(name) && typeof nested === 'string')
        .map(([, nested]) => calendarDate(nested as string))
        .find((found) => found !== null) ?? date;
    const line = recordLine(entries, key);
    const nested = entries.filter(([, item]) => !isPrimitive(item));
    if (line) {
      return [
        { source, date: ownDate, ...line },
        ...nested.flatMap(([name, item]) => contentPassages(item, name, source, ownDate)),
      ];
    }
    return entries
      .filter(([name]) => !DATE_KEYS.has(name))
      .flatMap(([name, item]) => contentPassages(item, name, source, ownDate));
  }
  if (!isPrimitive(value) || key === null) {
    return typeof value === 'string' ? [{ source, date, text: normalizeQuotes(value) }] : [];
  }
  const excerpt = bounded(`${key}: ${String(value)}`);
  if (typeof value === 'boolean' || POLAR_VALUE.test(String(value))) {
    const answered: Answer = value === true || /^(?:yes|true)$/i.test(String(value)) ? 'yes' : 'no';
    return [{ source, date, text: humanize(key), excerpt, answer: answered }];
  }
  return [{ source, date, text: `${humanize(key)}: ${normalizeQuotes(String(value))}` }];
}

function recordLine(
  entries: ReadonlyArray<readonly [string, unknown]>,
  parentKey: string | null,
): Pick<Passage, 'text' | 'answer'> | undefined {
  const primitives = entries.filter((entry): entry is readonly [string, Primitive] => isPrimitive(entry[1]));
  const fieldOf = (names: readonly string[]) => primitives.find(([name]) => names.includes(name));
  const nameField = primitives.find(([name, item]) => NAME_KEYS.has(name) && typeof item === 'string');
  const valueField = fieldOf(VALUE_KEYS);
  const unitField = fieldOf(UNIT_KEYS);
  const name = nameField?.[1] ?? (valueField && parentKey ? humanize(parentKey) : undefined);
  if (name === undefined) return undefined;
  const used = new Set([nameField?.[0], valueField?.[0], unitField?.[0]]);
  let text = valueField
    ? `${String(name)}: ${String(valueField[1])}${unitField ? ` ${String(unitField[1])}` : ''}`
    : String(name);
  let answer: Answer | undefined;
  for (const [key, item] of primitives) {
    if (used.has(key) || DATE_KEYS.has(key)) continue;
    const durationUnit = DURATION_KEY.exec(key);
    if (durationUnit) text += ` for ${String(item)} ${durationUnit[1] ?? durationUnit[2]}`;
    else if (START_KEYS.has(key)) text += ` since ${String(item)}`;
    else if (typeof item === 'boolean' && TRIAL_FLAG_KEY.test(key)) answer = item ? 'yes' : 'no';
    // A free-text field ("failed", "stopped for nausea") reads as a remark on the named item.
    else if (typeof item === 'string') text += `, ${item}`;
    else text += `, ${humanize(key)} ${String(item)}`;
  }
  return { text: normalizeQuotes(text), ...(answer ? { answer } : {}) };
}

/** File text that is JSON is read like JSON content; any other text is read as it stands. */
function parsedText(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

export function evidencePassages(item: ClinicalEvidence, lookAlikes: LookAlikeReader): Passage[] {
  const source = `evidence "${bounded(tidy(item.title))}"`;
  const date = calendarDate(item.date_created);
  const passages = item.content ? contentPassages(item.content, null, source, date) : [];
  if (item.text !== undefined) {
    const json = parsedText(item.text);
    const text = normalizeQuotes(item.text);
    passages.push(
      ...(json !== undefined
        ? contentPassages(json, null, source, date)
        : item.recognised
          ? [recognisedPassage(source, date, text, lookAlikes)]
          : [{ source, date, text }]),
    );
  }
  return passages;
}

/** Text recognised from pixels, its look-alikes read where one reading fits, quoted as it was read. */
function recognisedPassage(
  source: string,
  date: string | null,
  text: string,
  lookAlikes: LookAlikeReader,
): Passage {
  return { source, date, text: lookAlikes.read(text), cited: text };
}

/**
 * A page's second reading, read as its first is. Its source says so: the words it cites are the second
 * reader's, which a reviewer searching the page's first reading would not find.
 */
export function secondReadingPassage(
  item: ClinicalEvidence,
  lookAlikes: LookAlikeReader,
): Passage | undefined {
  if (item.secondReading === undefined) return undefined;
  const source = `evidence "${bounded(tidy(item.title))}" (second reading)`;
  return recognisedPassage(
    source,
    calendarDate(item.date_created),
    normalizeQuotes(item.secondReading),
    lookAlikes,
  );
}

export function recordDocuments(
  record: ClinicalRecord,
  evidence: ReadonlyArray<{ item: ClinicalEvidence; passages: Passage[] }>,
): RecordDocument[] {
  return [
    ...record.visitNotes.map((note): RecordDocument => ({
      kind: 'visit_note',
      source: `visit note ${calendarDate(note.created_at) ?? note.created_at}`,
      date: calendarDate(note.created_at),
      text: normalizeQuotes(note.content),
    })),
    ...record.questionnaires.map((questionnaire): RecordDocument => ({
      kind: 'questionnaire',
      source: `questionnaire ${calendarDate(questionnaire.created_at) ?? questionnaire.created_at}`,
      date: calendarDate(questionnaire.created_at),
      // A question answered "no" documents the absence of what it asks about.
      text: questionnaire.questions
        .filter(({ answer }) => answer.trim() !== '' && !NEGATIVE_ANSWER.test(answer.trim()))
        .map(({ question, answer }) => normalizeQuotes(`${question} ${answer}`))
        .join('\n'),
    })),
    ...evidence.map(({ item, passages }): RecordDocument => ({
      kind: 'evidence',
      source: `evidence "${bounded(tidy(item.title))}"`,
      date: calendarDate(item.date_created),
      text: [item.title, ...passages.map((passage) => passage.excerpt ?? passage.text)].join('\n'),
    })),
  ];
}
