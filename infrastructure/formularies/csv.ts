const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const BYTE_ORDER_MARK = 0xfeff;

export interface CsvLimits {
  /** Records, the header included. */
  maxRecords: number;
  maxColumns: number;
  maxFieldLength: number;
}

/** One record and the line it starts on (1 = the first line), which is what a person can find. */
export interface CsvRecord {
  row: number;
  fields: string[];
}

/** The file breaks RFC 4180 or a limit; the issue names the rule, never the text that broke it. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly row: number,
    /** 1-based position of the field in its record. */
    readonly column: number,
    readonly issue: string,
  ) {
    super(`row ${row}, column ${column}: ${issue}`);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * Reads RFC 4180 CSV one record at a time, in one pass over the text: every character is looked at
 * a bounded number of times, whatever the input, so a hostile file costs no more than its length.
 * Accepts CRLF, LF or CR line ends and a leading byte order mark, and skips blank lines. A quote
 * may only open a field, and a quoted field must end where its closing quote is followed by a comma
 * or a line end; anything else is an error, since guessing would load a shifted row.
 */
export function* readCsv(text: string, limits: CsvLimits): Generator<CsvRecord> {
  let position = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  let line = 1;
  let records = 0;
  while (position < text.length) {
    const row = line;
    const fields: string[] = [];
    for (;;) {
      const column = fields.length + 1;
      let value: string;
      if (text.charCodeAt(position) === QUOTE) {
        const quoted = readQuoted(text, position + 1, line, column);
        value = quoted.value;
        position = quoted.end;
        line = quoted.line;
        const after = text.charCodeAt(position);
        if (position < text.length && after !== COMMA && after !== CR && after !== LF) {
          throw new CsvSyntaxError(line, column, 'text follows the closing quote of a quoted field');
        }
      } else {
        let end = position;
        for (; end < text.length; end++) {
          const code = text.charCodeAt(end);
          if (code === COMMA || code === CR || code === LF) break;
          if (code === QUOTE) {
            throw new CsvSyntaxError(
              line,
              column,
              'a quote inside an unquoted field (quote the whole field and double the quotes inside it)',
            );
          }
        }
        value = text.slice(position, end);
        position = end;
      }
      if (value.length > limits.maxFieldLength) {
        throw new CsvSyntaxError(row, column, `is longer than ${limits.maxFieldLength} characters`);
      }
      fields.push(value);
      if (fields.length > limits.maxColumns) {
        throw new CsvSyntaxError(row, column, `the row has more than ${limits.maxColumns} columns`);
      }
      const separator = text.charCodeAt(position);
      if (separator === COMMA) {
        position++;
        continue;
      }
      if (separator === CR) position += text.charCodeAt(position + 1) === LF ? 2 : 1;
      else if (separator === LF) position++;
      line++;
      break;
    }
    if (fields.length === 1 && fields[0] === '') continue;
    if (++records > limits.maxRecords) {
      throw new CsvSyntaxError(
        row,
        1,
        `the file has more than ${limits.maxRecords - 1} rows after its header`,
      );
    }
    yield { row, fields };
  }
}

/** From just after an opening quote to just after its closing one; `""` inside stands for `"`. */
function readQuoted(
  text: string,
  start: number,
  startLine: number,
  column: number,
): { value: string; end: number; line: number } {
  const parts: string[] = [];
  let line = startLine;
  let chunkStart = start;
  for (;;) {
    const quote = text.indexOf('"', chunkStart);
    if (quote === -1) throw new CsvSyntaxError(startLine, column, 'a quoted field is never closed');
    line += lineBreaks(text, chunkStart, quote);
    if (text.charCodeAt(quote + 1) === QUOTE) {
      parts.push(text.slice(chunkStart, quote + 1));
      chunkStart = quote + 2;
      continue;
    }
    parts.push(text.slice(chunkStart, quote));
    return { value: parts.join(''), end: quote + 1, line };
  }
}

/** CRLF counts once, as do a lone CR and a lone LF. */
function lineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code === LF || (code === CR && text.charCodeAt(index + 1) !== LF)) count++;
  }
  return count;
}
