import type {
  EligibilityInquiry,
  InquiryPerson,
  InterchangeEnvelope,
} from '../../../domain/payers/eligibility';
import {
  elementValue,
  firstTransaction,
  isoDate,
  readInterchange,
  writeInterchange,
  X12SyntaxError,
  X12ValueError,
  x12Date,
  type X12Interchange,
  type X12Segment,
} from './interchange';

/** The implementation guide of HIPAA eligibility: GS08 and ST03 of every 270 and 271. */
export const ELIGIBILITY_GUIDE = '005010X279A1';

/** INS02 of a dependent: how the patient is related to the subscriber. */
export const RELATIONSHIP_CODES = { spouse: '01', child: '19', other: '34' } as const;

/**
 * A 270 eligibility inquiry for one patient, as 005010X279A1 lays it out: the payer (2100A), the
 * provider asking (2100B, by NPI), the subscriber (2100C) and, when the patient is not the
 * subscriber, the dependent (2100D), whose loop then carries the trace number, the date of service
 * and one EQ per service type. Names are upper-cased; a value X12 cannot carry is refused with an
 * X12ValueError naming the field, before anything is sent.
 */
export function writeEligibilityInquiry(inquiry: EligibilityInquiry, envelope: InterchangeEnvelope): string {
  const hasDependent = inquiry.dependent !== undefined;
  const trace = elementValue('the trace number', inquiry.traceNumber, { max: 50 });
  const patientLoop = [
    ['TRN', '1', trace, traceOriginator(envelope.senderId)],
    ...(inquiry.dependent
      ? [
          ['NM1', '03', '1', ...personName('dependent', inquiry.dependent)],
          demographics('dependent', inquiry.dependent),
          ['INS', 'N', RELATIONSHIP_CODES[inquiry.dependent.relationship]],
        ]
      : []),
    ['DTP', '291', 'D8', x12Date('the date of service', inquiry.dateOfService)],
    ...serviceTypes(inquiry.serviceTypeCodes),
  ];
  const [trn, ...dependentLoop] = patientLoop;
  const subscriber = inquiry.subscriber;
  const subscriberLoop = [
    ...(hasDependent ? [] : [trn!]),
    [
      'NM1',
      'IL',
      '1',
      ...personName('subscriber', subscriber),
      '',
      '',
      '',
      'MI',
      elementValue('the member id', subscriber.memberId, { min: 2, max: 80 }),
    ],
    ...(subscriber.groupNumber
      ? [['REF', '6P', elementValue('the group number', subscriber.groupNumber, { max: 50 })]]
      : []),
    demographics('subscriber', subscriber),
  ];

  const body = [
    ['BHT', '0022', '13', trace, ...dateAndTime(envelope.createdAt)],
    ['HL', '1', '', '20', '1'],
    [
      'NM1',
      'PR',
      '2',
      elementValue('the payer name', inquiry.payer.name, { max: 60, name: true }),
      '',
      '',
      '',
      '',
      'PI',
      elementValue('the payer id', inquiry.payer.id, { min: 2, max: 80 }),
    ],
    ['HL', '2', '1', '21', '1'],
    providerName(inquiry.provider),
    ...providerTaxonomy(inquiry.provider),
    ['HL', '3', '2', '22', hasDependent ? '1' : '0'],
    ...(hasDependent
      ? [...subscriberLoop, ['HL', '4', '3', '23', '0'], trn!, ...dependentLoop]
      : [...subscriberLoop, ...dependentLoop]),
  ];
  return writeInterchange(
    envelope,
    { functionalId: 'HS', transactionSet: '270', guide: ELIGIBILITY_GUIDE },
    body,
  );
}

/**
 * TRN03: a "9" (an identifier the sender assigns itself) and nine characters naming the sender, so
 * the payer can tell whose trace number it echoes.
 */
export function traceOriginator(senderId: string): string {
  const name = senderId.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return `9${name.padEnd(9, '0').slice(0, 9)}`;
}

export function dateAndTime(at: Date): [string, string] {
  const iso = at.toISOString();
  return [iso.slice(0, 10).replace(/-/g, ''), iso.slice(11, 16).replace(':', '')];
}

/** NM103 and NM104: last and first name. */
export function personName(role: string, person: InquiryPerson): [string, string] {
  return [
    elementValue(`the ${role}'s last name`, person.lastName, { max: 60, name: true }),
    elementValue(`the ${role}'s first name`, person.firstName, { max: 35, name: true }),
  ];
}

export function demographics(role: string, person: InquiryPerson): string[] {
  const gender = person.gender === undefined ? [] : [person.gender === 'male' ? 'M' : 'F'];
  return ['DMG', 'D8', x12Date(`the ${role}'s date of birth`, person.dateOfBirth), ...gender];
}

/** 2100B PRV: the performing provider's taxonomy (PXC, NUCC), when the case knows it. */
function providerTaxonomy(provider: EligibilityInquiry['provider']): string[][] {
  if (!provider.taxonomyCode) return [];
  return [
    [
      'PRV',
      'PE',
      'PXC',
      elementValue('the provider taxonomy code', provider.taxonomyCode, { min: 10, max: 50 }),
    ],
  ];
}

export function providerName(provider: EligibilityInquiry['provider']): string[] {
  if (!/^\d{10}$/.test(provider.npi)) throw new X12ValueError('the provider NPI', 'must be 10 digits');
  const npi = ['XX', provider.npi];
  if (provider.organizationName) {
    const name = elementValue('the provider organization name', provider.organizationName, {
      max: 60,
      name: true,
    });
    return ['NM1', '1P', '2', name, '', '', '', '', ...npi];
  }
  if (provider.lastName) {
    const last = elementValue("the provider's last name", provider.lastName, { max: 60, name: true });
    const first = provider.firstName
      ? elementValue("the provider's first name", provider.firstName, { max: 35, name: true })
      : '';
    return ['NM1', '1P', '1', last, first, '', '', '', ...npi];
  }
  throw new X12ValueError('the provider name', 'is missing: give an organization name or a last name');
}

function serviceTypes(codes: string[]): string[][] {
  if (codes.length === 0) throw new X12ValueError('the service type codes', 'must name at least one');
  if (codes.length > 99) throw new X12ValueError('the service type codes', 'must be at most 99');
  return codes.map((code) => {
    if (!/^[A-Z0-9]{1,2}$/.test(code)) {
      throw new X12ValueError('a service type code', 'must be one or two letters or digits');
    }
    return ['EQ', code];
  });
}

/** What a 270 asks, and the envelope it came in. */
export interface ReadInquiry {
  inquiry: EligibilityInquiry;
  envelope: InterchangeEnvelope;
}

/**
 * Reads a 270 back into the inquiry it states, whatever its delimiters; the simulated
 * clearinghouse answers with it. Names and birth dates a 270 leaves out (a member id can be
 * enough) read as empty strings. Malformed input is an X12SyntaxError naming the rule broken.
 */
export function readEligibilityInquiry(text: string): ReadInquiry {
  const interchange = readInterchange(text);
  const { segments, firstPosition } = firstTransaction(interchange, '270');
  const { source, receiver, subscriber, dependent } = hierarchicalLoops(segments, firstPosition);
  if (!receiver || !subscriber) {
    throw new X12SyntaxError('the 270 lacks the information receiver or subscriber level (HL)');
  }
  const loops = { source, receiver, subscriber, dependent };
  const payerName = findSegment(loops.source, 'NM1', 'PR');
  const providerNm1 = findSegment(loops.receiver, 'NM1', '1P');
  const subscriberNm1 = findSegment(loops.subscriber, 'NM1', 'IL');
  if (!payerName || !providerNm1 || !subscriberNm1) {
    throw new X12SyntaxError('the 270 lacks the payer, provider or subscriber name (NM1)');
  }
  const patientLoop = loops.dependent ?? loops.subscriber;
  const trace = findSegment(patientLoop, 'TRN', '1');
  if (!trace?.elements[1])
    throw new X12SyntaxError("the 270 has no trace number (TRN) in the patient's loop");
  const serviceTypeCodes = patientLoop
    .filter((segment) => segment.id === 'EQ')
    .flatMap((segment) => (segment.elements[0] ?? '').split(interchange.delimiters.repetition))
    .filter((code) => code !== '');
  if (serviceTypeCodes.length === 0) {
    throw new X12SyntaxError('the 270 asks about no service type (EQ01)');
  }

  const envelope = readEnvelope(interchange);
  const groupNumber = findSegment(loops.subscriber, 'REF', '6P')?.elements[1];
  const dependentNm1 = loops.dependent && findSegment(loops.dependent, 'NM1', '03');
  const serviceDate = findSegment(patientLoop, 'DTP', '291');
  const inquiry: EligibilityInquiry = {
    traceNumber: trace.elements[1],
    payer: { id: payerName.elements[8] ?? '', name: payerName.elements[2] ?? '' },
    provider: {
      npi: providerNm1.elements[8] ?? '',
      ...(providerNm1.elements[1] === '1'
        ? { lastName: providerNm1.elements[2] ?? '', firstName: providerNm1.elements[3] ?? '' }
        : { organizationName: providerNm1.elements[2] ?? '' }),
    },
    subscriber: {
      ...person(subscriberNm1, loops.subscriber),
      memberId: subscriberNm1.elements[8] ?? '',
      ...(groupNumber ? { groupNumber } : {}),
    },
    ...(loops.dependent
      ? {
          dependent: {
            ...person(dependentNm1, loops.dependent),
            relationship: relationship(findSegment(loops.dependent, 'INS')?.elements[1]),
          },
        }
      : {}),
    serviceTypeCodes,
    dateOfService:
      (serviceDate && isoDate((serviceDate.elements[2] ?? '').slice(0, 8))) ??
      envelope.createdAt.toISOString().slice(0, 10),
  };
  return { inquiry, envelope };
}

function relationship(code: string | undefined): 'spouse' | 'child' | 'other' {
  if (code === RELATIONSHIP_CODES.spouse) return 'spouse';
  if (code === RELATIONSHIP_CODES.child) return 'child';
  return 'other';
}

function person(nm1: X12Segment | undefined, loop: X12Segment[]): InquiryPerson {
  const dmg = findSegment(loop, 'DMG');
  const gender = dmg?.elements[2];
  return {
    lastName: nm1?.elements[2] ?? '',
    firstName: nm1?.elements[3] ?? '',
    dateOfBirth: (dmg && isoDate(dmg.elements[1] ?? '')) ?? '',
    ...(gender === 'M' ? { gender: 'male' as const } : gender === 'F' ? { gender: 'female' as const } : {}),
  };
}

function readEnvelope(interchange: X12Interchange): InterchangeEnvelope {
  const isa = interchange.segments[0]!.elements;
  const gs = interchange.segments.find((segment) => segment.id === 'GS')?.elements ?? [];
  const date = isoDate(gs[3] ?? '') ?? isoDate(`20${isa[8] ?? ''}`);
  const time = /^\d{4}/.test(gs[4] ?? '') ? gs[4]! : /^\d{4}$/.test(isa[9] ?? '') ? isa[9]! : '0000';
  if (!date) throw new X12SyntaxError('neither GS04 nor ISA09 is a date');
  const hours = Math.min(Number(time.slice(0, 2)), 23);
  const minutes = Math.min(Number(time.slice(2, 4)), 59);
  const controlNumber = Number(interchange.controlNumber);
  if (!Number.isInteger(controlNumber)) throw new X12SyntaxError('ISA13 is not a number');
  return {
    senderId: (isa[5] ?? '').trim(),
    receiverId: (isa[7] ?? '').trim(),
    controlNumber,
    usage: isa[14] === 'P' ? 'production' : 'test',
    createdAt: new Date(`${date}T${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:00Z`),
  };
}

/** The segments of each hierarchical level of a 270 or 271: the first of each kind. */
export interface HierarchicalLoops {
  source: X12Segment[];
  /** Absent in a 271 that stops at an AAA of the information source; likewise below. */
  receiver?: X12Segment[];
  subscriber?: X12Segment[];
  /** Present when the transaction has a dependent level (HL03 = 23). */
  dependent?: X12Segment[];
}

const LEVEL_KEYS = { '20': 'source', '21': 'receiver', '22': 'subscriber', '23': 'dependent' } as const;

/**
 * Splits a 270/271 transaction by its HL segments (20 information source, 21 receiver, 22
 * subscriber, 23 dependent). Only the first subscriber, and the first dependent under it, are
 * kept: a 271 answers the one patient the 270 asked about.
 */
export function hierarchicalLoops(segments: X12Segment[], firstPosition: number): HierarchicalLoops {
  const loops: Partial<Record<(typeof LEVEL_KEYS)[keyof typeof LEVEL_KEYS], X12Segment[]>> = {};
  const seen = new Set<string>();
  let current: X12Segment[] | undefined;
  let currentLevel: string | undefined;
  for (const [index, segment] of segments.entries()) {
    if (segment.id === 'SE') break;
    if (segment.id !== 'HL') {
      current?.push(segment);
      continue;
    }
    const level = segment.elements[2] ?? '';
    if (!(level in LEVEL_KEYS)) {
      throw new X12SyntaxError(`segment ${firstPosition + index}: HL03 is not a level of a 270 or 271`);
    }
    const ownKey = LEVEL_KEYS[level as keyof typeof LEVEL_KEYS];
    if (seen.has(level) || (level === '23' && currentLevel !== '22')) {
      // A second subscriber or dependent, or a dependent under a later subscriber: not the patient.
      current = undefined;
    } else {
      seen.add(level);
      current = [];
      loops[ownKey] = current;
    }
    currentLevel = current ? level : undefined;
  }
  if (!loops.source) throw new X12SyntaxError('the transaction has no information source level (HL 20)');
  return { ...loops, source: loops.source };
}

/** The first segment with this id (and first element, when given) in a loop. */
export function findSegment(loop: X12Segment[], id: string, qualifier?: string): X12Segment | undefined {
  return loop.find(
    (segment) => segment.id === id && (qualifier === undefined || segment.elements[0] === qualifier),
  );
}
