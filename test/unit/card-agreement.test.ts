import { runsOn } from '../../domain/payers/card-agreement';
import { readCard } from '../../domain/payers/insurance-card';
import type { ReadLine } from '../../domain/documents/document-reading';
import { face, readTwice } from '../support/read-pages';

const valuesOf = (reading: ReturnType<typeof readCard>) =>
  Object.fromEntries(
    Object.entries(reading.card).flatMap(([field, value]) => (value ? [[field, value.value]] : [])),
  );

describe('a card read by two readers', () => {
  it('returns an identifier both readers read in the same place, as read twice', () => {
    const reading = readCard([readTwice(['Member ID: W123456789'], ['Member ID: W123456789'])]);
    expect(reading.card.member_id).toMatchObject({ value: 'W123456789', readers: 2 });
  });

  it('returns an identifier both read alike even where the first reader was unsure of it', () => {
    const page = readTwice(['ID: ZZBHH000000001'], ['ID: ZZBHH000000001'], { first: 0.31, second: 0.97 });
    expect(readCard([page]).card.member_id).toMatchObject({ value: 'ZZBHH000000001', readers: 2 });
  });

  it('leaves unread an identifier the readers read differently, and keeps both readings for the reviewer', () => {
    const reading = readCard([readTwice(['Group: GRP48213D'], ['Group: GRP48213I'])]);
    expect(reading.card.group_number).toBeNull();
    expect(reading.unreadReasons.group_number).toBe('readers_disagree');
    expect(reading.disagreements).toEqual([{ field: 'group_number', readings: ['GRP48213D', 'GRP48213I'] }]);
  });

  it('never returns a value one reader saw cut short where the other saw it whole', () => {
    const reading = readCard([readTwice(['RxPCN: MEDD'], ['RxPCN: MEDDPRIME'])]);
    expect(reading.card.rx_pcn).toBeNull();
    expect(reading.unreadReasons.rx_pcn).toBe('readers_disagree');
  });

  it.each([
    ['a letter too many', 'RXxGrp RX4567', 'RxGrp RX4567'],
    ['a zero for its O', 'RxGroup RX4567', 'RxGr0up RX4567'],
  ])(
    'returns an identifier beside a label one reader misread with %s, where the other read the label',
    (_how, first, second) => {
      const reading = readCard([readTwice([first], [second])]);
      expect(reading.card.rx_group).toMatchObject({ value: 'RX4567', readers: 2 });
    },
  );

  it('never excuses print running on from an identifier as a label where it holds more than the label', () => {
    const reading = readCard([readTwice(['ID: 12345678 9GRP 55'], ['ID: 12345678  GRP 55'])]);
    expect(reading.card.member_id).toBeNull();
    expect(reading.unreadReasons.member_id).toBe('readers_disagree');
  });

  it.each([
    ['EEE 815169', 'BIN 815169', 'rx_bin', '815169'],
    ['Rx’CN DHKXTRKK', 'RxPCN DHKXTRKK', 'rx_pcn', 'DHKXTRKK'],
  ] as const)(
    "returns an identifier beside what one reader misread (%s) where the other read the field's label (%s)",
    (first, second, field, value) => {
      const reading = readCard([readTwice([first], [second])]);
      expect(reading.card[field]).toMatchObject({ value, readers: 2 });
    },
  );

  it("never excuses a word holding a digit, in the field's label's place, as that label misread", () => {
    const reading = readCard([readTwice(['EE8 815169'], ['BIN 815169'])]);
    expect(reading.card.rx_bin).toBeNull();
    expect(reading.unreadReasons.rx_bin).toBe('readers_disagree');
  });

  it('never returns an identifier the other reader saw run on past its end', () => {
    const reading = readCard([readTwice(['ID: XJK 482 119 730'], ['ID: XJK 482 119 730 5'])]);
    expect(reading.card.member_id).toBeNull();
    expect(reading.unreadReasons.member_id).toBe('readers_disagree');
  });

  it('returns a member id the card wrapped onto a second line after a dash whole, never cut at the dash', () => {
    const printed = [
      'Identification Number: 787-67-   GROUP NUMBER:',
      '8385-51                          VYE68633',
    ];
    const reading = readCard([readTwice(printed, printed)]);
    expect(reading.card.member_id).toMatchObject({ value: '787-67-8385-51', readers: 2 });
    expect(reading.card.group_number?.value).toBe('VYE68633');
  });

  it.each([
    ['a phone line', 'member_id', ['Member ID: 830-97-8752-', '1-800-555-0199 Member Services']],
    [
      'a phone line under an id below its label',
      'member_id',
      ['Member ID', '830-97-8752-', '555-0199 Customer Service'],
    ],
    ['a date', 'group_number', ['Group: 4471-', '01-01-2025 Effective']],
    [
      "another column's value",
      'member_id',
      ['Group Number         Member ID: 830-97-8752-', '07666                Name: JANE DOE'],
    ],
  ] as const)(
    'never joins an id ending in a dash, cut by a crop edge, with %s on the line below',
    (_what, field, printed) => {
      const reading = readCard([readTwice([...printed], [...printed])]);
      expect(reading.card[field]).toBeNull();
    },
  );

  it('leaves unread a member id wrapped after a dash whose second part only one reader read', () => {
    const reading = readCard([
      readTwice(['Identification Number: 787-67-', '8385-51'], ['Identification Number: 787-67-', '']),
    ]);
    expect(reading.card.member_id).toBeNull();
  });

  it('never returns a grouped member id the card wrapped onto a second line where a group began', () => {
    const printed = [
      'Identification Number: MEC 847 899   GROUP NUMBER:',
      '484                                07666',
    ];
    const reading = readCard([readTwice(printed, printed)]);
    expect(reading.card.member_id).toBeNull();
  });

  it("returns a member id with a stray digit under the print left of its label's block, no wrap of it", () => {
    const printed = ['Ra     ID: W472542224', '2  bt'];
    const reading = readCard([readTwice(printed, printed)]);
    expect(reading.card.member_id).toMatchObject({ value: 'W472542224', readers: 2 });
  });

  it("returns a member id whose next line begins with another field's label", () => {
    const printed = ['Member ID: MEC 847 899', 'Group: 07666'];
    const reading = readCard([readTwice(printed, printed)]);
    expect(reading.card.member_id).toMatchObject({ value: 'MEC847899', readers: 2 });
  });

  it.each([
    ['ID NO.                   HSC82309', 'YCM 828 298 869', 'YCM828298869'],
    ['MEMBER NUMBER        85628', 'U6796040354', 'U6796040354'],
  ])(
    'takes no value for a label from print across the card on its row, and reads the value under it (%s)',
    (row, under, value) => {
      const reading = readCard([readTwice([row, under], [row, under])]);
      expect(reading.card.member_id).toMatchObject({ value, readers: 2 });
    },
  );

  it('leaves unread an identifier only one reader read at all', () => {
    const reading = readCard([readTwice(['Member ID: W123456789'], [''])]);
    expect(reading.card.member_id).toBeNull();
    expect(reading.unreadReasons.member_id).toBe('below_threshold');
  });

  it('returns a name only one reader read, on its own threshold, as read once', () => {
    const reading = readCard([readTwice(['Name: JANE Q SAMPLE', 'ID: W123456789'], ['', 'ID: W123456789'])]);
    expect(reading.card.member_name).toMatchObject({ value: 'JANE Q SAMPLE', readers: 1 });
  });

  it.each(['MARIAA COHEN', 'TOMAS ARIVERA'])(
    'leaves unread a name only one reader read as %s, where an initial may be run in',
    (name) => {
      const reading = readCard([readTwice(['', 'ID: W123456789'], [`Name: ${name}`, 'ID: W123456789'])]);
      expect(reading.card.member_name).toBeNull();
      expect(reading.unreadReasons.member_name).toBe('below_threshold');
    },
  );

  it.each([
    ['a middle initial', 'JORDAN A RIVERA', 'JORDANA RIVERA'],
    ['two names', 'PRIYA MORENO', 'PRIYAMORENO'],
  ])('takes the first reader’s spaces in a name where the second ran %s together', (_what, first, second) => {
    const reading = readCard([readTwice([`Name: ${first}`], [`Name: ${second}`])]);
    expect(reading.card.member_name).toMatchObject({ value: first, readers: 2 });
  });

  it('never takes a space in a name that only the second reader saw', () => {
    const reading = readCard([readTwice(['Name: JORDANA RIVERA'], ['Name: JORDAN A RIVERA'])]);
    expect(reading.card.member_name).toBeNull();
    expect(reading.unreadReasons.member_name).toBe('readers_disagree');
  });

  it('leaves unread a name whose only spaces the first reader saw, a word of it led by an A', () => {
    const reading = readCard([readTwice(['Name: TOMAS ARIVERA'], ['Name: TOMASARIVERA'])]);
    expect(reading.card.member_name).toBeNull();
  });

  it("takes the first reader's spaces in a name the second ran together, its initial standing alone", () => {
    const reading = readCard([readTwice(['Name: DEVON A BAPTISTE'], ['Name: DEVONABAPTISTE'])]);
    expect(reading.card.member_name).toMatchObject({ value: 'DEVON A BAPTISTE', readers: 2 });
  });

  it('leaves unread a name in capitals and small letters read with its initial run into the word before', () => {
    const reading = readCard([readTwice(['', 'ID: W123456789'], ['Name: CaseyA Morgan', 'ID: W123456789'])]);
    expect(reading.card.member_name).toBeNull();
  });

  it('never takes the spaces of a word the first reader parted closer than a space stands', () => {
    const page = readTwice(['Name: DEVON R MORGAN'], ['Name: DEVON R MORGAN']);
    const [label, , initial, family] = page.lines[0].words;
    const part = (text: string, left: number, width: number) => ({
      text,
      confidence: 0.96,
      box: { left, top: 0, width, height: 1 },
    });
    const parted = [label, part('D', 6, 0.9), part('EV', 7, 1.9), part('ON', 9, 2), initial, family];
    page.lines[0] = { ...page.lines[0], words: parted };
    const reading = readCard([page]);
    expect(reading.card.member_name).toBeNull();
  });

  describe('where the second reader saw a space of the name too', () => {
    /** `Name: JOHN SA MPLE` as the first reader boxed it: `SA` and `MPLE` set `apart` heights apart. */
    const partedWithin = (apart: number) => {
      const page = readTwice(['Name: JOHN SA MPLE'], ['Name: JOHN SAMPLE']);
      const [label, given, start, end] = page.lines[0].words;
      const moved = { ...end, box: { ...end.box, left: start.box.left + start.box.width + apart } };
      page.lines[0] = { ...page.lines[0], words: [label, given, start, moved] };
      return page;
    };

    it('never takes a space only the first reader saw that is much narrower than the one both saw', () => {
      const reading = readCard([partedWithin(0.4)]);
      expect(reading.card.member_name).toBeNull();
      expect(reading.unreadReasons.member_name).toBe('readers_disagree');
    });

    it('takes a space only the first reader saw that is as wide as the one both saw', () => {
      const reading = readCard([partedWithin(0.9)]);
      expect(reading.card.member_name).toMatchObject({ value: 'JOHN SA MPLE', readers: 2 });
    });
  });

  it('never takes a space the first reader put between parts of a word it found on two lines', () => {
    const page = readTwice(['Name: LUIS R LINDQVI ST'], ['Name: LUIS R LINDQVIST']);
    const end = page.lines[0].words.pop()!;
    page.lines.push({ words: [end], box: end.box });
    const reading = readCard([page]);
    expect(reading.card.member_name).toBeNull();
    expect(reading.unreadReasons.member_name).toBe('readers_disagree');
  });

  it.each(['MARIAA NGUYEN', 'ANNAA W RIVERA'])(
    'leaves unread a name both read as %s, where a word ends as a name and an initial run together would',
    (name) => {
      const reading = readCard([readTwice([`Name: ${name}`], [`Name: ${name}`])]);
      expect(reading.card.member_name).toBeNull();
      expect(reading.unreadReasons.member_name).toBe('below_threshold');
    },
  );

  it('leaves unread a name printed family name first whose initial both readers ran in', () => {
    const reading = readCard([readTwice(['Name: NGUYEN, MARIAA'], ['Name: NGUYEN, MARIAA'])]);
    expect(reading.card.member_name).toBeNull();
  });

  it('returns a name whose words end in a doubled letter other than A, V, W or Y', () => {
    const reading = readCard([readTwice(['Name: ROSS A HALL'], ['Name: ROSS A HALL'])]);
    expect(reading.card.member_name).toMatchObject({ value: 'ROSS A HALL', readers: 2 });
  });

  it('never agrees on a name where one reader read a zero and the other an O, which may be a Q', () => {
    const reading = readCard([readTwice(['Name: 0UINN BAKER'], ['Name: OUINN BAKER'])]);
    expect(reading.card.member_name).toBeNull();
  });

  it('never agrees on a name the readers split in different places', () => {
    const reading = readCard([readTwice(['Name: MAR YANN RIVERA'], ['Name: MARY ANN RIVERA'])]);
    expect(reading.card.member_name).toBeNull();
  });

  it('blames glare for a field whose value the glare washed out, and keeps the reasons of fields clear of it', () => {
    const page = {
      ...readTwice(
        ['Member ID: W123456789', 'Group:', 'RxBIN: 610014'],
        ['Member ID: W123456789', 'Group:', 'RxBIN: 61001'],
      ),
      glare: [{ left: 8, top: 1, width: 10, height: 1 }],
    };
    const reading = readCard([page]);
    expect(reading.unreadReasons.group_number).toBe('glare');
    expect(reading.unreadReasons.rx_bin).toBe('readers_disagree');
    expect(reading.card.member_id?.value).toBe('W123456789');
  });

  it('says a field no reader found was not found', () => {
    const reading = readCard([readTwice(['Member ID: W123456789'], ['Member ID: W123456789'])]);
    expect(reading.unreadReasons.rx_bin).toBe('not_found');
  });

  it('reads a pharmacy table the first reader read only as the second found it, labels over values', () => {
    const reading = readCard([
      readTwice(
        ['ID: W123456789', 'RXBIN    RXPCN      RXGRP', '610014   MEDDPRIME  RX4410'],
        ['ID: W123456789', 'RXBIN    RXPCN      RXGRP', '610014   MEDDPRIME  RX4410'],
      ),
    ]);
    expect(valuesOf(reading)).toMatchObject({ rx_bin: '610014', rx_pcn: 'MEDDPRIME', rx_group: 'RX4410' });
  });

  it('reads a pharmacy table whose cells stand closer than a letter, each cell its own value', () => {
    const reading = readCard([
      readTwice(
        ['ID: W123456789', 'RXBIN  RXPCN     RXGRP', '610014 MEDDPRIME RX4410'],
        ['ID: W123456789', 'RXBIN  RXPCN     RXGRP', '610014 MEDDPRIME RX4410'],
      ),
    ]);
    expect(valuesOf(reading)).toMatchObject({ rx_bin: '610014', rx_pcn: 'MEDDPRIME', rx_group: 'RX4410' });
  });

  it('never takes a label the other reader read as a label for a value', () => {
    const reading = readCard([
      readTwice(['ID: W123456789', "RXPCN 'RXGRP"], ['ID: W123456789', 'RXPCN RXGRP']),
    ]);
    expect(reading.card.rx_pcn).toBeNull();
  });

  it('reads labels the only reader of them gave without their spaces, over their values', () => {
    const reading = readCard([
      readTwice(
        ['', 'W123456789         48213'],
        ['MEMBERNUMBER       GROUPNUMBER', 'W123456789         48213'],
      ),
    ]);
    expect(valuesOf(reading)).toMatchObject({ member_id: 'W123456789', group_number: '48213' });
  });

  it('looks below a label for its value when only a stray mark stands beside it, the other reader reading no label', () => {
    const reading = readCard([readTwice(['MEMBER NUMBER (', '865-96-8010-95'], ['', '865-96-8010-95'])]);
    expect(reading.card.member_id?.value).toBe('865-96-8010-95');
  });

  it('reads a table heading whose first label the only reader of it read with the rule stuck to it, by its label', () => {
    const reading = readCard([
      readTwice(['TRXBIN  RXPCN     RXGRP', '610014  MEDDPRIME RX4410'], ['', '610014  MEDDPRIME RX4410']),
    ]);
    expect(reading.card.rx_bin?.value).toBe('610014');
    expect(reading.card.rx_bin?.inferred).toBeUndefined();
  });

  it('reads an ID label whose I the only reader of it read as a one', () => {
    const reading = readCard([readTwice(['ENROLLEE 1D', 'W123456789'], ['', 'W123456789'])]);
    expect(reading.card.member_id?.value).toBe('W123456789');
  });

  it.each([
    ['an RxBIN', 'rx_bin', 'RxBIN  888761', '   RxBin888761', '888761'],
    ['a PCN', 'rx_pcn', 'PCN  AVGM', '  PCNAVGM', 'AVGM'],
  ] as const)(
    'reads %s the other reader ran its own label into, as both read it',
    (_what, field, first, second, value) => {
      const reading = readCard([readTwice([first], [second])]);
      expect(reading.card[field]).toMatchObject({ value, readers: 2 });
    },
  );

  it('reads the RxGroup under a BIN whose GRP the other reader ran into it, as both read it', () => {
    const reading = readCard([
      readTwice(['BIN 354796  RxPcn ZCMYDBXF', 'GRP RX6493'], ['BIN354796  RxPcnZCMYDBXF', 'GRPRX6493']),
    ]);
    expect(reading.card.rx_group).toMatchObject({ value: 'RX6493', readers: 2 });
  });

  it('leaves unread a PCN whose reading after the label the other reader ran in differs', () => {
    const reading = readCard([readTwice(['PCN  AVGM'], ['  PCNAVCM'])]);
    expect(reading.card.rx_pcn).toBeNull();
    expect(reading.unreadReasons.rx_pcn).toBe('readers_disagree');
  });
});

describe('member ids of every common shape', () => {
  const memberIdOf = (printed: string) =>
    readCard([readTwice([`Member ID: ${printed}`], [`Member ID: ${printed}`])]).card.member_id?.value ?? null;

  it.each([
    ['all digits', '123456789', '123456789'],
    ['one letter then digits', 'W123456789', 'W123456789'],
    ['a U and digits', 'U4411207301', 'U4411207301'],
    ['a three-letter prefix', 'XJK482119730', 'XJK482119730'],
    ["the sandbox's ZZ and payer code", 'ZZBHH000000001', 'ZZBHH000000001'],
    ['a prefix and digits in groups', 'XJK 482 119 730', 'XJK482119730'],
    ['digits in groups', '123 456 789 01', '12345678901'],
    ['dashes as printed', '884-22-1937-00', '884-22-1937-00'],
  ])('reads %s', (_shape, printed, expected) => {
    expect(memberIdOf(printed)).toBe(expected);
  });

  it('still refuses a name run into the id beside it', () => {
    expect(memberIdOf('HALVORSENR30784084')).toBeNull();
  });
});

describe('print running on from a value', () => {
  const line = (texts: Array<[string, number]>) => ({
    words: texts.map(([text, left]) => ({
      text,
      confidence: 1,
      box: { left, top: 0, width: text.length, height: 1 },
    })),
    box: { left: 0, top: 0, width: 40, height: 1 },
  });
  const isLabel = (word: { text: string }) => word.text.endsWith(':');
  const region = { left: 8, top: 0, width: 11, height: 1 };

  it('sees letters printed just before the value, as in an id whose prefix was lost', () => {
    expect(
      runsOn(
        [
          line([
            ['ID:', 0],
            ['XJK', 4],
            ['482', 8],
            ['119', 12],
            ['730', 16],
          ]),
        ],
        region,
        'member_id',
        isLabel,
      ),
    ).toBe(true);
  });

  it('sees a group printed just after the value', () => {
    expect(
      runsOn(
        [
          line([
            ['482', 8],
            ['119', 12],
            ['730', 16],
            ['5', 20],
          ]),
        ],
        region,
        'member_id',
        isLabel,
      ),
    ).toBe(true);
  });

  const groupAfter = (field: 'member_id' | 'rx_pcn') =>
    runsOn(
      [
        line([
          ['482', 8],
          ['119', 12],
          ['730', 16],
          ['622', 20.3],
        ]),
      ],
      region,
      field,
      isLabel,
    );

  it("sees a member id's group printed letter-spaced, 1.3 heights after the value", () => {
    expect(groupAfter('member_id')).toBe(true);
  });

  it("takes print 1.3 heights after a pharmacy code for the next cell, not the code's end", () => {
    expect(groupAfter('rx_pcn')).toBe(false);
  });

  it('takes no label and nothing far off for a continuation', () => {
    expect(
      runsOn(
        [
          line([
            ['ID:', 4],
            ['482', 8],
            ['119', 12],
            ['730', 16],
            ['JANE', 30],
          ]),
        ],
        region,
        'member_id',
        isLabel,
      ),
    ).toBe(false);
  });
});

describe('a label the readers read differently', () => {
  it('leaves unread a value one reader labels as another field', () => {
    const reading = readCard([
      readTwice(
        ['Member #: U9134238179   GROUP ID: BPD95757'],
        ['Member #: U9134238179   GR0UP ID: BPD95757'],
      ),
    ]);
    expect(reading.card.member_id?.value).toBe('U9134238179');
    expect(reading.card.group_number).toBeNull();
  });
});

describe('names read twice', () => {
  it('never agrees on a payer name where one reader saw a stray mark the other did not', () => {
    const reading = readCard([
      readTwice(
        ['Payer: Prairie State 3 Insurance', 'ID: W123456789'],
        ['Payer: Prairie State Insurance', 'ID: W123456789'],
      ),
    ]);
    expect(reading.card.payer_name).toBeNull();
  });

  it('never returns a payer name cut short where the other reader read a word running on from it', () => {
    const reading = readCard([
      readTwice(
        ['Payer: Prairie State', 'ID: W123456789'],
        ['Payer: Prairie State Insurance', 'ID: W123456789'],
      ),
    ]);
    expect(reading.card.payer_name).toBeNull();
    expect(reading.unreadReasons.payer_name).toBe('readers_disagree');
  });

  it("returns a name whose label one reader boxed reaching over the name's start, as in a tilted photo", () => {
    const page = readTwice(['ENROLLEE', '      MARIA L RIVERA'], ['ENROLLEE', '      MARIA L RIVERA']);
    const [label, name] = page.lines;
    const tilted = label.words.map((word) => ({ ...word, box: { ...word.box, top: 0.6 } }));
    const reading = readCard([{ ...page, lines: [{ ...label, words: tilted }, name] }]);
    expect(reading.card.member_name).toMatchObject({ value: 'MARIA L RIVERA', readers: 2 });
  });

  it("returns a name beside its label where one reader misread the label's colon", () => {
    const reading = readCard([readTwice(['Subscriber; CASEY L NGUYEN'], ['Subscriber: CASEY L NGUYEN'])]);
    expect(reading.card.member_name).toMatchObject({ value: 'CASEY L NGUYEN', readers: 2 });
  });

  it('agrees on a name whatever its punctuation', () => {
    const reading = readCard([readTwice(['Name: CASEY L. MORGAN'], ['Name: CASEY L MORGAN'])]);
    expect(reading.card.member_name).toMatchObject({ readers: 2 });
  });
});

describe('a label run into its value', () => {
  it('reads the value of a word that joins its label and value, as one reader gives it', () => {
    const reading = readCard([readTwice(['Group Number: 0012345'], ['Group Number:0012345'])]);
    expect(reading.card.group_number).toMatchObject({ value: '0012345', readers: 2 });
  });
});

describe("a payer's name printed without a label", () => {
  it('is the largest lettering as the first reader measures it, read alike by both', () => {
    const front = readTwice(
      ['Lakeshore Mutual', 'Secondary Rx', 'ID: W246813579'],
      ['Lakeshore Mutual', 'Secondary Rx', 'ID: W246813579'],
    );
    const [payer, plan, id] = front.lines;
    const taller = {
      ...payer,
      words: payer.words.map((word) => ({ ...word, box: { ...word.box, height: 1.2 } })),
    };
    expect(readCard([{ ...front, lines: [taller, plan, id] }]).card.payer_name).toMatchObject({
      value: 'Lakeshore Mutual',
      readers: 2,
    });
  });

  it("is never a small label whose line a reader stretched with a card edge's stroke", () => {
    const front = readTwice(
      ['Northwind Health', 'ENROLLEE |', 'PRIYA M MORGAN', 'ID: W246813579'],
      ['Northwind Health', 'ENROLLEE', 'PRIYA M MORGAN', 'ID: W246813579'],
    );
    const [payer, label, name, id] = front.lines;
    const [enrollee, stroke] = label.words;
    const edge = { ...stroke, box: { ...stroke.box, top: 0.5, height: 2.5 } };
    const stretched = { words: [enrollee, edge], box: { ...label.box, top: 0.5, height: 2.5 } };
    expect(readCard([{ ...front, lines: [payer, stretched, name, id] }]).card.payer_name?.value).toBe(
      'Northwind Health',
    );
  });

  it('is the largest lettering both readers saw, not desk marks taller than it that the first read alone', () => {
    const front = readTwice(
      ['                   oN', 'Lakeshore Health', 'ID: W246813579'],
      ['', 'Lakeshore Health', 'ID: W246813579'],
    );
    const [marks, payer, id] = front.lines;
    const tall = {
      words: marks.words.map((word) => ({ ...word, confidence: 0.26, box: { ...word.box, height: 2 } })),
      box: { ...marks.box, height: 2 },
    };
    expect(readCard([{ ...front, lines: [tall, payer, id] }]).card.payer_name).toMatchObject({
      value: 'Lakeshore Health',
      readers: 2,
    });
  });

  it("is the title above an `ID #` label, not a label's line whose descender stands taller than it", () => {
    const printed = [
      'Lakeshore Health Alliance',
      'Name ANNA M MORGAN',
      'ID # KTK493412519',
      'Group VSH58451',
      'BIN 499498 RxPCN BJDZ',
    ];
    const front = readTwice(printed, printed);
    const [payer, name, id, group, pharmacy] = front.lines;
    const title = {
      ...payer,
      words: payer.words.map((word) => ({ ...word, box: { ...word.box, height: 1.25 } })),
    };
    const [label, value] = group.words;
    const groupWithDescender = {
      ...group,
      words: [{ ...label, box: { ...label.box, top: 2.7, height: 1.3 } }, value],
    };
    const lines = [title, name, id, groupWithDescender, pharmacy];
    expect(readCard([{ ...front, lines }]).card.payer_name).toMatchObject({
      value: 'Lakeshore Health Alliance',
      readers: 2,
    });
  });

  it('is read whole where the first reader gave its words as lines of their own on one row', () => {
    const front = readTwice(['Harbor Mutual', 'ID: W246813579'], ['Harbor Mutual', 'ID: W246813579']);
    const [title, id] = front.lines;
    const [harbor, mutual] = title.words;
    const lines = [mutual, harbor].map((word) => ({ words: [word], box: word.box }));
    expect(readCard([{ ...front, lines: [...lines, id] }]).card.payer_name).toMatchObject({
      value: 'Harbor Mutual',
      readers: 2,
    });
  });

  it("is read without a plan's tier printed close after it", () => {
    const printed = ['Harbor Mutual Gold 1500', 'ID: W246813579'];
    expect(readCard([readTwice(printed, printed)]).card.payer_name?.value).toBe('Harbor Mutual');
  });

  it("is read without a plan's tier and deductible printed far to its right", () => {
    const printed = ['Harbor Mutual              Gold 1500', 'ID: W246813579'];
    expect(readCard([readTwice(printed, printed)]).card.payer_name?.value).toBe('Harbor Mutual');
  });

  it("keeps a plan word that ends a payer's own name", () => {
    const printed = ['Blue Care Network', 'ID: W246813579'];
    expect(readCard([readTwice(printed, printed)]).card.payer_name?.value).toBe('Blue Care Network');
  });

  it('is never what is left of a tier and its deductible standing alone as the tallest line', () => {
    const printed = ['Gold 1500', 'ID: W246813579'];
    expect(readCard([readTwice(printed, printed)]).card.payer_name).toBeNull();
  });

  it('is unread, not the next line, where the first reader was all but unsure of the title', () => {
    const front = readTwice(
      ['Lakeshore Health Alliance', 'Secondary Rx', 'ID: W246813579'],
      ['Lakeshore Health Alliance', 'Secondary Rx', 'ID: W246813579'],
    );
    const [title, tagline, id] = front.lines;
    const unsureTitle = {
      ...title,
      words: title.words.map((word) => ({
        ...word,
        confidence: 0.1,
        box: { ...word.box, top: -0.3, height: 1.3 },
      })),
    };
    expect(readCard([{ ...front, lines: [unsureTitle, tagline, id] }]).card.payer_name).toBeNull();
  });

  it("keeps a title's own last word that plans also print", () => {
    const printed = ['Tufts Health Plan', 'ID: W246813579'];
    expect(readCard([readTwice(printed, printed)]).card.payer_name?.value).toBe('Tufts Health Plan');
  });

  it('is never the marks the first reader made of a rule across the title, boxed taller than it', () => {
    const front = readTwice(
      ['Lakeshore Health Alliance', 'CRORE TVS PVIIATICE', 'ID: W246813579'],
      ['Lakeshore Health Alliance', '', 'ID: W246813579'],
    );
    const [title, marks, id] = front.lines;
    const overTheTitle = {
      words: marks.words.map((word) => ({
        ...word,
        confidence: 0.04,
        box: { ...word.box, top: -0.5, height: 1.8 },
      })),
      box: { ...marks.box, top: -0.5, height: 1.8 },
    };
    expect(readCard([{ ...front, lines: [title, overTheTitle, id] }]).card.payer_name).toMatchObject({
      value: 'Lakeshore Health Alliance',
      readers: 2,
    });
  });

  it('is never print beside a label the first reader misread and the second read', () => {
    const front = readTwice(
      [
        'Subscriber Na  MARIA M MORGAN',
        '                                PCPS25',
        '\\dentification Number  W246813579',
      ],
      [
        'Subscriber Nane  MARIA M MORGAN',
        '                                PCPS25',
        'Identification Number  W246813579',
      ],
    );
    const copayLevelWithLabel = (line: ReadLine) => ({
      words: line.words.map((word) => ({ ...word, box: { ...word.box, top: 1.2, height: 1.5 } })),
      box: { ...line.box, top: 1.2, height: 1.5 },
    });
    const reading = readCard([
      {
        ...front,
        lines: [front.lines[0], copayLevelWithLabel(front.lines[1]), front.lines[2]],
        second: [front.second![0], copayLevelWithLabel(front.second![1]), front.second![2]],
      },
    ]);
    expect(reading.card.member_id).toMatchObject({ value: 'W246813579', readers: 2 });
    expect(reading.card.payer_name).toBeNull();
    expect(JSON.stringify(reading.disagreements)).not.toContain('PCPS25');
  });
});

describe('a code ending in a bracket', () => {
  it('is unread, since the bracket is a letter neither reader made out', () => {
    const reading = readCard([readTwice(['RxPCN: ET]', 'ID: W123456789'], ['RxPCN: ET)', 'ID: W123456789'])]);
    expect(reading.card.rx_pcn).toBeNull();
  });

  it('is read without its parentheses when the card prints them on both sides, whatever punctuation follows', () => {
    const reading = readCard([readTwice(['RxGrp: (RX4471),'], ['RxGrp: (RX4471)'])]);
    expect(reading.card.rx_group).toMatchObject({ value: 'RX4471', readers: 2 });
  });
});

describe('a table cell read with what is left of its rule', () => {
  it('is no value running on', () => {
    const reading = readCard([
      readTwice(
        ['RXBIN    RXPCN      RXGRP', '610014 | MEDDPRIME l RX4410 l'],
        ['RXBIN    RXPCN      RXGRP', '610014   MEDDPRIME  RX4410'],
      ),
    ]);
    expect(reading.card.rx_group).toMatchObject({ value: 'RX4410', readers: 2 });
  });
});

describe('a BIN whose label was not read', () => {
  it('is the one six-digit number of a card showing a pharmacy block, read alike by both, and flagged inferred', () => {
    const reading = readCard([
      readTwice(
        ['ID: W123456789', '     RxPCN: ADV', '610014'],
        ['ID: W123456789', '     RxPCN: ADV', '610014'],
      ),
    ]);
    expect(reading.card.rx_bin).toMatchObject({ value: '610014', readers: 2, inferred: true });
  });

  it('is left unread where two six-digit numbers could be it', () => {
    const reading = readCard([
      readTwice(
        ['ID: W123456789', 'RxPCN: ADV', '610014  004336'],
        ['ID: W123456789', 'RxPCN: ADV', '610014  004336'],
      ),
    ]);
    expect(reading.card.rx_bin).toBeNull();
  });

  it('is never placed on a card without a pharmacy block', () => {
    const reading = readCard([readTwice(['ID: W123456789', '610014'], ['ID: W123456789', '610014'])]);
    expect(reading.card.rx_bin).toBeNull();
  });
});

describe('a six-digit number a reader labelled', () => {
  it('is never taken for an unlabelled BIN', () => {
    const reading = readCard([
      readTwice(
        ['ID: W123456789', 'Group: 123456', 'RxPCN: ADV'],
        ['ID: W123456789', 'Gr0up: 123456', 'RxPCN: ADV'],
      ),
    ]);
    expect(reading.card.rx_bin).toBeNull();
  });
});

describe('print straddling the edge of a value', () => {
  it('runs on from it, so the value is never used', () => {
    const page = readTwice(['ID: W123456789'], ['ID: W123456789']);
    const [line] = page.second!;
    const straddling = { text: '01', confidence: 0.97, box: { left: 13, top: 0, width: 3, height: 1 } };
    const reading = readCard([{ ...page, second: [{ ...line, words: [...line.words, straddling] }] }]);
    expect(reading.card.member_id).toBeNull();
  });
});

describe('a mark beside a value', () => {
  const withMarkAfterBin = (height: number) => {
    const page = readTwice(['RxBIN: 683076'], ['RxBIN: 683076']);
    const [line] = page.lines;
    const mark = { text: 'BC', confidence: 0.21, box: { left: 14, top: 0.4, width: 1, height } };
    return readCard([{ ...page, lines: [{ ...line, words: [...line.words, mark] }] }]);
  };

  it('is a speck, not print running on, where it stands far shorter than the letters', () => {
    expect(withMarkAfterBin(0.1).card.rx_bin).toMatchObject({ value: '683076', readers: 2 });
  });

  it('runs on from the value where it stands as tall as a lower-case letter', () => {
    expect(withMarkAfterBin(0.5).card.rx_bin).toBeNull();
  });

  it('is kept where it is a dash the other reader read before an identifier, which may end a lost prefix', () => {
    const reading = readCard([readTwice(['ID:     482119'], ['ID:    -482119'])]);
    expect(reading.card.member_id).toBeNull();
  });

  it("is the field's own label where the other reader ran it into the value, and no more", () => {
    const page = readTwice(['RxGROUP RX1478'], ['RxGROUP RX1478']);
    const runIn = { text: 'RxGROUPRX1478', confidence: 0.61, box: { left: 0, top: 0, width: 14, height: 1 } };
    const reread = { text: 'RX1478', confidence: 0.5, box: { left: 8, top: 0, width: 6, height: 1 } };
    const lines = [runIn, reread].map((word) => ({ words: [word], box: word.box }));
    const reading = readCard([{ ...page, lines }]);
    expect(reading.card.rx_group).toMatchObject({ value: 'RX1478', readers: 2 });
  });

  it('runs on from the value where a reader read it again in a box reaching past its end', () => {
    const page = readTwice(['RxGroup: RX2687'], ['RxGroup: RX2687']);
    const again = { text: 'RX2687', confidence: 0.54, box: { left: 6, top: 0.1, width: 13, height: 1.1 } };
    const reading = readCard([{ ...page, lines: [...page.lines, { words: [again], box: again.box }] }]);
    expect(reading.card.rx_group).toBeNull();
  });
});

describe('GRP in a pharmacy block one reader gave in pieces', () => {
  it("is the RxGroup where the reader gave the heading row's cells as lines of their own", () => {
    const values = '922915    MVJBB   RX5380';
    const page = readTwice(['RXBIN     PON.    GRP', values], ['RXBIN     PCN     GRP', values]);
    const [heading, valueRow] = page.lines;
    const cells = heading.words.map((word) => ({ words: [word], box: word.box }));
    const reading = readCard([{ ...page, lines: [...cells, valueRow] }]);
    expect(reading.card.rx_group).toMatchObject({ value: 'RX5380', readers: 2 });
    expect(reading.card.group_number).toBeNull();
  });

  it('is the RxGroup under a BIN and PCN the reader ran into their values, a line of noise between', () => {
    const reading = readCard([
      readTwice(
        ['RxBin669383 PCNAKCXKU', 'EE a', 'GRP RX5130'],
        ['RxBIN 669383 PCN AKCXKU', '', 'GRP RX5130'],
      ),
    ]);
    expect(reading.card.rx_group).toMatchObject({ value: 'RX5130', readers: 2 });
    expect(reading.card.group_number).toBeNull();
  });
});

describe('a value the readers agree on, where the card says more', () => {
  it('is unread where the other reader read a repeat of it just after it, which may be its lost part', () => {
    const reading = readCard([readTwice(['Member ID: W12345'], ['Member ID: W12345 W12345'])]);
    expect(reading.card.member_id).toBeNull();
  });

  it('is unread where a reader boxed what glare left of a last character short, on the baseline', () => {
    const page = readTwice(['RxGroup: RX2687'], ['RxGroup: RX2687']);
    const [line] = page.lines;
    const cut = { text: '5', confidence: 0.4, box: { left: 15, top: 0.7, width: 1, height: 0.3 } };
    const reading = readCard([{ ...page, lines: [{ ...line, words: [...line.words, cut] }] }]);
    expect(reading.card.rx_group).toBeNull();
  });

  it('leaves a member name unread where another label of it holds another name', () => {
    const lines = ['Member: JANE DOE 02', 'Subscriber: JOHN DOE', 'ID: W123456789'];
    expect(readCard([readTwice(lines, lines)]).card.member_name).toBeNull();
  });

  it('leaves a member name unread where a label beyond doubt gives another name one reader misread', () => {
    const reading = readCard([
      readTwice(
        ['Member: JANE DOE', 'Subscriber: JOHN DOE', 'ID: W123456789'],
        ['Member: JANE D0E', 'Subscriber: JOHN DOE', 'ID: W123456789'],
      ),
    ]);
    expect(reading.card.member_name).toBeNull();
  });

  it("still takes the largest lettering for the payer's name after print under a doubtful label was rejected", () => {
    const front = readTwice(
      ['ACME HEALTH', 'Carrier assumes no liability', 'ID: W123456789'],
      ['ACME HEALTH', 'Carrier assumes no liabilty', 'ID: W123456789'],
    );
    const taller = (lines: typeof front.lines) =>
      lines.map((line, index) =>
        index === 0
          ? { ...line, words: line.words.map((word) => ({ ...word, box: { ...word.box, height: 1.2 } })) }
          : line,
      );
    const page = { ...front, lines: taller(front.lines), second: taller(front.second!) };
    expect(readCard([page]).card.payer_name?.value).toBe('ACME HEALTH');
  });

  it("never takes the largest lettering for the payer's name once a labelled one was rejected", () => {
    const reading = readCard([
      readTwice(
        ['MEDICARE ADVANTAGE', 'Payer: Acme Healtn', 'ID: W123456789'],
        ['MEDICARE ADVANTAGE', 'Payer: Acme Health', 'ID: W123456789'],
      ),
    ]);
    expect(reading.card.payer_name).toBeNull();
  });

  it("never drops a name's first word that is a label of another field", () => {
    const lines = ['Payer:', 'Group Health Cooperative', 'ID: W123456789'];
    expect(readCard([readTwice(lines, lines)]).card.payer_name).toBeNull();
  });
});

describe('a value the other reader read inside a wider word', () => {
  it("is agreed on where that word is the field's label run into the same value", () => {
    const page = readTwice(['RxPCN ANTEW'], ['RxPCN ANTEW']);
    const runIn = { text: 'RXPCNANTEW', confidence: 0.2, box: { left: 0, top: 0, width: 11, height: 1 } };
    const reading = readCard([{ ...page, lines: [{ words: [runIn], box: runIn.box }] }]);
    expect(reading.card.rx_pcn).toMatchObject({ value: 'ANTEW', readers: 2 });
  });

  it('is never agreed on where that word reaches past the end of the value both read short', () => {
    const page = readTwice(['RxPCN ANT'], ['RxPCN ANT']);
    const runIn = { text: 'RXPCNANT', confidence: 0.2, box: { left: 0, top: 0, width: 11, height: 1 } };
    const reading = readCard([{ ...page, lines: [{ words: [runIn], box: runIn.box }] }]);
    expect(reading.card.rx_pcn).toBeNull();
  });
});

describe("a pharmacy block's GRP", () => {
  it("is the member's group where another label stands between it and the BIN over it", () => {
    const lines = ['BIN 610014   PCN ADV', 'Member ID W123456789', 'GRP 12345'];
    const reading = readCard([readTwice(lines, lines)]);
    expect(reading.card.rx_group).toBeNull();
  });

  it('is no RxGroup on a card that prints its RxGroup under its own label', () => {
    const lines = ['BIN 610014   RxGRP RX1234', 'EE', 'GRP 12345'];
    const reading = readCard([readTwice(lines, lines)]);
    expect(reading.card.rx_group?.value).toBe('RX1234');
    expect(reading.card.group_number?.value).toBe('12345');
  });

  it('is no RxGroup where a value stands between it and the PCN on its row', () => {
    const lines = ['Member ID W123456789   RxBIN 610014', 'GRP 12345   RxPCN ADV'];
    const [id, row] = readTwice(lines, lines).lines;
    const cells = row.words.map((word) => ({ words: [word], box: word.box }));
    const page = { ...readTwice(lines, lines), lines: [id, ...cells] };
    expect(readCard([page]).card.rx_group).toBeNull();
  });
});

describe('a field the card shows in two places', () => {
  it("leaves the payer's name unread, and takes no headline, where two payer labels give two names", () => {
    const lines = ['MEDICARE ADVANTAGE', 'Payer: Acme Health', 'Insurer: Beta Care', 'ID: W123456789'];
    expect(readCard([readTwice(lines, lines)]).card.payer_name).toBeNull();
  });

  it('leaves a member name unread where the other label holds a name that may hide an initial', () => {
    const reading = readCard([
      readTwice(
        ['Member: TOMAS ALVAREZ', 'Subscriber: JOHN DOE', 'ID: W123456789'],
        ['Member: TOMASALVAREZ', 'Subscriber: JOHN DOE', 'ID: W123456789'],
      ),
    ]);
    expect(reading.card.member_name).toBeNull();
  });

  it('leaves a member id unread where a page read once gives another', () => {
    const typed = face(['ID: W999999999'], 0.99, 2);
    const reading = readCard([readTwice(['ID: W123456789'], ['ID: W123456789']), typed]);
    expect(reading.card.member_id).toBeNull();
  });

  it('reads a name printed on both faces where one reader misread a letter of one', () => {
    const front = readTwice(['Member: JANE DOE'], ['Member: JANE DOE']);
    const back = { ...readTwice(['Member: JANE DOE'], ['Member: JANE DOF']), number: 2 };
    expect(readCard([front, back]).card.member_name?.value).toBe('JANE DOE');
  });

  it('reads a name printed family name first that one reader gave without the space after its comma', () => {
    const reading = readCard([readTwice(['Name: NGUYEN, ANNA'], ['Name: NGUYEN,ANNA'])]);
    expect(reading.card.member_name?.value).toBe('NGUYEN, ANNA');
  });
});

describe('a GRP by a pharmacy block in no way that says whose group it is', () => {
  it("labels nothing where the block's labels stand after it on its line", () => {
    const lines = ['Member ID W123456789   RxBIN 610014', 'GRP 12345   RxPCN ADV'];
    const reading = readCard([readTwice(lines, lines)]);
    expect(reading.card.rx_group).toBeNull();
    expect(reading.card.group_number).toBeNull();
  });

  it('labels nothing where it stands under the block out of its columns', () => {
    const lines = ['BIN: 610014', 'PCN: MEDDP', '     GRP: RX4567'];
    const reading = readCard([readTwice(lines, lines)]);
    expect(reading.card.group_number).toBeNull();
  });
});

describe("a member's name printed without a label", () => {
  /** The card's lines as both readers gave them, the first line, the payer's title, set larger above them. */
  const frontWithTitle = (first: string[], second = first) => {
    const front = readTwice(first, second);
    const [title, ...rest] = front.lines;
    const larger = {
      ...title,
      words: title.words.map((word) => ({ ...word, box: { ...word.box, top: -0.3, height: 1.3 } })),
    };
    return { ...front, lines: [larger, ...rest] };
  };

  it("is the one line shaped as a name besides the payer's title, read alike by both, and flagged inferred", () => {
    const reading = readCard([frontWithTitle(['Harbor Mutual', 'DEVON M RIVERA', 'ID: W123456789'])]);
    expect(reading.card.member_name).toMatchObject({ value: 'DEVON M RIVERA', readers: 2, inferred: true });
  });

  it('is left unread where two lines could be it', () => {
    const reading = readCard([
      frontWithTitle(['Harbor Mutual', 'DEVON M RIVERA', 'ID: W123456789', 'JORDAN A COHEN']),
    ]);
    expect(reading.card.member_name).toBeNull();
  });

  it("is never inferred on a card where a reader read a name's label", () => {
    const reading = readCard([
      frontWithTitle(['Harbor Mutual', 'DEVON M RIVERA', 'ID: W123456789', 'Name:']),
    ]);
    expect(reading.card.member_name).toBeNull();
  });

  it("is never the payer's title set in capitals", () => {
    const reading = readCard([frontWithTitle(['HARBOR MUTUAL', 'ID: W123456789'])]);
    expect(reading.card.payer_name?.value).toBe('HARBOR MUTUAL');
    expect(reading.card.member_name).toBeNull();
  });

  it("is never inferred where the payer's name came from its label", () => {
    const reading = readCard([frontWithTitle(['BLUE CROSS', 'Payer: Harbor Mutual', 'ID: W123456789'])]);
    expect(reading.card.payer_name?.value).toBe('Harbor Mutual');
    expect(reading.card.member_name).toBeNull();
  });

  it('is never inferred where a payer label without a colon may have given the payer', () => {
    const reading = readCard([frontWithTitle(['BLUE CROSS', 'Payer Harbor Mutual', 'ID: W123456789'])]);
    expect(reading.card.member_name).toBeNull();
  });

  it('is read where the second reader gave it in mixed case', () => {
    const reading = readCard([
      frontWithTitle(
        ['Harbor Mutual', 'DEVON M RIVERA', 'ID: W123456789'],
        ['Harbor Mutual', 'DEvOn m rIvera', 'ID: W123456789'],
      ),
    ]);
    expect(reading.card.member_name).toMatchObject({ value: 'DEVON M RIVERA', inferred: true });
  });

  it('is never other print in capitals where the name is printed in small letters', () => {
    const reading = readCard([
      frontWithTitle(['Harbor Mutual', 'Devon Rivera', 'ID: W123456789', 'REFERRAL REQUIRED']),
    ]);
    expect(reading.card.member_name).toBeNull();
  });

  it('is left unread where the second reader read a name-shaped run elsewhere', () => {
    const reading = readCard([
      frontWithTitle(
        ['Harbor Mutual', 'DEVON M RIVERA', 'ID: W123456789', 'Jordan Cohen'],
        ['Harbor Mutual', 'DEVON M RIVERA', 'ID: W123456789', 'JORDAN COHEN'],
      ),
    ]);
    expect(reading.card.member_name).toBeNull();
  });

  it("is never the card's own wording in capitals", () => {
    const reading = readCard([
      frontWithTitle(['Harbor Mutual', 'CUSTOMER SERVICE', 'ID: W123456789', 'OPEN ACCESS']),
    ]);
    expect(reading.card.member_name).toBeNull();
  });

  it('is left unread where the readers read it differently', () => {
    const reading = readCard([
      frontWithTitle(
        ['Harbor Mutual', 'DEVON M RIVERA', 'ID: W123456789'],
        ['Harbor Mutual', 'DEVIN M RIVERA', 'ID: W123456789'],
      ),
    ]);
    expect(reading.card.member_name).toBeNull();
  });
});
