/** How deep a request body may nest; no request of the contract comes near it. */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

interface Frame {
  isObject: boolean;
  /** Inside an object: whether the next string is a key. */
  expectsKey: boolean;
  keyStart: number;
  keyEnd: number;
  index: number;
}

/** Thrown from body-parser's `verify`; `type` is how the edge recognises it among parser errors. */
export class JsonTooDeepError extends Error {
  readonly type = 'entity.too.deep';

  constructor(
    readonly field: string,
    readonly maxDepth: number,
  ) {
    super(`JSON nests deeper than ${maxDepth} levels`);
  }
}

/**
 * Checks the raw body before JSON.parse builds it: one pass, no recursion and at most `maxDepth`
 * frames, so a body nested a million levels deep costs linear time and no stack. It reads structure
 * only; whether the text is valid JSON stays JSON.parse's verdict.
 */
export function assertJsonDepth(input: Buffer | string, maxDepth = MAX_JSON_DEPTH): void {
  const body = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const length = body.length;
  const stack: Frame[] = [];
  for (let position = 0; position < length; position++) {
    const code = body[position];
    if (code === QUOTE) {
      const start = position;
      // Strings are most of a body (base64 documents): the native search skips them at memcpy speed.
      let end = body.indexOf(QUOTE, position + 1);
      while (end !== -1 && isEscaped(body, end)) end = body.indexOf(QUOTE, end + 1);
      position = end === -1 ? length : end;
      const frame = stack[stack.length - 1];
      if (frame?.isObject && frame.expectsKey) {
        frame.keyStart = start;
        frame.keyEnd = position + 1;
        frame.expectsKey = false;
      }
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (stack.length === maxDepth) {
        throw new JsonTooDeepError(fieldPath(body, stack), maxDepth);
      }
      stack.push({ isObject: code === OPEN_OBJECT, expectsKey: true, keyStart: 0, keyEnd: 0, index: 0 });
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      stack.pop();
    } else if (code === COMMA) {
      const frame = stack[stack.length - 1];
      if (frame?.isObject) frame.expectsKey = true;
      else if (frame) frame.index++;
    }
  }
}

/**
 * A quote preceded by an odd run of backslashes is part of the string. Each run is read once, by
 * the quote right after it, so the check stays linear.
 */
function isEscaped(body: Buffer, quote: number): boolean {
  let backslashes = 0;
  for (let position = quote - 1; position >= 0 && body[position] === BACKSLASH; position--) backslashes++;
  return backslashes % 2 === 1;
}

/** The contract's field notation (`evidence[0].content.a`) for the value that opened one level too many. */
function fieldPath(body: Buffer, stack: Frame[]): string {
  let path = '';
  for (const frame of stack) {
    if (!frame.isObject) {
      path += `[${frame.index}]`;
      continue;
    }
    path += `${path ? '.' : ''}${decodeKey(body.toString('utf8', frame.keyStart, frame.keyEnd))}`;
  }
  return path;
}

function decodeKey(raw: string): string {
  try {
    return String(JSON.parse(raw));
  } catch {
    return raw.slice(1, -1);
  }
}
