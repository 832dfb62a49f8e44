import { CARD_FIELDS, identifierCore } from './card-fields';
import type { CardField } from './card-fields';

/**
 * What each card field's values look like (docs/documents.md#insurance-cards): the shape a value must
 * take, how its OCR look-alikes resolve, how sure it must be read, and how two readings of it compare.
 */

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

/** What the words after a label must look like for each field, and how they become the value. */
export interface FieldShape {
  /** How many words the value may take: ids take one word (or a dashed group), names several. */
  maxWords: number;
  normalise(text: string): string | null;
}

const ALNUM_ID = /^[A-Z0-9][A-Z0-9-]*$/;

export const SHAPES: Readonly<Record<CardField, FieldShape>> = {
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

/** Identifiers are codes a wrong character changes the meaning of: only two agreeing readings give one. */
export const IDENTIFIERS: ReadonlySet<CardField> = new Set([
  'member_id',
  'medicaid_id',
  'medicare_beneficiary_id',
  'group_number',
  'rx_bin',
  'rx_pcn',
  'rx_group',
  'payer_id',
]);

/**
 * Ids whose value must hold a digit when its label may be part of a name (AMBIGUOUS_LABEL_WORDS,
 * card-labels.ts): "Group Health Cooperative" is no group number.
 */
export const ID_FIELDS: ReadonlySet<CardField> = new Set([
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
export const LOOK_ALIKE_FIELDS: ReadonlySet<CardField> = new Set([
  'member_id',
  'medicaid_id',
  'group_number',
  'rx_pcn',
  'rx_group',
  'payer_id',
]);
export const LOOK_ALIKE_FACTOR = 0.9;

/** Fields one print may be read as without the readers disagreeing: a Medicare or Medicaid number is a member id. */
export const FIELD_KIND: Readonly<Record<CardField, string>> = {
  ...(Object.fromEntries(CARD_FIELDS.map((field) => [field, field])) as Record<CardField, string>),
  medicaid_id: 'member_id',
  medicare_beneficiary_id: 'member_id',
};

/**
 * Codes and dates are compared on every letter and digit; names on their letters, digits and the
 * spaces between them, not their punctuation (a reader may drop a period), so `JORDANA RIVERA` never
 * agrees with `JORDAN A RIVERA`, nor `Prairie State 3 Insurance` with `Prairie State Insurance`.
 */
export function sameReading(field: CardField, a: string, b: string): boolean {
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
 * A bracket against a code with no partner at its other end (`ET]`, `ET)`, `(4471`) is a letter neither
 * reader made out, most often a small `J`, `l` or `1`: dropping it would return the code cut short.
 * A code printed in parentheses, `(RX4471)`, keeps both.
 */
function endsInBracket(text: string): boolean {
  // Punctuation a value ends with (`(RX4471),`) says nothing of a letter lost.
  const trimmed = text.trim().replace(/^[^A-Za-z0-9([{]+|[^A-Za-z0-9)\]}]+$/g, '');
  const opens = /^[([{]/.test(trimmed);
  const closes = /[)\]}]$/.test(trimmed);
  return opens !== closes;
}

/**
 * A dash at either end of a code (`787-67-`) says the print goes on beyond what was read: on the next
 * line, where a card wraps a long dashed id, or past a crop edge. Dropping it would return the code
 * cut short.
 */
function endsInDash(text: string): boolean {
  return /^\s*[-‐‑–—]|[-‐‑–—][\s,.;:]*$/.test(text);
}

/**
 * A member id: letters and digits (and dashes), 5–20 characters, at least one digit, and no more than
 * five letters before its first digit (a three-letter prefix, the sandbox's `ZZ` and payer code): a
 * longer run is a name OCR ran into the id beside it (`HALVORSENR30784084`).
 */
function memberId(text: string): string | null {
  if (endsInBracket(text) || endsInDash(text)) return null;
  const upper = identifierCore(text);
  if (!ALNUM_ID.test(upper)) return null;
  const compact = upper.replace(/-/g, '');
  if (compact.length < 5 || compact.length > 20 || !/\d/.test(compact)) return null;
  if (/^[A-Z]{6,}/.test(compact)) return null;
  return upper;
}

function identifier(text: string, min: number, max: number): string | null {
  if (endsInBracket(text) || endsInDash(text)) return null;
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

/**
 * The text without marks a reader gave at its ends for a table's rule or the card's edge
 * (`Lakeshore Health Alliance |`, `: Northwind Health i`): colons and strokes, and after the name a
 * stroke read as a lone `i` or `!` (not `l`: a printed `Plan I` may be read `Plan l`). Counted off by
 * index, so the time is linear in the text whatever marks it holds.
 */
function withoutStrokes(text: string): string {
  const mark = (character: string) => character === ' ' || character === ':' || character === '|';
  let start = 0;
  let end = text.length;
  while (start < end && mark(text[start])) start += 1;
  for (;;) {
    while (end > start && mark(text[end - 1])) end -= 1;
    if (end - start < 2 || text[end - 2] !== ' ' || !'i!'.includes(text[end - 1])) break;
    end -= 2;
  }
  return text.slice(start, end);
}

/** An organisation or plan name: words with at least three letters in all, few digits. */
export function organisationName(text: string): string | null {
  const cleaned = withoutStrokes(text.replace(/\s+/g, ' '));
  const letters = cleaned.replace(/[^A-Za-z]/g, '').length;
  const digits = cleaned.replace(/\D/g, '').length;
  if (letters < 3 || digits > letters / 2) return null;
  if (!/^[A-Za-z0-9][A-Za-z0-9 &.,'/+-]*$/.test(cleaned)) return null;
  return cleaned;
}
