import { assertJsonDepth, JsonTooDeepError } from '../../src/common/json-depth';

function depthError(body: string, maxDepth?: number): JsonTooDeepError | undefined {
  try {
    assertJsonDepth(Buffer.from(body), maxDepth);
    return undefined;
  } catch (error) {
    if (error instanceof JsonTooDeepError) return error;
    throw error;
  }
}

describe('the JSON depth check', () => {
  it('lets a body through at the limit and stops it one level deeper', () => {
    expect(depthError('{"a":{"b":[1]}}', 3)).toBeUndefined();
    expect(depthError('{"a":{"b":[[1]]}}', 3)?.field).toBe('a.b[0]');
  });

  it('names array positions and keys after earlier siblings', () => {
    expect(depthError('{"x":[1,{"y":2},{"z":{"w":[[]]}}]}', 4)?.field).toBe('x[2].z.w');
  });

  it('is not misled by brackets, quotes and escapes inside strings', () => {
    expect(depthError('{"a\\"[{":"[[[[{{{{","b":[{"c\\\\":[[]]}]}', 4)?.field).toBe('b[0].c\\[0]');
  });

  it('decodes escaped keys in the field it names', () => {
    expect(depthError('{"caf\\u00e9":[[]]}', 2)?.field).toBe('café[0]');
  });

  it('reads a million levels without overflowing the stack', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(depthError(deep)?.field).toBe('[0]'.repeat(32));
  });

  it('checks bodies decoded from another charset too', () => {
    expect(() => assertJsonDepth('[[[]]]', 2)).toThrow(JsonTooDeepError);
  });

  it('leaves malformed JSON to the parser', () => {
    expect(depthError('{"a": ]]]]}}}} [')).toBeUndefined();
  });
});
