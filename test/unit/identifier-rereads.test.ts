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

describe('a value printed in capitals the readers read a letter apart', () => {
  /** The PCN read where Tesseract's page gives `first`, PP-OCR `second`, and the line read alone `reread`. */
  const pcnRead = async (first: string, second: string, reread: (height: number | undefined) => string) => {
    const engine = scriptedReaders({
      first: [lineOf(wordAt('PCN', 20, 40, 50), wordAt(first, 100, 40, 120))],
      second: [lineOf(wordAt('PCN', 20, 40, 50), wordAt(second, 100, 40, 120, 0.99))],
      reread: (kind, height) => (kind === 'identifier' ? reread(height) : null),
    });
    const reading = await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS);
    return readCard(reading.pages).card.rx_pcn?.value ?? null;
  };

  it('takes the second reader’s letters where the first gave a bracket and the line read alone agrees', async () => {
    expect(await pcnRead('GT]JTN', 'GTJTN', () => 'GTJTN')).toBe('GTJTN');
  });

  it('takes them where the first reader’s bracket ends the word, two of three rereads agreeing', async () => {
    expect(await pcnRead('YD)', 'YDJ', (height) => (height === 144 ? 'YD' : 'YDJ'))).toBe('YDJ');
  });

  it.each([
    ['ending', 'NV]', 'NVJ'],
    ['within', 'Y)BBAAA', 'YJBBAAA'],
  ])(
    'takes the second reader’s J where the first gave a closing bracket for it %s the word, whatever the rereads give',
    async (_where, first, second) => {
      expect(await pcnRead(first, second, () => second.replace('J', ''))).toBe(second);
    },
  );

  it.each([
    ['another letter', 'NV]', 'NVI'],
    ['a J and another letter besides', 'NX]', 'NVJ'],
    ['a J, with an opening bracket', 'NV[', 'NVJ'],
  ])('is left unread where the first gave a bracket and the second %s', async (_what, first, second) => {
    expect(await pcnRead(first, second, () => 'NV')).toBeNull();
  });

  it('is left unread where the line read alone gives other letters', async () => {
    expect(await pcnRead('GT]JTN', 'GTJTN', () => 'GTIJTN')).toBeNull();
  });

  it('takes the second reader’s letter where the line read alone gives it at every size', async () => {
    expect(await pcnRead('DJKUIYN', 'DJKUJYN', () => 'DJKUJYN')).toBe('DJKUJYN');
  });

  it('is left unread where one size of the line read alone still gives the first reader’s letter', async () => {
    expect(
      await pcnRead('DJKUIYN', 'DJKUJYN', (height) => (height === 64 ? 'DJKUIYN' : 'DJKUJYN')),
    ).toBeNull();
  });

  it('is left unread where the characters are a pair both engines confuse', async () => {
    expect(await pcnRead('ABO', 'AB0', () => 'AB0')).toBeNull();
  });
});

describe('an identifier the first reader boxed wider than the second', () => {
  /** The first reader's words where it boxed `first` from x 90 to 350 and the second `second` from 100 to 220. */
  const firstReadersWords = async (first: string, second: string, reread: string) => {
    const engine = scriptedReaders({
      first: [lineOf(wordAt('RxGRP', 20, 40, 60), wordAt(first, 90, 40, 260))],
      second: [lineOf(wordAt('RxGRP', 20, 40, 60), wordAt(second, 100, 40, 120, 0.99))],
      reread: (kind) => (kind === 'identifier' ? reread : null),
    });
    const reading = await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS);
    return reading.pages[0].lines.flatMap((line) => line.words);
  };

  it('replaces the wider reading where the rereads give the second reader’s value, never keeping both', async () => {
    const words = await firstReadersWords('RX336', 'RX3316', 'RX3316');
    expect(words.map((word) => word.text)).toEqual(['RxGRP', 'RX3316']);
  });

  it('keeps the wider reading alone where it differs by a pair both engines confuse', async () => {
    const words = await firstReadersWords('RX5188', 'RXS188', 'RXS188');
    expect(words.map((word) => word.text)).toEqual(['RxGRP', 'RX5188']);
  });

  it('keeps the wider reading alone where it ends in a bracket, which may be the rule beside it', async () => {
    const words = await firstReadersWords('GT]', 'GTJ', 'GTI');
    expect(words.map((word) => word.text)).toEqual(['RxGRP', 'GT]']);
  });

  it('keeps a value read alike as the first reader boxed it, whatever its wider box holds', async () => {
    const words = await firstReadersWords('246192', '246192', '246192');
    expect(words.map((word) => [word.text, word.box.left, word.box.width])).toEqual([
      ['RxGRP', 20, 60],
      ['246192', 90, 260],
    ]);
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
