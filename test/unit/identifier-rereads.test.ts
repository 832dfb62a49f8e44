import { doubledLookAlike } from '../../infrastructure/documents/read-document';

describe('an identifier one reader gave a character longer', () => {
  it('is a doubled glyph where the extra character is the look-alike of the one beside it', () => {
    expect(doubledLookAlike('ZZBHHO000000001', 'ZZBHH000000001')).toBe(true);
    expect(doubledLookAlike('W1I23456789', 'W123456789')).toBe(true);
  });

  it('is not where the extra character looks like nothing beside it, or where more than one differs', () => {
    expect(doubledLookAlike('ZZBHHX000000001', 'ZZBHH000000001')).toBe(false);
    expect(doubledLookAlike('ZZBHHO000000002', 'ZZBHH000000001')).toBe(false);
    expect(doubledLookAlike('ZZBHH000000001', 'ZZBHH000000001')).toBe(false);
  });
});
