import { ConnectorError } from '../../../domain/failures';

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
    const trimmed = raw.replace(/^[\r\n]+/, '').replace(/[\r\n]+$/, '');
    if (trimmed === '') continue;
    const [id, ...elements] = trimmed.split(delimiters.element);
    if (!/^[A-Z][A-Z0-9]{1,2}$/.test(id!)) {
      throw new X12SyntaxError(`segment ${segments.length + 1} has no valid segment id`);
    }
    segments.push({ id: id!, elements });
  }
  return segments;
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
