/**
 * One answer's value against its item: whether it fits the item's type and bounds, how the item keeps
 * it, and when two values are the same. Pure and deterministic: the workflow checks answers with it.
 */
import type {
  AnswerValue,
  AttachmentAnswer,
  CodedAnswer,
  QuantityAnswer,
  QuestionnaireItemState,
  QuestionnaireItemType,
} from './questionnaire';

/**
 * Bounds on what a person may write, so a case stays within what Temporal keeps in one workflow: a
 * string item's answer, a text item's, and a repeating item's answers.
 */
export const MAX_STRING_ANSWER = 1_000;
export const MAX_TEXT_ANSWER = 10_000;
export const MAX_REPEATED_ANSWERS = 50;
/** FHIR's integer is 32-bit. */
const MAX_INTEGER = 2_147_483_647;

const EXPECTED: Record<Exclude<QuestionnaireItemType, 'group' | 'display'>, string> = {
  boolean: 'true or false',
  integer: 'a whole number (32-bit)',
  decimal: 'a number',
  date: 'a date as YYYY-MM-DD',
  dateTime: 'a date (YYYY-MM-DD) or a date and time with its offset (2024-04-07T18:32:03Z)',
  time: 'a time as hh:mm:ss',
  string: `a non-empty string of at most ${MAX_STRING_ANSWER} characters`,
  text: `a non-empty string of at most ${MAX_TEXT_ANSWER} characters`,
  url: `an absolute URL (https://…) of at most ${MAX_STRING_ANSWER} characters`,
  choice: 'one of its options, as a coding ({ "code": … })',
  'open-choice': `one of its options as a coding, or free text of at most ${MAX_STRING_ANSWER} characters`,
  quantity: 'a quantity ({ "value": number, "unit": string or null })',
  attachment: 'an attachment ({ "url": string, "content_type" and "title" strings or null })',
};

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?)?)?$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/\S+$|^urn:\S+$/i;

/** Why one value does not fit the item's type, or null when it does. */
export function valueIssue(item: QuestionnaireItemState, value: unknown): string | null {
  if (item.type === 'group' || item.type === 'display') return `${item.link_id} takes no answer.`;
  return fits(item, value) ? null : `${item.link_id} (${item.type}) takes ${EXPECTED[item.type]}.`;
}

function fits(item: QuestionnaireItemState, value: unknown): boolean {
  switch (item.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value) && Math.abs(value as number) <= MAX_INTEGER;
    case 'decimal':
      return typeof value === 'number' && Number.isFinite(value);
    case 'date':
      return typeof value === 'string' && DATE.test(value) && realDate(value);
    case 'dateTime':
      return (
        typeof value === 'string' &&
        DATE_TIME.test(value) &&
        (value.length < 10 || realDate(value.slice(0, 10)))
      );
    case 'time':
      return typeof value === 'string' && TIME.test(value);
    case 'string':
      return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_STRING_ANSWER;
    case 'text':
      return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_TEXT_ANSWER;
    case 'url':
      return typeof value === 'string' && URL_LIKE.test(value) && value.length <= MAX_STRING_ANSWER;
    case 'choice':
      return isCoded(value) && matchingOption(item, value) !== undefined;
    case 'open-choice':
      return (
        (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_STRING_ANSWER) ||
        (isCoded(value) && matchingOption(item, value) !== undefined)
      );
    case 'quantity':
      return isQuantity(value);
    case 'attachment':
      return isAttachment(value);
    default:
      return false;
  }
}

function realDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const daysInMonth = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return day <= daysInMonth[month - 1]!;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalText(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

export function isCoded(value: unknown): value is CodedAnswer {
  return (
    isRecord(value) &&
    typeof value.code === 'string' &&
    value.code !== '' &&
    optionalText(value.system) &&
    optionalText(value.display)
  );
}

function isQuantity(value: unknown): value is QuantityAnswer {
  return (
    isRecord(value) &&
    typeof value.value === 'number' &&
    Number.isFinite(value.value) &&
    optionalText(value.unit)
  );
}

function isAttachment(value: unknown): value is AttachmentAnswer {
  return (
    isRecord(value) &&
    typeof value.url === 'string' &&
    value.url !== '' &&
    optionalText(value.content_type) &&
    optionalText(value.title)
  );
}

/**
 * The option a coding names, by code (and system when the coding gives one). An item whose options
 * the package did not carry (an unexpanded value set, or none) takes any coding.
 */
export function matchingOption(item: QuestionnaireItemState, coding: CodedAnswer): CodedAnswer | undefined {
  if (item.options === null) return coding;
  return item.options.find(
    (option) =>
      option.code === coding.code && (!coding.system || !option.system || option.system === coding.system),
  );
}

/** A value as the item keeps it: a list for a repeating item, one value otherwise, codings completed. */
export function normalizedAnswer(
  item: QuestionnaireItemState,
  value: AnswerValue | AnswerValue[],
): AnswerValue | AnswerValue[] {
  const values = (Array.isArray(value) ? value : [value]).map((entry) => keptValue(item, entry));
  return item.repeats ? values : values[0]!;
}

/**
 * One value as its item's type keeps it, nothing more: a quantity's number and unit (a FHIR Quantity's
 * `code` and `system` too would read as a coding), an attachment's three fields, a choice's coding
 * completed from its option.
 */
function keptValue(item: QuestionnaireItemState, value: AnswerValue): AnswerValue {
  if (item.type === 'quantity' && isQuantity(value)) return { value: value.value, unit: value.unit ?? null };
  if (item.type === 'attachment' && isAttachment(value))
    return { content_type: value.content_type ?? null, url: value.url, title: value.title ?? null };
  if ((item.type === 'choice' || item.type === 'open-choice') && isCoded(value))
    return completeCoding(item, value);
  return value;
}

function completeCoding(item: QuestionnaireItemState, coding: CodedAnswer): CodedAnswer {
  const option = item.options === null ? undefined : matchingOption(item, coding);
  return option ?? { system: coding.system ?? null, code: coding.code, display: coding.display ?? null };
}

export function sameAnswer(
  left: AnswerValue | AnswerValue[] | null,
  right: AnswerValue | AnswerValue[],
): boolean {
  if (left === null) return false;
  const lefts = Array.isArray(left) ? left : [left];
  const rights = Array.isArray(right) ? right : [right];
  return lefts.length === rights.length && lefts.every((value, index) => sameValue(value, rights[index]!));
}

export function sameValue(left: AnswerValue, right: AnswerValue): boolean {
  if (isQuantity(left) && isQuantity(right))
    return left.value === right.value && (left.unit ?? null) === (right.unit ?? null);
  if (isAttachment(left) && isAttachment(right)) return left.url === right.url;
  if (isCoded(left) && isCoded(right))
    return left.code === right.code && (!left.system || !right.system || left.system === right.system);
  return left === right;
}
