import type {
  BenefitAccumulator,
  EligibilityInquiry,
  EligibilityRejection,
  EligibilityResponse,
  InterchangeEnvelope,
  PharmacyBenefit,
  RejectionLevel,
} from '../../../domain/payers/eligibility';
import {
  ACTIVE_COVERAGE_CODES,
  BENEFIT_ROW_CODES,
  benefitCode,
  benefitName,
  eligibilityRejection,
  INACTIVE_COVERAGE_CODES,
  levelCode,
  levelName,
  LIFETIME_PERIOD,
  LIFETIME_REMAINING_PERIOD,
  networkCode,
  networkName,
  PHARMACY_SERVICE_TYPES,
  periodCode,
  periodName,
  REMAINING_PERIOD,
  UNSPECIFIED_PERIOD,
} from './eligibility-codes';
import {
  dateAndTime,
  demographics,
  ELIGIBILITY_GUIDE,
  findSegment,
  hierarchicalLoops,
  personName,
  providerName,
  RELATIONSHIP_CODES,
  traceOriginator,
} from './eligibility-inquiry';
import {
  elementValue,
  firstTransaction,
  isoDate,
  readInterchange,
  writeInterchange,
  X12SyntaxError,
  X12ValueError,
  x12Date,
  type X12Delimiters,
  type X12Element,
  type X12Segment,
} from './interchange';

/** One EB row (loop 2110C/D) with the segments that qualify it. */
interface BenefitRow {
  info: string;
  level: string;
  serviceTypes: string[];
  insuranceType: string;
  planDescription: string;
  period: string;
  amountCents: number | null;
  percent: number | null;
  authorization: string;
  network: string;
  messages: string[];
  dates: X12Segment[];
  /** NM1 segments of the row's 2120 loops (LS/LE): benefit-related entities. */
  entities: X12Segment[];
}

/** A loop of a subscriber or dependent: its 2100 segments, then its benefit rows. */
interface PersonLoop {
  header: X12Segment[];
  rows: BenefitRow[];
  /** AAA segments under an EB row: the payer could not answer that part of the inquiry. */
  rowRejections: X12Segment[];
}

/**
 * Reads a 271 eligibility response, with whatever delimiters its ISA declares, into the result's
 * vocabulary. The patient is the dependent when the 271 has a dependent level (2000D), else the
 * subscriber. Malformed input is an X12SyntaxError naming the rule and the segment's position;
 * no other exception escapes, and the time taken grows in proportion to the input.
 */
export function readEligibilityResponse(text: string): EligibilityResponse {
  const interchange = readInterchange(text);
  const { segments, firstPosition } = firstTransaction(interchange, '271');
  const positions = new Map(segments.map((segment, index) => [segment, firstPosition + index]));
  const loops = hierarchicalLoops(segments, firstPosition);
  const read = (loop: X12Segment[] | undefined): PersonLoop | undefined =>
    loop && personLoop(loop, interchange.delimiters, positions);
  const subscriber = read(loops.subscriber);
  const dependent = read(loops.dependent);
  const patient = dependent ?? subscriber;
  const rows = patient?.rows ?? [];

  const rejections: EligibilityRejection[] = [
    ...rejectionsIn(loops.source, 'information_source'),
    ...rejectionsIn(loops.receiver ?? [], 'information_receiver'),
    ...rejectionsIn(subscriber?.header ?? [], 'subscriber'),
    ...rejectionsIn(dependent?.header ?? [], 'dependent'),
    ...rejectionsIn(patient?.rowRejections ?? [], 'inquiry'),
  ];
  const payer = findSegment(loops.source, 'NM1', 'PR');
  const coverageRows = rows.filter(
    (row) => ACTIVE_COVERAGE_CODES.has(row.info) || INACTIVE_COVERAGE_CODES.has(row.info),
  );
  // A 2100C/D may carry two TRN*2: the inquirer's own, echoed, and one a clearinghouse added.
  const traces = [...(patient?.header ?? []), ...(patient === subscriber ? [] : (subscriber?.header ?? []))]
    .filter((segment) => segment.id === 'TRN' && segment.elements[0] === '2')
    .map((segment) => segment.elements[1] ?? '')
    .filter((trace) => trace !== '');
  const groupReference =
    findSegment(patient?.header ?? [], 'REF', '6P') ?? findSegment(subscriber?.header ?? [], 'REF', '6P');

  return {
    trace_number: traces[0] ?? null,
    trace_numbers: traces.length > 1 ? traces : undefined,
    payer: { id: nonEmpty(payer?.elements[8]), name: nonEmpty(payer?.elements[2]) },
    coverage: coverageOf(rows),
    plan_name: nonEmpty(
      coverageRows.find((row) => row.planDescription !== '')?.planDescription ??
        findSegment(patient?.header ?? [], 'REF', '18')?.elements[2],
    ),
    // Payers often put EB04 on the benefit rows rather than on the coverage row.
    insurance_type_code: nonEmpty(
      [...coverageRows, ...rows].find((row) => row.insuranceType !== '')?.insuranceType,
    ),
    group_number: nonEmpty(groupReference?.elements[1]),
    pharmacy_benefit_manager_name: nonEmpty(
      rows.flatMap((row) => row.entities).find((nm1) => nm1.elements[0] === 'VN')?.elements[2],
    ),
    coverage_dates: coverageDates(
      [
        ...(patient?.header ?? []).filter((segment) => segment.id === 'DTP'),
        ...coverageRows.flatMap((row) => row.dates),
      ],
      positions,
    ),
    pharmacy_benefits: rows.flatMap(pharmacyBenefits),
    accumulators: accumulators(rows),
    messages: rows.flatMap((row) => row.messages),
    rejections,
  };
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

function personLoop(
  loop: X12Segment[],
  delimiters: X12Delimiters,
  positions: Map<X12Segment, number>,
): PersonLoop {
  const header: X12Segment[] = [];
  const rows: BenefitRow[] = [];
  const rowRejections: X12Segment[] = [];
  let inEntityLoop = false;
  for (const segment of loop) {
    const row = rows[rows.length - 1];
    if (segment.id === 'EB') {
      rows.push(benefitRow(segment, delimiters, positions.get(segment) ?? 0));
      inEntityLoop = false;
    } else if (!row) {
      header.push(segment);
    } else if (segment.id === 'LS') {
      inEntityLoop = true;
    } else if (segment.id === 'LE') {
      inEntityLoop = false;
    } else if (inEntityLoop) {
      if (segment.id === 'NM1') row.entities.push(segment);
    } else if (segment.id === 'MSG') {
      row.messages.push(segment.elements[0] ?? '');
    } else if (segment.id === 'DTP') {
      row.dates.push(segment);
    } else if (segment.id === 'AAA') {
      rowRejections.push(segment);
    }
  }
  return { header, rows, rowRejections };
}

function benefitRow(eb: X12Segment, delimiters: X12Delimiters, position: number): BenefitRow {
  const element = (index: number) => eb.elements[index] ?? '';
  const info = element(0);
  if (info === '') throw new X12SyntaxError(`segment ${position}: EB01 is empty`);
  const percent = decimal(element(7), position, 'EB08');
  return {
    info,
    level: element(1),
    serviceTypes: element(2) === '' ? [] : element(2).split(delimiters.repetition),
    insuranceType: element(3),
    planDescription: element(4),
    period: element(5),
    amountCents: cents(decimal(element(6), position, 'EB07')),
    percent: percent === null ? null : Number((percent * 100).toFixed(4)),
    authorization: element(10),
    network: element(11),
    messages: [],
    dates: [],
    entities: [],
  };
}

/** X12's R type: an optional sign, digits and an optional decimal point. */
function decimal(value: string, position: number, element: string): number | null {
  if (value === '') return null;
  // The length first: the pattern backtracks over a long run of digits.
  if (value.length > 18 || !/^-?(\d+\.?\d*|\.\d+)$/.test(value)) {
    throw new X12SyntaxError(`segment ${position}: ${element} is not a decimal number`);
  }
  return Number(value);
}

function cents(amount: number | null): number | null {
  return amount === null ? null : Math.round(amount * 100);
}

function rejectionsIn(loop: X12Segment[], level: RejectionLevel): EligibilityRejection[] {
  return loop
    .filter((segment) => segment.id === 'AAA')
    .map((aaa) => eligibilityRejection(level, aaa.elements[2] ?? '', nonEmpty(aaa.elements[3])));
}

function coverageOf(rows: BenefitRow[]): EligibilityResponse['coverage'] {
  if (rows.some((row) => ACTIVE_COVERAGE_CODES.has(row.info))) return 'active';
  if (rows.some((row) => INACTIVE_COVERAGE_CODES.has(row.info))) return 'inactive';
  if (rows.some((row) => BENEFIT_ROW_CODES.has(row.info))) return 'active';
  return 'unknown';
}

/** DTP01 qualifiers that date the coverage: a single date is a start or an end by its qualifier. */
const COVERAGE_START = ['346', '356', '307', '291'];
const COVERAGE_END = ['347', '357', '307', '291'];
const SINGLE_DATE_ENDS = new Set(['347', '357']);

function coverageDates(
  dtps: X12Segment[],
  positions: Map<X12Segment, number>,
): EligibilityResponse['coverage_dates'] {
  const starts = new Map<string, string>();
  const ends = new Map<string, string>();
  for (const dtp of dtps) {
    const [qualifier = '', format = '', value = ''] = dtp.elements;
    if (!COVERAGE_START.includes(qualifier) && !COVERAGE_END.includes(qualifier)) continue;
    const position = positions.get(dtp) ?? 0;
    const dates = (format === 'RD8' ? value.split('-') : [value]).map((date) => {
      const iso = isoDate(date);
      if (iso === undefined) throw new X12SyntaxError(`segment ${position}: DTP03 is not a date`);
      return iso;
    });
    if (format === 'RD8' && dates.length === 2) {
      if (!starts.has(qualifier)) starts.set(qualifier, dates[0]!);
      if (!ends.has(qualifier)) ends.set(qualifier, dates[1]!);
    } else if (format === 'D8' && dates.length === 1) {
      const into = SINGLE_DATE_ENDS.has(qualifier) ? ends : starts;
      if (!into.has(qualifier)) into.set(qualifier, dates[0]!);
    } else {
      throw new X12SyntaxError(`segment ${position}: DTP02 is neither D8 nor RD8 with its date`);
    }
  }
  const start = COVERAGE_START.map((qualifier) => starts.get(qualifier)).find(Boolean) ?? null;
  const end = COVERAGE_END.map((qualifier) => ends.get(qualifier)).find(Boolean) ?? null;
  return start === null && end === null ? null : { start_date: start, end_date: end };
}

const ACCUMULATOR_KINDS: Readonly<Record<string, BenefitAccumulator['kind']>> = {
  C: 'deductible',
  G: 'out_of_pocket',
};

function pharmacyBenefits(row: BenefitRow): PharmacyBenefit[] {
  if (row.info in ACCUMULATOR_KINDS) return [];
  return row.serviceTypes
    .filter((code) => code in PHARMACY_SERVICE_TYPES)
    .map((code) => ({
      service_type_code: code,
      service_type: PHARMACY_SERVICE_TYPES[code]!,
      benefit: benefitName(row.info),
      level: levelName(row.level),
      network: networkName(row.network),
      amount_cents: row.amountCents,
      coinsurance_percent: row.percent,
      prior_authorization_required:
        row.authorization === 'Y' ? 'yes' : row.authorization === 'N' ? 'no' : 'unknown',
      messages: row.messages,
    }));
}

/**
 * Deductible (EB*C) and out-of-pocket (EB*G) rows as accumulators. A total row (EB06 a period such
 * as 23 calendar year) opens one; the next remaining row (EB06 29, or 33 for a lifetime total) with
 * the same kind, level, network and service types fills in what is left, and met follows.
 */
/** EB06 24: an amount met so far this year, as some payers report beside or instead of remaining. */
const YEAR_TO_DATE_PERIOD = '24';

function accumulators(rows: BenefitRow[]): BenefitAccumulator[] {
  const all: BenefitAccumulator[] = [];
  const open = new Map<string, BenefitAccumulator[]>();
  for (const row of rows) {
    const kind = ACCUMULATOR_KINDS[row.info];
    if (!kind || (row.amountCents === null && row.period === '')) continue;
    const remaining = row.period === REMAINING_PERIOD || row.period === LIFETIME_REMAINING_PERIOD;
    const lifetime = row.period === LIFETIME_PERIOD || row.period === LIFETIME_REMAINING_PERIOD;
    const key = [kind, row.level, row.network, lifetime, ...row.serviceTypes].join('|');
    const stack = open.get(key) ?? [];
    open.set(key, stack);
    if (row.period === YEAR_TO_DATE_PERIOD) {
      // What the member has already paid: the met amount of the open total, never a total itself.
      const accumulator = stack.at(-1) ?? newAccumulator(kind, row, periodName(row.period));
      if (stack.length === 0) all.push(accumulator);
      accumulator.met_cents = row.amountCents;
      if (
        accumulator.remaining_cents === null &&
        accumulator.total_cents !== null &&
        row.amountCents !== null
      ) {
        accumulator.remaining_cents = Math.max(0, accumulator.total_cents - row.amountCents);
      }
    } else if (remaining) {
      let accumulator = stack.pop();
      if (!accumulator) {
        accumulator = newAccumulator(kind, row, lifetime ? 'lifetime' : UNSPECIFIED_PERIOD);
        all.push(accumulator);
      }
      accumulator.remaining_cents = row.amountCents;
      accumulator.met_cents =
        accumulator.total_cents !== null && row.amountCents !== null
          ? accumulator.total_cents - row.amountCents
          : null;
    } else {
      const accumulator = newAccumulator(kind, row, periodName(row.period));
      accumulator.total_cents = row.amountCents;
      all.push(accumulator);
      stack.push(accumulator);
    }
  }
  return all;
}

function newAccumulator(
  kind: BenefitAccumulator['kind'],
  row: BenefitRow,
  period: string,
): BenefitAccumulator {
  return {
    kind,
    level: levelName(row.level) ?? 'other',
    network: networkName(row.network) ?? 'unknown',
    period,
    service_type_codes: row.serviceTypes,
    total_cents: null,
    remaining_cents: null,
    met_cents: null,
  };
}

/**
 * A 271 answering the inquiry with the given answer, as a payer would send it; the simulated
 * clearinghouse answers with it. `readEligibilityResponse` reads back the same answer for every
 * field a 271 carries, with these limits of the wire format: a `both` network is written as W
 * (not applicable); an `other` level as TWO; rejections of the information source or receiver end
 * the transaction at that level, so nothing below them (trace number, benefits) is written; an
 * accumulator needs its total row or its remaining row to be written at all.
 */
export function writeEligibilityResponse(
  inquiry: EligibilityInquiry,
  answer: EligibilityResponse,
  envelope: InterchangeEnvelope,
): string {
  const atLevel = (level: RejectionLevel) =>
    answer.rejections
      .filter((rejection) => rejection.level === level)
      .map((rejection) => [
        'AAA',
        'N',
        '',
        code('an AAA reason code', rejection.code),
        rejection.follow_up ?? '',
      ]);
  const sourceRejections = atLevel('information_source');
  const receiverRejections = atLevel('information_receiver');
  const subscriberRejections = atLevel('subscriber');
  const hasDependent = inquiry.dependent !== undefined && subscriberRejections.length === 0;
  const stopsAtSource = sourceRejections.length > 0;
  const stopsAtReceiver = !stopsAtSource && receiverRejections.length > 0;

  const payer = [
    'NM1',
    'PR',
    '2',
    elementValue('the payer name', answer.payer.name ?? inquiry.payer.name, { max: 60, name: true }),
    '',
    '',
    '',
    '',
    'PI',
    elementValue('the payer id', answer.payer.id ?? inquiry.payer.id, { min: 2, max: 80 }),
  ];
  const body: X12Element[][] = [
    [
      'BHT',
      '0022',
      '11',
      elementValue('the trace number', inquiry.traceNumber, { max: 50 }),
      ...dateAndTime(envelope.createdAt),
    ],
    ['HL', '1', '', '20', stopsAtSource ? '0' : '1'],
    payer,
    ...sourceRejections,
  ];
  if (!stopsAtSource) {
    body.push(
      ['HL', '2', '1', '21', stopsAtReceiver ? '0' : '1'],
      providerName(inquiry.provider),
      ...receiverRejections,
    );
  }
  if (!stopsAtSource && !stopsAtReceiver) {
    const trace =
      answer.trace_number === null
        ? []
        : [
            [
              'TRN',
              '2',
              elementValue('the trace number', answer.trace_number, { max: 50 }),
              traceOriginator(envelope.senderId),
            ],
          ];
    const patientRows = [...coverageDateSegments(answer), ...benefitRows(answer, atLevel('inquiry'))];
    const subscriber = inquiry.subscriber;
    body.push(
      ['HL', '3', '2', '22', hasDependent ? '1' : '0'],
      ...(hasDependent ? [] : trace),
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
      ...(answer.group_number === null
        ? []
        : [['REF', '6P', elementValue('the group number', answer.group_number, { max: 50 })]]),
      ...subscriberRejections,
      demographics('subscriber', subscriber),
    );
    if (hasDependent && inquiry.dependent) {
      body.push(
        ['HL', '4', '3', '23', '0'],
        ...trace,
        ['NM1', '03', '1', ...personName('dependent', inquiry.dependent)],
        ...atLevel('dependent'),
        demographics('dependent', inquiry.dependent),
        ['INS', 'N', RELATIONSHIP_CODES[inquiry.dependent.relationship]],
      );
    }
    body.push(...patientRows);
  }
  return writeInterchange(
    envelope,
    { functionalId: 'HB', transactionSet: '271', guide: ELIGIBILITY_GUIDE },
    body,
  );
}

function code(field: string, value: string): string {
  if (!/^[A-Z0-9]{1,3}$/.test(value))
    throw new X12ValueError(field, 'must be a code of 1 to 3 letters or digits');
  return value;
}

function coverageDateSegments(answer: EligibilityResponse): string[][] {
  const dates = answer.coverage_dates;
  return [
    ...(dates?.start_date
      ? [['DTP', '346', 'D8', x12Date('the coverage start date', dates.start_date)]]
      : []),
    ...(dates?.end_date ? [['DTP', '347', 'D8', x12Date('the coverage end date', dates.end_date)]] : []),
  ];
}

function message(text: string): string[] {
  return ['MSG', elementValue('a payer message', text, { max: 264 })];
}

function amount(cents: number | null): string {
  return cents === null ? '' : (cents / 100).toFixed(2);
}

function percent(value: number | null): string {
  return value === null ? '' : String(Number((value / 100).toFixed(6)));
}

/**
 * The EB rows of the patient: the plan's coverage with the messages not tied to a pharmacy row,
 * then the pharmacy rows with theirs, then the accumulators, then the inquiry-level rejections.
 */
function benefitRows(answer: EligibilityResponse, inquiryRejections: string[][]): X12Element[][] {
  const pharmacyMessages = answer.pharmacy_benefits.flatMap((benefit) => benefit.messages);
  const generalMessages = [...answer.messages];
  for (const text of pharmacyMessages) {
    const index = generalMessages.indexOf(text);
    if (index >= 0) generalMessages.splice(index, 1);
  }
  const rows: X12Element[][] = [];
  const coverageCode = { active: '1', inactive: '6', unknown: undefined }[answer.coverage];
  if (coverageCode) {
    rows.push(
      ['EB', coverageCode, 'IND', '30', answer.insurance_type_code ?? '', plan(answer.plan_name)],
      ...generalMessages.map(message),
    );
  }
  for (const benefit of answer.pharmacy_benefits) {
    const eb01 = benefitCode(benefit.benefit);
    if (eb01 === undefined)
      throw new X12ValueError('a pharmacy benefit', 'names a benefit with no EB01 code');
    rows.push(
      [
        'EB',
        eb01,
        levelCode(benefit.level),
        code('a service type code', benefit.service_type_code),
        '',
        '',
        '',
        amount(benefit.amount_cents),
        percent(benefit.coinsurance_percent),
        '',
        '',
        { yes: 'Y', no: 'N', unknown: '' }[benefit.prior_authorization_required],
        networkCode(benefit.network),
      ],
      ...benefit.messages.map(message),
    );
  }
  if (answer.pharmacy_benefit_manager_name !== null && rows.length > 0) {
    const name = elementValue('the pharmacy benefit manager name', answer.pharmacy_benefit_manager_name, {
      max: 60,
      name: true,
    });
    rows.push(['LS', '2120'], ['NM1', 'VN', '2', name], ['LE', '2120']);
  }
  for (const accumulator of answer.accumulators) rows.push(...accumulatorRows(accumulator));
  if (inquiryRejections.length > 0) {
    if (rows.length === 0) rows.push(['EB', 'V']);
    rows.push(...inquiryRejections);
  }
  return rows;
}

function plan(name: string | null): string {
  return name === null ? '' : elementValue('the plan name', name, { max: 50 });
}

function accumulatorRows(accumulator: BenefitAccumulator): X12Element[][] {
  const eb01 = accumulator.kind === 'deductible' ? 'C' : 'G';
  const period = periodCode(accumulator.period);
  if (period === undefined) throw new X12ValueError('an accumulator period', 'has no EB06 code');
  const serviceTypes = accumulator.service_type_codes.map((value) => code('a service type code', value));
  const row = (eb06: string, cents: number | null): X12Element[] => [
    'EB',
    eb01,
    levelCode(accumulator.level),
    serviceTypes,
    '',
    '',
    eb06,
    amount(cents),
    '',
    '',
    '',
    '',
    networkCode(accumulator.network),
  ];
  const lifetime = accumulator.period === 'lifetime';
  const rows: X12Element[][] = [];
  if (accumulator.total_cents !== null || accumulator.period !== UNSPECIFIED_PERIOD) {
    rows.push(row(period, accumulator.total_cents));
  }
  if (accumulator.remaining_cents !== null) {
    rows.push(row(lifetime ? LIFETIME_REMAINING_PERIOD : REMAINING_PERIOD, accumulator.remaining_cents));
  }
  return rows;
}
