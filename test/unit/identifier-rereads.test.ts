import { doubledLookAlike, readDocument } from '../../infrastructure/documents/read-document';
import { DEFAULT_READING_LIMITS } from '../../infrastructure/documents/reading-limits';
import { blankPage, lineOf, scriptedReaders, wordAt } from '../support/scripted-readers';

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

describe('an identifier the first reader garbled with the print around it', () => {
  it('is read again, and its reading takes the place of the unsure garble over it', async () => {
    const engine = scriptedReaders({
      first: [lineOf(wordAt('RXBIN', 20, 40, 80), wordAt('2858', 10, 80, 250, 0.39))],
      second: [lineOf(wordAt('RXBIN', 20, 40, 80)), lineOf(wordAt('228758', 30, 80, 120, 0.99))],
      reread: (kind) => (kind === 'identifier' ? '228758' : null),
    });
    const reading = await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS);
    const firstReadersWords = reading.pages[0].lines.flatMap((line) => line.words.map((word) => word.text));
    expect(firstReadersWords).toEqual(['RXBIN', '228758']);
  });
});

describe('an identifier the readers read a character apart', () => {
  const readers = (reread: (height: number | undefined) => string) =>
    scriptedReaders({
      first: [lineOf(wordAt('ID', 20, 40, 30), wordAt('INH976205923', 80, 40, 200))],
      second: [lineOf(wordAt('ID', 20, 40, 30), wordAt('JNH976205923', 80, 40, 200, 0.99))],
      reread: (kind, height) => (kind === 'identifier' ? reread(height) : null),
    });
  const firstReadersWords = async (engine: ReturnType<typeof scriptedReaders>) =>
    (await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS)).pages[0].lines.flatMap((line) =>
      line.words.map((word) => word.text),
    );

  it('takes the second reader’s reading where the first, reading the line alone, gives it at every size', async () => {
    expect(await firstReadersWords(readers(() => 'JNH976205923'))).toEqual(['ID', 'JNH976205923']);
  });

  it('keeps the first reader’s reading where one of its rereads still gives it', async () => {
    const engine = readers((height) => (height === 144 ? 'INH976205923' : 'JNH976205923'));
    expect(await firstReadersWords(engine)).toEqual(['ID', 'INH976205923']);
  });
});
