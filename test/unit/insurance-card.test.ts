import { boxAround } from '../../domain/documents/document-reading';
import type { ReadLine, ReadPage, ReadWord } from '../../domain/documents/document-reading';
import { cardsAmong } from '../../domain/payers/card-documents';
import { medicareBeneficiaryId } from '../../domain/payers/card-field-shapes';
import { readInsuranceCard } from '../../domain/payers/insurance-card';
import { scannedCardFields, unreadCardGap } from '../../domain/payers/scanned-card-fields';
import { face, readTwice, textPage } from '../support/read-pages';

const valueOf = (page: ReadPage[], field: keyof ReturnType<typeof readInsuranceCard>) =>
  readInsuranceCard(page)[field]?.value ?? null;

describe('reading an insurance card from its words', () => {
  it('reads a payer name without the rule a reader gave beside it', () => {
    const card = readInsuranceCard([face(['Payer: Lakeshore Health Alliance |', 'Member ID: W123456789'])]);
    expect(card.payer_name?.value).toBe('Lakeshore Health Alliance');
  });

  it.each(['Northwind Health i', 'Northwind Health ! |'])(
    'reads a payer name without the stroke a reader gave as a lone i or ! after it (%s)',
    (printed) => {
      const card = readInsuranceCard([face([`Payer: ${printed}`, 'Member ID: W123456789'])]);
      expect(card.payer_name?.value).toBe('Northwind Health');
    },
  );

  it('keeps a lone l after a payer name, which may be a printed I', () => {
    const card = readInsuranceCard([face(['Payer: Medicare Advantage Plan l', 'Member ID: W123456789'])]);
    expect(card.payer_name?.value).toBe('Medicare Advantage Plan l');
  });

  it("takes GRP under the BIN and PCN line for the pharmacy's group, and the spelled-out group for the member's", () => {
    const card = readInsuranceCard([
      face([
        'Northwind Health',
        'POLICY ID        GROUP #',
        'U5677818758      JRS17772',
        'BIN 553391  PCN KGAMVT',
        'GRP RX4090',
      ]),
    ]);
    expect([card.group_number?.value, card.rx_group?.value]).toEqual(['JRS17772', 'RX4090']);
  });

  it('reads each value printed beside its label', () => {
    const card = readInsuranceCard([
      face([
        'Sandbox Health Plan',
        'Member: JANE Q SAMPLE',
        'Member ID: W123456789',
        'Group: 0012345',
        'RxBIN: 999901  RxPCN: SBX  RxGrp: RX4471',
        'Employer: Acme Foods   Effective: 01/01/2026',
        'Payer ID: 99901',
      ]),
    ]);
    expect(
      Object.fromEntries(Object.entries(card).map(([field, value]) => [field, value?.value ?? null])),
    ).toEqual({
      payer_name: 'Sandbox Health Plan',
      plan_name: null,
      member_name: 'JANE Q SAMPLE',
      member_id: 'W123456789',
      group_number: '0012345',
      rx_bin: '999901',
      rx_pcn: 'SBX',
      rx_group: 'RX4471',
      client_name: 'Acme Foods',
      effective_date: '2026-01-01',
      payer_id: '99901',
      medicare_beneficiary_id: null,
      medicaid_id: null,
    });
  });

  it('reads values printed below their labels, column by column', () => {
    const page = [
      face([
        'Sandbox Health Plan',
        'MEMBER NAME       MEMBER ID       GROUP #',
        'JANE Q SAMPLE     W123456789      0012345',
        'RxBIN    RxPCN    RxGROUP',
        '999901   SBX      RX4471',
      ]),
    ];
    expect([valueOf(page, 'member_name'), valueOf(page, 'member_id'), valueOf(page, 'group_number')]).toEqual(
      ['JANE Q SAMPLE', 'W123456789', '0012345'],
    );
    expect([valueOf(page, 'rx_bin'), valueOf(page, 'rx_pcn'), valueOf(page, 'rx_group')]).toEqual([
      '999901',
      'SBX',
      'RX4471',
    ]);
  });

  it('joins the front and the back of one card sent as two documents', () => {
    const pages = [
      face(['Sandbox Health Plan', 'ID# W123456789', 'Grp# 0012345']),
      face(
        ['Pharmacy benefits', 'BIN 999901', 'PCN SBX', 'Rx Group RX4471', 'Member Services 1-800-555-0100'],
        0.96,
        1,
      ),
    ];
    const card = readInsuranceCard(pages);
    expect([card.member_id?.value, card.rx_bin?.value, card.rx_pcn?.value, card.rx_group?.value]).toEqual([
      'W123456789',
      '999901',
      'SBX',
      'RX4471',
    ]);
  });

  it.each([
    'Identification No.',
    'IDENTIFICATION #',
    'Identification:',
    'Certificate No.',
    'Cert #',
    'Cardholder ID',
    'Subscriber/Member ID',
    'Mbr ID',
    'Participant ID',
    'Employee ID',
  ])('reads the member id beside the label %s', (label) => {
    const card = readInsuranceCard([face(['Northwind Health', `${label} W190064256`, 'Group: 77392'])]);
    expect(card.member_id?.value).toBe('W190064256');
  });

  it.each([
    'Insured Name',
    'Enrollee Name',
    'Cardholder Name',
    'Cardholder',
    'Name of Insured',
    "Insured's Name",
    'Participant Name',
    'Mbr Name',
    'Subscriber/Member Name',
  ])("reads the member's name beside the label %s, none of the label's words in it", (label) => {
    const card = readInsuranceCard([
      face(['Northwind Health', `${label} JANE Q SAMPLE`, 'Member ID: W190064256']),
    ]);
    expect(card.member_name?.value).toBe('JANE Q SAMPLE');
  });

  it('reads a name printed under a label of two words whole, not the part under each word', () => {
    const card = readInsuranceCard([
      face(['Northwind Health', 'INSURED NAME', 'JANE Q SAMPLE', 'Member ID: W190064256']),
    ]);
    expect(card.member_name?.value).toBe('JANE Q SAMPLE');
  });

  it("takes none of a label's words for the name printed under it (NAME OF INSURED)", () => {
    const card = readInsuranceCard([
      face(['Northwind Health', 'NAME OF INSURED', 'JANE Q SAMPLE', 'Member ID: W190064256']),
    ]);
    expect(card.member_name?.value ?? null).not.toBe('OF INSURED');
  });

  it("joins no word of the card's own wording into a member id (Member ID Card W190064256)", () => {
    const card = readInsuranceCard([face(['Northwind Health', 'Member ID Card W190064256'])]);
    expect(card.member_id?.value ?? null).not.toBe('CARDW190064256');
  });

  it("takes a value that is a marker's word (a PCN NBR) across a rows card for no marker, nor the next row's value for it", () => {
    const card = readInsuranceCard([
      face([
        'Blue Cross NC',
        'Subscriber Name  MARIA R SAMPLE',
        'Member ID#       GBL874723335',
        'Group            AWF95278',
        'Rx BIN           760601',
        'PCN              NBR',
        'Rx Group #       69604',
      ]),
    ]);
    expect([card.rx_pcn?.value ?? null, card.rx_group?.value]).toEqual([null, '69604']);
  });

  it.each([
    [
      'centred under its heading',
      ['      MEMBER NAME         MEMBER ID', 'JANE Q SAMPLE         W123456789'],
    ],
    ['running on under the next heading', ['Member Name/ID', 'JANE Q SAMPLE', 'W123456789']],
  ])("returns no part of a name the heading's column cuts, printed %s", (_, printed) => {
    const card = readInsuranceCard([face(['Northwind Health', ...printed, 'Group: 77392'])]);
    expect(card.member_name?.value ?? null).toBeNull();
  });

  it('returns no value that runs on under the next heading of a table, where a reader joined two cells', () => {
    const printed = [
      'Meridian CareFirst',
      'GROUP ID   RX BIN   PCN      RX GROUP',
      'XFV13123   899352     EGZKVSRX9132',
    ];
    const card = readInsuranceCard([readTwice(printed, printed)]);
    expect([card.rx_pcn?.value ?? null, card.rx_group?.value ?? null, card.rx_bin?.value]).toEqual([
      null,
      null,
      '899352',
    ]);
  });

  it("reads a name under its heading whose next column's value stands a table cell's gap after it", () => {
    const card = readInsuranceCard([
      face(['Northwind Health', 'NAME               IDENTIFICATION NUMBER', 'MATEO HALVORSEN   W123456789']),
    ]);
    expect([card.member_name?.value, card.member_id?.value]).toEqual(['MATEO HALVORSEN', 'W123456789']);
  });

  it('takes no value for a label from print level with the next label, where a reader gave each a line of its own', () => {
    const page = face([
      'Lakeshore Health Alliance',
      'ID #     U6274658622',
      '         YFNM',
      'Rx PCN',
      '         RX8782',
      'RxGRP',
    ]);
    const levelWithLineAbove = (index: number) => {
      const line = page.lines[index];
      const top = page.lines[index - 1].box.top;
      page.lines[index] = {
        words: line.words.map((word) => ({ ...word, box: { ...word.box, top } })),
        box: { ...line.box, top },
      };
    };
    levelWithLineAbove(3);
    levelWithLineAbove(5);
    expect(readInsuranceCard([page]).rx_pcn?.value ?? null).toBeNull();
  });

  it("takes no value for a label from the next row of labels, however far off the rows' values stand", () => {
    const card = readInsuranceCard([
      face([
        'Harbor Mutual',
        'Name of Insured           LUIS M OKAFOR',
        'BIN #                     583458',
        'Processor Control Number  NUM',
        'Rx Grp                    BBZE14',
      ]),
    ]);
    expect(card.rx_pcn?.value ?? null).toBeNull();
  });

  it("takes no value for a PCN that reads as its own label from the next row's value in its place", () => {
    const card = readInsuranceCard([
      textPage(
        [
          'Harbor Mutual',
          'Member Name               LUIS A RIVERA',
          'ID                        W414317312',
          'Rx BIN                    053824',
          'Processor Control Number  PCN',
          'Rx Group #                GBHW93',
        ].join('\n'),
      ),
    ]);
    expect(card.rx_pcn?.value ?? null).toBeNull();
  });

  it('takes no word after Certificate heading a sentence for a member id', () => {
    const card = readInsuranceCard([
      face(['Northwind Health', 'Certificate of Coverage applies', 'Group: 77392']),
    ]);
    expect(card.member_id ?? null).toBeNull();
  });

  it('reads the PCN beside the label Processor Control Number', () => {
    const card = readInsuranceCard([
      face(['Northwind Health', 'Member ID: W190064256', 'Processor Control Number: MEDDADV']),
    ]);
    expect(card.rx_pcn?.value).toBe('MEDDADV');
  });

  it("takes no word of a card's title after Identification for a member id", () => {
    const card = readInsuranceCard([face(['Identification Card', 'Northwind Health', 'Group: 77392'])]);
    expect(card.member_id ?? null).toBeNull();
  });

  it('reads a BIN whose zeros OCR took for the letter O, since a BIN is six digits', () => {
    expect(valueOf([face(['RxBIN: 61O5O2'])], 'rx_bin')).toBe('610502');
  });

  it('leaves unread a member id whose words the recogniser is not sure of', () => {
    const pages = [face(['Member ID: W123456789'], 0.75)];
    expect(valueOf(pages, 'member_id')).toBeNull();
  });

  it('never takes a payer name beginning with "Group" for a group number', () => {
    const pages = [face(['Group Health Cooperative', 'Member ID: W123456789'])];
    expect(valueOf(pages, 'group_number')).toBeNull();
    expect(valueOf(pages, 'payer_name')).toBe('Group Health Cooperative');
  });

  it('never takes the member services line for a member name or id', () => {
    const pages = [face(['Member Services 1-800-555-0100'])];
    expect([valueOf(pages, 'member_name'), valueOf(pages, 'member_id')]).toEqual([null, null]);
  });

  it('finds no field on a page that is not a card', () => {
    const card = readInsuranceCard([face(['Dear patient,', 'your appointment is on Tuesday at nine.'])]);
    expect(Object.values(card).filter((value) => value !== null)).toEqual([]);
  });

  it("reads a Medicare card's number as the Medicare Beneficiary Identifier", () => {
    const pages = [
      face(['MEDICARE HEALTH INSURANCE', 'Name: JOHN L SMITH', 'Medicare Number: 1EG4-TE5-MK73']),
    ];
    expect(valueOf(pages, 'medicare_beneficiary_id')).toBe('1EG4TE5MK73');
  });
});

describe("the Medicare Beneficiary Identifier's shape", () => {
  it('reads a letter that is never in an MBI as the digit it resembles where a digit may stand', () => {
    expect(medicareBeneficiaryId('1EG4-TE5-MK7S')).toBe('1EG4TE5MK75');
  });

  it('refuses a value with a digit where the MBI needs a letter', () => {
    expect(medicareBeneficiaryId('10G4-TE5-MK73')).toBeNull();
  });

  it('refuses a value of another length', () => {
    expect(medicareBeneficiaryId('1EG4-TE5-MK7')).toBeNull();
  });
});

describe("the cards among a case's documents", () => {
  const primary = face(['Blue Horizon Health', 'Member ID: W123456789', 'Group: 0100']);
  const back = face(['RxBIN: 999901', 'RxPCN: SBXBHHPPO']);
  const secondary = face(['Lakeshore Mutual', 'Member ID: L987654321', 'RxBIN: 610014']);
  const memberIdOf = (card: { card: ReturnType<typeof readInsuranceCard> }) => card.card.member_id?.value;

  it('reads the front and the back sent as two documents as one card', () => {
    const cards = cardsAmong([[primary], [back]])!;

    expect(cards.others).toEqual([]);
    expect(cards.primary.card.rx_bin?.value).toBe('999901');
    expect(memberIdOf(cards.primary)).toBe('W123456789');
  });

  it('keeps two plans apart, the first sent being the one used, with the back it came with', () => {
    const cards = cardsAmong([[primary], [back], [secondary]])!;

    expect(memberIdOf(cards.primary)).toBe('W123456789');
    expect(cards.primary.card.rx_bin?.value).toBe('999901');
    expect(cards.others.map(memberIdOf)).toEqual(['L987654321']);
  });

  it('uses the card whose member id the discrete data gives', () => {
    const cards = cardsAmong([[primary], [secondary]], 'l987654321')!;

    expect(memberIdOf(cards.primary)).toBe('L987654321');
    expect(cards.primary.card.rx_bin?.value).toBe('610014');
  });

  it('keeps apart a card whose member id was not read when it names another payer', () => {
    const unclearSecondary = face(['Lakeshore Mutual', 'Group: 7700', 'RxBIN: 610014']);

    const cards = cardsAmong([[primary], [back], [unclearSecondary]])!;

    expect(cards.primary.card.rx_bin?.value).toBe('999901');
    expect(cards.others).toHaveLength(1);
  });

  it('joins a back sent before its front to that front', () => {
    const cards = cardsAmong([[back], [primary]])!;

    expect(cards.others).toEqual([]);
    expect(memberIdOf(cards.primary)).toBe('W123456789');
  });
});

describe('why a card read from images cannot identify the member', () => {
  const gapOf = (text: string) => {
    const pages = [textPage(text)];
    return unreadCardGap(scannedCardFields(readInsuranceCard(pages), text, ['insurance_1']));
  };

  it('says nothing when the member id was read', () => {
    expect(gapOf('Blue Horizon Health\nMember ID: W123456789\nRxBIN: 999901')).toBeNull();
  });

  it('names the member id of a card that shows its plan but not who is covered', () => {
    expect(gapOf('Blue Horizon Health\nRxBIN: 999901\nGroup: 0100')).toMatchObject({
      code: 'insurance_card_member_id_unreadable',
      message: expect.stringMatching(
        /^The member ID on the insurance card \(insurance_1\).*unread: [^)]*member_id/,
      ),
    });
  });

  it('calls a document that reads clearly and shows no card field not a card', () => {
    expect(gapOf('Dear colleague,\nthank you for seeing our patient on Tuesday.')).toMatchObject({
      code: 'insurance_document_not_a_card',
      message: expect.stringContaining('(insurance_1)'),
    });
  });

  it('calls a document of a few scattered fragments unreadable, not "not a card"', () => {
    expect(gapOf('Hl 4 ~ e1 ;; W')).toMatchObject({ code: 'insurance_card_unreadable' });
  });
});

describe('identifiers OCR may have confused or run together', () => {
  it('is less sure of a member id holding a letter OCR gives for others (I for J or 1), so a borderline one is unread', () => {
    expect(valueOf([face(['Member ID: WIW9712947684'], 0.86)], 'member_id')).toBeNull();
    expect(valueOf([face(['Member ID: WJW9712947684'], 0.86)], 'member_id')).toBe('WJW9712947684');
  });

  it('never takes a name run into the id beside it for a member id', () => {
    expect(valueOf([face(['Member ID: HALVORSENR30784084'])], 'member_id')).toBeNull();
  });
});

describe('a card laid out as label and value rows, or with other print beside its fields', () => {
  const readAlike = (lines: string[]) => readInsuranceCard([readTwice(lines, lines)]);
  /** A page read twice with each word of both readers' lines reshaped (moved, made taller). */
  const reshaped = (page: ReadPage, reshape: (word: ReadWord, index: number) => ReadWord): ReadPage => {
    const line = (read: ReadLine): ReadLine => ({ ...read, words: read.words.map(reshape) });
    return { ...page, lines: page.lines.map(line), second: page.second?.map(line) };
  };

  it("reads a short label's value across the label column, as far off as the widest label leaves it", () => {
    const card = readAlike([
      'Meridian CareFirst',
      'Member                 MARIA A BAPTISTE',
      'Identification Number  W711042220',
      'Group Number           GEV28135',
      'Rx BIN                 995851',
      'PCN                    TZSAWB',
      'RxGroup                RX9342',
    ]);
    expect([card.rx_bin?.value, card.rx_pcn?.value, card.rx_group?.value]).toEqual([
      '995851',
      'TZSAWB',
      'RX9342',
    ]);
  });

  it('takes no print at the far side of the card for the values of labels over their values', () => {
    const card = readAlike([
      'Meridian CareFirst',
      'MEMBER NAME                                  POS Choice',
      'JORDAN A RIVERA',
      'MEMBER ID                                    PCP $20',
      'W711042220',
      'GROUP NUMBER                                 SPEC $55',
      'GEV28135',
    ]);
    expect([card.member_id?.value, card.group_number?.value]).toEqual(['W711042220', 'GEV28135']);
  });

  it('takes no column of copays for the values of labels over their values (the id, a copay beside its label, unread)', () => {
    const card = readAlike([
      'Meridian CareFirst',
      'Member Name              Office Visit   $25',
      'JORDAN A RIVERA          Specialist     $50',
      'Identification Number    ER             $250',
      'W711042220               Urgent Care    $75',
      'Group Number             Rx Generic     $10',
      'GEV28135',
    ]);
    expect([card.member_name?.value, card.member_id?.value ?? null, card.group_number?.value]).toEqual([
      'JORDAN A RIVERA',
      null,
      'GEV28135',
    ]);
  });

  it('looks no further below a label than the first line with print under it', () => {
    const card = readAlike([
      'Meridian CareFirst',
      'Member ID: W711042220',
      'Rx BIN   995851',
      'Rx PCN',
      'RxGroup  RX9342',
      'Issuer   80840',
    ]);
    expect(card.rx_pcn).toBeNull();
  });

  it('joins no plan standing a little further off than its groups into a member id', () => {
    const card = readInsuranceCard([
      reshaped(readTwice(['Member ID: W711042220 PPO'], ['Member ID: W711042220 PPO']), (word) =>
        word.text === 'PPO' ? { ...word, box: { ...word.box, left: word.box.left + 0.2 } } : word,
      ),
    ]);
    expect(card.member_id?.value ?? null).not.toBe('W711042220PPO');
  });

  it("never takes the next row's value, beside its own label, for a value under a label", () => {
    const card = readAlike([
      'Meridian CareFirst',
      'Member ID: W711042220',
      'PCN                    TZSAWB',
      'RxGroup                RX9342',
    ]);
    expect(card.rx_pcn?.value ?? null).not.toBe('RX9342');
  });

  it("leaves a plan printed far off on the name's line out of the name", () => {
    const card = readAlike(['Member: JORDAN R COHEN                 PPO', 'Member ID: W711042220']);
    expect(card.member_name?.value).toBe('JORDAN R COHEN');
  });

  it("leaves a plan's badge far off on the title's line out of the payer's name", () => {
    const card = readAlike(['Cascade Benefit Partners            HMO Select', 'Member ID: W711042220']);
    expect(card.payer_name?.value).toBe('Cascade Benefit Partners');
  });

  it("leaves the payer's name unread where smaller print stands just beside the title, which may be its own end", () => {
    const lines = ['Blue Cross Blue Shield  of Texas', 'Member ID: W711042220'];
    const card = readInsuranceCard([
      reshaped(readTwice(lines, lines), (word) =>
        ['of', 'Texas'].includes(word.text) ? { ...word, box: { ...word.box, height: 0.5 } } : word,
      ),
    ]);
    expect(card.payer_name).toBeNull();
  });

  it("takes the payer's title for the largest lettering where one word of a line of specks has a taller box", () => {
    const lines = [
      'SOREN NN NN',
      'Meridian CareFirst',
      'Subscriber Name: TOMAS R OKAFOR',
      'Member ID: W711042220',
    ];
    const height = (text: string) =>
      text === 'SOREN' ? 2.2 : ['Meridian', 'CareFirst'].includes(text) ? 1.6 : 1;
    const spacedOut = reshaped(readTwice(lines, lines), (word) => ({
      ...word,
      box: { ...word.box, top: word.box.top * 3, height: height(word.text) },
    }));
    const card = readInsuranceCard([{ ...spacedOut, height: 12 }]);
    expect(card.payer_name?.value).toBe('Meridian CareFirst');
  });

  it("reads the payer's title apart from a plan's badge of its size two spaces off", () => {
    const card = readAlike(['Cascade Benefit Partners  HMO Select', 'Member ID: W711042220']);
    expect(card.payer_name?.value).toBe('Cascade Benefit Partners');
  });

  it("reads a payer's title whole where its words stand apart, no plan's badge among them", () => {
    const card = readAlike(['Blue Cross     Blue Shield of Vermont', 'Member ID: W711042220']);
    expect(card.payer_name?.value).toBe('Blue Cross Blue Shield of Vermont');
  });

  it("reads the payer's title beside a badge a reader gave a line of its own, its border a bracket, standing taller", () => {
    const lines = ['                          (PPO', 'Cascade Benefit Partners', 'Member ID: W711042220'];
    const card = readInsuranceCard([
      reshaped(readTwice(lines, lines), (word) =>
        word.text === '(PPO' ? { ...word, box: { ...word.box, top: 0.9, height: 1.2 } } : word,
      ),
    ]);
    expect(card.payer_name?.value).toBe('Cascade Benefit Partners');
  });

  it("never takes a plan's badge a reader gave a line of its own, standing taller, for the payer", () => {
    // Both readers' words as they read a photographed card: Tesseract gave the badge's border as marks
    // and the badge a line of its own, taller than the title's; PP-OCR read both on one line.
    type Placed = [text: string, left: number, top: number, width: number, height: number];
    const lineOf = (...placed: Placed[]): ReadLine => {
      const words = placed.map(([text, left, top, width, height]) => ({
        text,
        confidence: 0.96,
        box: { left, top, width, height },
      }));
      return { words, box: boxAround(words.map((word) => word.box)) };
    };
    const page: ReadPage = {
      number: 1,
      method: 'ocr',
      width: 1400,
      height: 880,
      confidence: 0.96,
      lines: [
        lineOf(
          ['[', 1080, 63, 12, 45],
          ['POS', 1110, 57, 54, 58],
          ['Choice', 1148, 60, 182, 48],
          ['|', 1314, 57, 16, 58],
        ),
        lineOf(['Harbor', 79, 62, 260, 54], ['Mutual', 360, 62, 260, 54]),
        lineOf(['IDENTIFICATION', 80, 296, 282, 26], ['NUMBER', 378, 296, 150, 26]),
        lineOf(['W711042220', 80, 340, 280, 44]),
      ],
      second: [
        lineOf(
          ['Harbor', 94, 59, 236, 61],
          ['Mutual', 382, 59, 236, 61],
          ['POS', 1104, 61, 65, 48],
          ['Choice', 1193, 61, 113, 48],
        ),
        lineOf(['IDENTIFICATION', 80, 292, 278, 38], ['NUMBER', 383, 292, 139, 38]),
        lineOf(['W711042220', 82, 336, 276, 50]),
      ],
    };
    expect(readInsuranceCard([page]).payer_name?.value ?? null).not.toBe('POS Choice');
  });

  it("takes no other line for the payer's title where a badge stands tallest, none on its row", () => {
    const lines = ['(HMO)', 'Blue Advantage Plan', 'Member ID: W711042220'];
    const card = readInsuranceCard([
      reshaped(readTwice(lines, lines), (word) =>
        word.text === '(HMO)' ? { ...word, box: { ...word.box, height: 1.2 } } : word,
      ),
    ]);
    expect(card.payer_name).toBeNull();
  });

  it("keeps two capitals standing apart at the title's end as the title's", () => {
    const card = readAlike(['Blue Cross  NC', 'Member ID: W711042220']);
    expect(card.payer_name?.value).toBe('Blue Cross NC');
  });

  it("joins no word without a digit into a letter-spaced member id's groups", () => {
    const card = readInsuranceCard([
      reshaped(
        readTwice(['Member ID: ASN 174 323 622 HMO'], ['Member ID: ASN 174 323 622 HMO']),
        (word, index) =>
          index >= 3 ? { ...word, box: { ...word.box, left: word.box.left + 0.25 * (index - 2) } } : word,
      ),
    ]);
    expect(card.member_id?.value ?? null).not.toBe('ASN174323622HMO');
  });

  it("takes a GRP heading a row beside the RxGroup's own label for the member's group", () => {
    const card = readAlike([
      'Northwind Health',
      'Subscriber ID: W487923522',
      'GRP #   RX BIN   RX PCN    RXGRP',
      '57678   925279   AUJJXCV   RX0547',
    ]);
    expect([card.group_number?.value, card.rx_group?.value]).toEqual(['57678', 'RX0547']);
  });
});

describe('a card whose values could not be read', () => {
  it('is a card whose member id is unreadable, not "not a card", where it prints the labels only cards print', () => {
    const text = [
      'Northwind Health',
      'MEMBER ID',
      'GROUP NUMBER',
      'RXBIN RXPCN RXGRP',
      'Call member services any time',
    ].join('\n');
    const gap = unreadCardGap(scannedCardFields(readInsuranceCard([textPage(text)]), text, ['insurance_1']));
    expect(gap?.code).toBe('insurance_card_member_id_unreadable');
  });
});
