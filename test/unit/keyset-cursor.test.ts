import { KEYSET_CURSOR, keysetCursor, keysetPosition } from '../../infrastructure/storage/keyset-cursor';

describe('a keyset cursor', () => {
  it('names the microsecond and the id a page ended on', () => {
    expect(keysetPosition('1764350235123456_cas_01jc9w6v3m8k2q5r7t9x1z3b5d')).toEqual({
      at: '2025-11-28T17:17:15.123456Z',
      id: 'cas_01jc9w6v3m8k2q5r7t9x1z3b5d',
    });
  });

  it('keeps the microseconds below a whole millisecond, padded', () => {
    expect(keysetPosition('1000007_x').at).toBe('1970-01-01T00:00:01.000007Z');
  });

  it('reads the largest time its shape allows, which a double still holds exactly', () => {
    expect(keysetPosition('9999999999999999_x').at).toBe('2286-11-20T17:46:39.999999Z');
  });

  it('reads leading zeros as the number they write', () => {
    expect(keysetPosition('0000000000000001_evt_1').at).toBe('1970-01-01T00:00:00.000001Z');
  });

  it('is written the way it is read', () => {
    const cursor = keysetCursor('1764350235123456', 'aud_01jc9w6v3m8k2q5r7t9x1z3b5d');
    expect(KEYSET_CURSOR.test(cursor)).toBe(true);
    expect(keysetPosition(cursor)).toEqual({
      at: '2025-11-28T17:17:15.123456Z',
      id: 'aud_01jc9w6v3m8k2q5r7t9x1z3b5d',
    });
  });

  it.each([
    ['', 'empty'],
    ['0', 'a time with no id'],
    ['_cas_1', 'an id with no time'],
    ['17643502351234567_cas_1', 'seventeen digits'],
    ['-1_cas_1', 'a negative time'],
    ['1764350235123456_cas-1', 'an id with a hyphen'],
    ['eyJhIjoxfQ', 'a sealed cursor of the old kind'],
  ])('has a shape that %j (%s) does not fit', (cursor) => {
    expect(KEYSET_CURSOR.test(cursor)).toBe(false);
  });
});
