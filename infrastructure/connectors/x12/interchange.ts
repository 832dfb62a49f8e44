import { ConnectorError } from '../../../domain/failures';
import type { InterchangeEnvelope } from '../../../domain/payers/eligibility';

/**
 * The delimiters an X12 interchange declares for itself. ISA is fixed-width, so its own characters
 * say them: the element separator follows "ISA", ISA11 is the repetition separator (005010), ISA16
 * the component separator, and the character after ISA16 ends every segment.
 */
export interface X12Delimiters {
  element: string;
  repetition: string;
  component: string;
  segment: string;
}

export interface X12Segment {
  id: string;
  /** Elements after the segment id: `elements[0]` is XX01. */
  elements: string[];
}

export interface X12Interchange {
  delimiters: X12Delimiters;
  /** ISA13, which IEA02 repeats. */
  controlNumber: string;
  /** Every segment, ISA and IEA included, in order. */
  segments: X12Segment[];
}

/**
 * An interchange that cannot be read. The message names the rule and the segment's position, never
 * an element's value: a 271 carries the member's name, birth date and ids.
 */
export class X12SyntaxError extends ConnectorError {
  constructor(rule: string) {
    super(`The X12 interchange is malformed: ${rule}`, { transient: false });
    this.name = 'X12SyntaxError';
  }
}

/** ISA is 106 characters from "ISA" to its segment terminator, whatever the delimiters. */
const ISA_LENGTH = 106;
const ISA_ELEMENTS = 16;

/**
 * Reads an interchange with the delimiters it declares, checking its envelopes: IEA against ISA,
 * GE against GS, SE against ST (control numbers and counts). One pass over the text, so hostile
 * input costs time in proportion to its length. Line breaks after segment terminators, as many
 * senders add, are ignored.
 */
export function readInterchange(text: string): X12Interchange {
  const start = text.indexOf('ISA');
  // trim() also drops a byte-order mark.
  if (start < 0 || text.slice(0, start).trim() !== '') {
    throw new X12SyntaxError('it does not begin with an ISA segment');
  }
  if (text.length - start < ISA_LENGTH) throw new X12SyntaxError('the ISA segment is cut short');
  const isa = text.slice(start, start + ISA_LENGTH);
  const delimiters: X12Delimiters = {
    element: isa[3]!,
    repetition: isa[82]!,
    component: isa[104]!,
    segment: isa[105]!,
  };
  const isaElements = isa.slice(0, ISA_LENGTH - 1).split(delimiters.element);
  if (isaElements.length !== ISA_ELEMENTS + 1) {
    throw new X12SyntaxError(`the ISA segment has ${isaElements.length - 1} elements, not ${ISA_ELEMENTS}`);
  }
  if (
    new Set(Object.values(delimiters)).size !== 4 ||
    /[A-Za-z0-9 ]/.test(Object.values(delimiters).join(''))
  ) {
    throw new X12SyntaxError(
      'the ISA segment declares delimiters that are not four distinct special characters',
    );
  }

  const segments = splitSegments(text.slice(start), delimiters);
  checkEnvelopes(segments);
  return { delimiters, controlNumber: segments[0]!.elements[12]!, segments };
}

function splitSegments(body: string, delimiters: X12Delimiters): X12Segment[] {
  const segments: X12Segment[] = [];
  for (const raw of body.split(delimiters.segment)) {
    const trimmed = trimLineBreaks(raw);
    if (trimmed === '') continue;
    const [id, ...elements] = trimmed.split(delimiters.element);
    if (!/^[A-Z][A-Z0-9]{1,2}$/.test(id!)) {
      throw new X12SyntaxError(`segment ${segments.length + 1} has no valid segment id`);
    }
    segments.push({ id: id!, elements });
  }
  return segments;
}

/**
 * Drops line breaks around a segment. Scanned by hand: a /[\r\n]+$/ regular expression backtracks
 * over every run of line breaks inside the segment, which hostile input makes quadratic.
 */
function trimLineBreaks(raw: string): string {
  const isLineBreak = (character: string | undefined) => character === '\r' || character === '\n';
  let start = 0;
  let end = raw.length;
  while (start < end && isLineBreak(raw[start])) start += 1;
  while (end > start && isLineBreak(raw[end - 1])) end -= 1;
  return raw.slice(start, end);
}

function checkEnvelopes(segments: X12Segment[]): void {
  const isa = segments[0]!;
  const iea = segments[segments.length - 1]!;
  if (iea.id !== 'IEA') throw new X12SyntaxError('the interchange does not end with an IEA segment');
  if (iea.elements[1] !== isa.elements[12]) {
    throw new X12SyntaxError('IEA02 does not repeat the ISA13 control number');
  }

  let groups = 0;
  let group: { controlNumber: string; transactions: number } | undefined;
  let transaction: { controlNumber: string; firstIndex: number } | undefined;
  for (const [index, segment] of segments.entries()) {
    const position = `segment ${index + 1}`;
    switch (segment.id) {
      case 'GS':
        if (group) throw new X12SyntaxError(`${position} opens a group inside another`);
        group = { controlNumber: segment.elements[5] ?? '', transactions: 0 };
        groups += 1;
        break;
      case 'GE':
        if (!group || transaction) throw new X12SyntaxError(`${position} closes a group that is not open`);
        if (segment.elements[1] !== group.controlNumber) {
          throw new X12SyntaxError(`${position}: GE02 does not repeat the GS06 control number`);
        }
        if (Number(segment.elements[0]) !== group.transactions) {
          throw new X12SyntaxError(
            `${position}: GE01 does not count the group's ${group.transactions} transactions`,
          );
        }
        group = undefined;
        break;
      case 'ST':
        if (!group || transaction)
          throw new X12SyntaxError(`${position} opens a transaction outside a group`);
        transaction = { controlNumber: segment.elements[1] ?? '', firstIndex: index };
        group.transactions += 1;
        break;
      case 'SE': {
        if (!transaction) throw new X12SyntaxError(`${position} closes a transaction that is not open`);
        const counted = index - transaction.firstIndex + 1;
        if (Number(segment.elements[0]) !== counted) {
          throw new X12SyntaxError(`${position}: SE01 does not count the transaction's ${counted} segments`);
        }
        if (segment.elements[1] !== transaction.controlNumber) {
          throw new X12SyntaxError(`${position}: SE02 does not repeat the ST02 control number`);
        }
        transaction = undefined;
        break;
      }
    }
  }
  if (group || transaction) throw new X12SyntaxError('a group or transaction is never closed');
  if (Number(iea.elements[0]) !== groups) {
    throw new X12SyntaxError(`IEA01 does not count the interchange's ${groups} groups`);
  }
}

/** The components of a composite element (e.g. EB13's procedure code). */
export function components(value: string, delimiters: X12Delimiters): string[] {
  return value.split(delimiters.component);
}

/** The repetitions of a repeating element (e.g. EB03's service type codes). */
export function repetitions(value: string, delimiters: X12Delimiters): string[] {
  return value.split(delimiters.repetition);
}

/** The delimiters the service writes with: the ones most clearinghouses expect. */
export const WRITTEN_DELIMITERS: X12Delimiters = Object.freeze({
  element: '*',
  repetition: '^',
  component: ':',
  segment: '~',
});

/**
 * A value the service was asked to send that X12 cannot carry as it is (a delimiter inside a name,
 * a member id too long for its element). Refused before anything is sent, rather than sending an
 * interchange the payer would misread. The message names the field and the rule, never the value.
 */
export class X12ValueError extends ConnectorError {
  constructor(field: string, rule: string) {
    super(`The X12 interchange cannot carry ${field}: it ${rule}`, { transient: false });
    this.name = 'X12ValueError';
  }
}

/**
 * The X12 extended character set, less the delimiters the service writes with. Names are also
 * upper-cased, as payers match them; identifiers are sent as given.
 */
const WRITABLE = /^[A-Za-z0-9 !"&'()+,\-./;?=%@[\]_{}\\|<>#$]*$/;
const DELIMITER_CHARACTERS = new Set(Object.values(WRITTEN_DELIMITERS));

/**
 * A value made fit for an element: trimmed, and for names accents dropped and upper case; then
 * refused if X12 cannot carry it or it does not fit the element's length.
 */
export function elementValue(
  field: string,
  value: string,
  rules: { min?: number; max: number; name?: boolean },
): string {
  const trimmed = value.trim();
  const written = rules.name
    ? trimmed
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toUpperCase()
    : trimmed;
  if ([...written].some((character) => DELIMITER_CHARACTERS.has(character))) {
    throw new X12ValueError(field, 'contains a character X12 uses as a delimiter (* ^ : ~)');
  }
  if (!WRITABLE.test(written)) {
    throw new X12ValueError(field, 'contains a character outside the X12 extended character set');
  }
  const min = rules.min ?? 1;
  if (written.length < min || written.length > rules.max) {
    throw new X12ValueError(field, `must be ${min} to ${rules.max} characters long`);
  }
  return written;
}

/** YYYY-MM-DD as X12's CCYYMMDD, refusing anything that is not a calendar date. */
export function x12Date(field: string, isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  const date = match ? new Date(`${isoDate}T00:00:00Z`) : undefined;
  if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== isoDate) {
    throw new X12ValueError(field, 'is not a calendar date YYYY-MM-DD');
  }
  return `${match[1]}${match[2]}${match[3]}`;
}

/** CCYYMMDD as YYYY-MM-DD, or undefined when it is not a calendar date. */
export function isoDate(x12: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(x12);
  if (!match) return undefined;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** One functional group of one transaction: GS01, ST01 and the implementation guide (GS08/ST03). */
export interface TransactionKind {
  functionalId: string;
  transactionSet: string;
  guide: string;
}

/** An element to write: a value, or the repetitions of a repeating element (e.g. EB03). */
export type X12Element = string | string[];

/**
 * Wraps one transaction's segments (those between ST and SE) in ST/SE, GS/GE and ISA/IEA, with
 * the counts and control numbers the reader checks. Trailing empty elements are dropped, as the
 * standard requires. Every element is checked once more for delimiters, so no caller can produce
 * an interchange that reads differently from what it meant.
 */
export function writeInterchange(
  envelope: InterchangeEnvelope,
  kind: TransactionKind,
  body: X12Element[][],
): string {
  const senderId = elementValue('the envelope sender id', envelope.senderId, { min: 2, max: 15, name: true });
  const receiverId = elementValue('the envelope receiver id', envelope.receiverId, {
    min: 2,
    max: 15,
    name: true,
  });
  const { controlNumber } = envelope;
  if (!Number.isInteger(controlNumber) || controlNumber < 1 || controlNumber > 999_999_999) {
    throw new X12ValueError('the envelope control number', 'must be a whole number from 1 to 999999999');
  }
  const createdAt = envelope.createdAt.toISOString();
  const date = createdAt.slice(0, 10).replace(/-/g, '');
  const time = createdAt.slice(11, 16).replace(':', '');
  const interchangeControl = String(controlNumber).padStart(9, '0');
  const transactionControl = '0001';
  const { element, repetition, component, segment } = WRITTEN_DELIMITERS;

  const isa = [
    'ISA',
    '00',
    ' '.repeat(10),
    '00',
    ' '.repeat(10),
    'ZZ',
    senderId.padEnd(15),
    'ZZ',
    receiverId.padEnd(15),
    date.slice(2),
    time,
    repetition,
    '00501',
    interchangeControl,
    '0',
    envelope.usage === 'production' ? 'P' : 'T',
    component,
  ].join(element);
  const transaction = [
    ['ST', kind.transactionSet, transactionControl, kind.guide],
    ...body,
    ['SE', String(body.length + 2), transactionControl],
  ];
  const segments = [
    ['GS', kind.functionalId, senderId, receiverId, date, time, String(controlNumber), 'X', kind.guide],
    ...transaction,
    ['GE', '1', String(controlNumber)],
    ['IEA', '1', interchangeControl],
  ].map((segmentElements, index) => {
    const values = segmentElements.map((value) => {
      const parts = typeof value === 'string' ? [value] : value;
      if (parts.some((part) => [...part].some((character) => DELIMITER_CHARACTERS.has(character)))) {
        throw new X12ValueError(`segment ${index + 2}`, 'would contain a delimiter inside an element');
      }
      return parts.join(repetition);
    });
    while (values.length > 1 && values[values.length - 1] === '') values.pop();
    return values.join(element);
  });
  return [isa, ...segments].map((text) => text + segment).join('');
}

/** A transaction's segments, ST and SE included, with each one's position in the interchange. */
export interface X12Transaction {
  segments: X12Segment[];
  /** The 1-based position of `segments[0]` in the interchange, for error messages. */
  firstPosition: number;
}

/** The first transaction of the given set (ST01) in the interchange. */
export function firstTransaction(interchange: X12Interchange, transactionSet: string): X12Transaction {
  const start = interchange.segments.findIndex(
    (segment) => segment.id === 'ST' && segment.elements[0] === transactionSet,
  );
  if (start < 0) throw new X12SyntaxError(`the interchange carries no ${transactionSet} transaction`);
  const end = interchange.segments.findIndex((segment, index) => index > start && segment.id === 'SE');
  // readInterchange has checked that every ST is closed by an SE.
  return { segments: interchange.segments.slice(start, end + 1), firstPosition: start + 1 };
}
