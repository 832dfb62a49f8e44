import { readCard } from '../../domain/payers/insurance-card';
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

  it('keeps the first reader’s O for a 0 though every reread gives the 0: both engines confuse that pair', async () => {
    const engine = scriptedReaders({
      first: [lineOf(wordAt('GROUP', 20, 40, 60), wordAt('NNPO1751', 100, 40, 160))],
      second: [lineOf(wordAt('GROUP', 20, 40, 60), wordAt('NNP01751', 100, 40, 160, 0.99))],
      reread: (kind) => (kind === 'identifier' ? 'NNP01751' : null),
    });
    expect(await firstReadersWords(engine)).toEqual(['GROUP', 'NNPO1751']);
  });

  it('keeps the first reader’s reading where one of its rereads still gives it', async () => {
    const engine = readers((height) => (height === 144 ? 'INH976205923' : 'JNH976205923'));
    expect(await firstReadersWords(engine)).toEqual(['ID', 'INH976205923']);
  });
});

describe('an identifier the second reader split where the first read it whole', () => {
  it('is left unread, the readers disagreeing on GRP12345 against GRP and 12345', async () => {
    const engine = scriptedReaders({
      first: [lineOf(wordAt('Group:', 20, 40, 70), wordAt('GRP12345', 120, 40, 160))],
      second: [
        lineOf(wordAt('Group:', 20, 40, 70), wordAt('GRP', 120, 40, 60), wordAt('12345', 185, 40, 95)),
      ],
    });
    const reading = await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS);
    expect(readCard(reading.pages).card.group_number).toBeNull();
  });
});
