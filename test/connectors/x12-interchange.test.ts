import {
  components,
  readInterchange,
  repetitions,
  X12SyntaxError,
} from '../../infrastructure/connectors/x12/interchange';

/**
 * A small 271 written for these tests, in the standard's layout, with the delimiters given. The
 * envelope counts are right unless a test breaks them.
 */
function interchange(
  delimiters = { element: '*', repetition: '^', component: ':', segment: '~' },
  options: { lineBreaks?: boolean; seCount?: string; ieaControl?: string } = {},
): string {
  const { element: e, repetition: r, component: c, segment: s } = delimiters;
  const isa = [
    'ISA',
    '00',
    '          ',
    '00',
    '          ',
    'ZZ',
    'CLEARINGHOUSE'.padEnd(15),
    'ZZ',
    'HEALTHACCESS'.padEnd(15),
    '261123',
    '0930',
    r,
    '00501',
    '000000905',
    '0',
    'T',
    c,
  ].join(e);
  const transaction = [
    ['ST', '271', '0001', '005010X279A1'],
    ['BHT', '0022', '11', 'TRACE0001', '20261123', '0930'],
    ['HL', '1', '', '20', '1'],
    ['NM1', 'PR', '2', 'BLUE HORIZON HEALTH', '', '', '', '', 'PI', '99999'],
    ['EB', '1', 'IND', `88${r}30`, 'HM', 'PLAN NAME'],
    ['EB', 'B', 'IND', '88', '', '', '27', '10', '', '', '', '', '', `N4${c}00169413512`],
  ];
  const segments = [
    ['GS', 'HB', 'CLEARINGHOUSE', 'HEALTHACCESS', '20261123', '0930', '905', 'X', '005010X279A1'],
    ...transaction,
    ['SE', options.seCount ?? String(transaction.length + 1), '0001'],
    ['GE', '1', '905'],
    ['IEA', '1', options.ieaControl ?? '000000905'],
  ].map((segment) => segment.join(e));
  const end = options.lineBreaks ? `${s}\r\n` : s;
  return `${isa}${end}${segments.join(end)}${end}`;
}

function syntaxErrorOf(text: string): X12SyntaxError {
  try {
    readInterchange(text);
  } catch (error) {
    if (error instanceof X12SyntaxError) return error;
    throw error;
  }
  throw new Error('the interchange was read');
}

describe('reading an X12 interchange', () => {
  it('takes its delimiters from the ISA segment and reads every segment', () => {
    const read = readInterchange(interchange());
    expect(read.delimiters).toEqual({ element: '*', repetition: '^', component: ':', segment: '~' });
    expect(read.controlNumber).toBe('000000905');
    expect(read.segments.map((segment) => segment.id)).toEqual([
      'ISA',
      'GS',
      'ST',
      'BHT',
      'HL',
      'NM1',
      'EB',
      'EB',
      'SE',
      'GE',
      'IEA',
    ]);
  });

  it('reads an interchange with other delimiters and line breaks after each segment the same way', () => {
    const usual = readInterchange(interchange());
    const other = readInterchange(
      interchange({ element: '|', repetition: '!', component: '>', segment: '\n' }, { lineBreaks: false }),
    );
    const broken = readInterchange(interchange(undefined, { lineBreaks: true }));
    for (const read of [other, broken]) {
      expect(read.segments.slice(1).map((segment) => segment.elements.join('/'))).toEqual(
        usual.segments
          .slice(1)
          .map((segment) =>
            segment.elements
              .join('/')
              .replaceAll('^', read.delimiters.repetition)
              .replaceAll(':', read.delimiters.component),
          ),
      );
    }
  });

  it('splits repeating and composite elements with the declared separators', () => {
    const read = readInterchange(
      interchange({ element: '|', repetition: '!', component: '>', segment: '~' }),
    );
    const [coverage, deductible] = read.segments.filter((segment) => segment.id === 'EB');
    expect(repetitions(coverage!.elements[2]!, read.delimiters)).toEqual(['88', '30']);
    expect(components(deductible!.elements[12]!, read.delimiters)).toEqual(['N4', '00169413512']);
  });

  it('refuses text that does not begin with an ISA segment', () => {
    expect(syntaxErrorOf('GS*HB*X~').message).toMatch(/does not begin with an ISA segment/);
  });

  it('refuses an ISA segment cut short', () => {
    expect(syntaxErrorOf(interchange().slice(0, 80)).message).toMatch(/ISA segment is cut short/);
  });

  it('refuses a transaction whose SE01 does not count its segments, without quoting the interchange', () => {
    const error = syntaxErrorOf(interchange(undefined, { seCount: '99' }));
    expect(error.message).toMatch(/SE01 does not count the transaction's 7 segments/);
    expect(error.message).not.toMatch(/BLUE HORIZON|99/);
  });

  it('refuses an IEA that does not repeat the ISA control number', () => {
    expect(syntaxErrorOf(interchange(undefined, { ieaControl: '000000001' })).message).toMatch(
      /IEA02 does not repeat the ISA13 control number/,
    );
  });

  it('is a connector error that trying again will not mend', () => {
    const error = syntaxErrorOf('not x12');
    expect(error).toMatchObject({ name: 'X12SyntaxError', transient: false });
  });

  it('refuses a long run of separators where a segment should begin', () => {
    const hostile = interchange().replace(/IEA\*1\*000000905~$/, `${'*'.repeat(200_000)}~IEA*1*000000905~`);
    expect(syntaxErrorOf(hostile).message).toMatch(/has no valid segment id/);
  });
});
