import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EligibilityResponse } from '../../domain/payers/eligibility';
import { eligibilityRejection } from '../../infrastructure/connectors/x12/eligibility-codes';
import {
  readEligibilityResponse,
  writeEligibilityResponse,
} from '../../infrastructure/connectors/x12/eligibility-response';
import { X12SyntaxError } from '../../infrastructure/connectors/x12/interchange';
import { ACTIVE_ANSWER, DEPENDENT_INQUIRY, ENVELOPE, SUBSCRIBER_INQUIRY } from '../fixtures/x12/examples';

const FIXTURES = join(__dirname, '../fixtures/x12');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('reading public 271 samples', () => {
  it("reads LinuxForHealth's subscriber 271: active coverage, plan, payer, start date and pharmacy copays", () => {
    const response = readEligibilityResponse(fixture('linuxforhealth-subscriber-health-benefit-check.271'));
    expect(response).toMatchObject({
      trace_number: '93175-012547',
      payer: { id: '841610001', name: 'ABC COMPANY' },
      coverage: 'active',
      plan_name: 'GOLD 123 PLAN',
      insurance_type_code: 'HM',
      coverage_dates: { start_date: '2006-01-01', end_date: null },
      accumulators: [],
      rejections: [],
    });
    expect(
      response.pharmacy_benefits.map(({ benefit, network, amount_cents }) => ({
        benefit,
        network,
        amount_cents,
      })),
    ).toEqual([
      { benefit: 'active_coverage', network: null, amount_cents: null },
      { benefit: 'copayment', network: 'in_network', amount_cents: 1000 },
      { benefit: 'copayment', network: 'out_of_network', amount_cents: 3000 },
    ]);
  });

  it("reads LinuxForHealth's dependent 271 from the dependent's loop", () => {
    const response = readEligibilityResponse(fixture('linuxforhealth-dependent-health-benefit-check.271'));
    expect(response.trace_number).toBe('93175-012547');
    expect(response.coverage).toBe('active');
    expect(response.coverage_dates).toEqual({ start_date: '2006-01-01', end_date: null });
    expect(response.pharmacy_benefits).toHaveLength(3);
  });

  it("refuses LinuxForHealth's error sample, whose SE02 does not repeat its ST02, naming the rule", () => {
    const attempt = () =>
      readEligibilityResponse(fixture('linuxforhealth-subscriber-health-benefit-check-error.271'));
    expect(attempt).toThrow(X12SyntaxError);
    expect(attempt).toThrow('segment 10: SE02 does not repeat the ST02 control number');
  });
});

describe('reading our own 271 samples', () => {
  const active = () => readEligibilityResponse(fixture('ours-active-accumulators-pharmacy.271'));

  it('reads a 271 with | ! > \\ delimiters and CRLF line breaks', () => {
    expect(active()).toMatchObject({
      trace_number: 'BV01JD4Z8K2M',
      coverage: 'active',
      plan_name: 'HORIZON POS SELECT',
      insurance_type_code: 'PS',
      group_number: 'GRP0001',
      pharmacy_benefit_manager_name: 'FICTIONAL RX SERVICES',
      coverage_dates: { start_date: '2026-01-01', end_date: '2026-12-31' },
    });
  });

  it('pairs each deductible and out-of-pocket total with its remainder, by level, network and period', () => {
    expect(active().accumulators).toEqual([
      accumulator('deductible', 'individual', 'in_network', 'calendar_year', ['30'], 150000, 108000),
      accumulator('deductible', 'family', 'in_network', 'calendar_year', ['30'], 300000, 240050),
      accumulator('deductible', 'individual', 'out_of_network', 'calendar_year', ['30'], 300000, 300000),
      accumulator('out_of_pocket', 'individual', 'in_network', 'calendar_year', ['30'], 600000, 555000),
      accumulator('out_of_pocket', 'family', 'in_network', 'calendar_year', ['30'], 1200000, 1102075),
      accumulator('out_of_pocket', 'individual', 'not_applicable', 'lifetime', ['30'], 100000000, 99900000),
      accumulator('deductible', 'individual', 'in_network', 'calendar_year', ['88'], 25000, 25000),
    ]);
  });

  it('lists each pharmacy service type of each pharmacy row, with copay, coinsurance and prior authorization', () => {
    expect(
      active().pharmacy_benefits.map((b) => [
        b.service_type_code,
        b.benefit,
        b.amount_cents,
        b.coinsurance_percent,
        b.prior_authorization_required,
        b.network,
      ]),
    ).toEqual([
      ['88', 'active_coverage', null, null, 'unknown', null],
      ['90', 'active_coverage', null, null, 'unknown', null],
      ['88', 'copayment', 1000, null, 'no', 'in_network'],
      ['90', 'copayment', 1000, null, 'no', 'in_network'],
      ['91', 'copayment', 4500, null, 'yes', 'in_network'],
      ['92', 'coinsurance', null, 25, 'no', 'in_network'],
      ['88', 'coinsurance', null, 50, 'unknown', 'out_of_network'],
    ]);
    expect(active().pharmacy_benefits[4]).toMatchObject({
      service_type: 'Brand Name Prescription Drug',
      level: 'individual',
      messages: ['SPECIALTY BRANDS REQUIRE PRIOR AUTHORIZATION'],
    });
  });

  it("keeps every payer message in the payer's order", () => {
    expect(active().messages).toEqual([
      'COVERAGE IS PROVIDED UNDER A FICTIONAL TEST PLAN',
      'DEDUCTIBLE INCLUDED IN OUT OF POCKET',
      'GENERIC TIER 1 PER 30 DAY SUPPLY',
      'SPECIALTY BRANDS REQUIRE PRIOR AUTHORIZATION',
    ]);
  });

  it('reads a subscriber-level AAA 75 as a rejection of the subscriber', () => {
    const response = readEligibilityResponse(fixture('ours-subscriber-not-found.271'));
    expect(response.coverage).toBe('unknown');
    expect(response.rejections).toEqual([
      { level: 'subscriber', code: '75', reason: 'Subscriber/Insured Not Found', follow_up: 'C' },
    ]);
  });

  it('reads an AAA 72 of the subscriber even when the 271 goes on to a dependent', () => {
    expect(readEligibilityResponse(fixture('ours-invalid-member-id-with-dependent.271')).rejections).toEqual([
      { level: 'subscriber', code: '72', reason: 'Invalid/Missing Subscriber/Insured ID', follow_up: 'C' },
    ]);
  });

  it("reads a dependent's ended coverage with its dates", () => {
    expect(readEligibilityResponse(fixture('ours-dependent-coverage-ended.271'))).toMatchObject({
      coverage: 'inactive',
      insurance_type_code: 'C1',
      coverage_dates: { start_date: '2025-01-01', end_date: '2025-06-30' },
      messages: ['DEPENDENT COVERAGE ENDED'],
    });
  });

  it('takes the plan name from REF*18 when the coverage row has no plan description', () => {
    const text = fixture('ours-dependent-coverage-ended.271')
      .replace('EB*6*IND*30*C1*HORIZON PPO SELECT', 'EB*6*IND*30*C1')
      .replace('INS*N*19~', 'INS*N*19~\nREF*18*PLN77*HORIZON PPO CLASSIC~')
      .replace(/SE\*(\d+)\*/, (_, count: string) => `SE*${Number(count) + 1}*`);
    expect(readEligibilityResponse(text).plan_name).toBe('HORIZON PPO CLASSIC');
  });

  it('reads an AAA 42 of the information source, before its name', () => {
    const response = readEligibilityResponse(fixture('ours-payer-unable-to-respond.271'));
    expect(response.payer).toEqual({ id: '99999', name: 'BLUE HORIZON HEALTH' });
    expect(response.rejections).toEqual([
      {
        level: 'information_source',
        code: '42',
        reason: 'Unable to Respond at Current Time',
        follow_up: 'R',
      },
    ]);
  });
});

function accumulator(
  kind: 'deductible' | 'out_of_pocket',
  level: 'individual' | 'family',
  network: 'in_network' | 'out_of_network' | 'not_applicable',
  period: string,
  service_type_codes: string[],
  total_cents: number,
  remaining_cents: number,
) {
  return {
    kind,
    level,
    network,
    period,
    service_type_codes,
    total_cents,
    remaining_cents,
    met_cents: total_cents - remaining_cents,
  };
}

describe('the simulated clearinghouse 271', () => {
  it('reads back as the answer it was written from, for a subscriber', () => {
    const written = writeEligibilityResponse(SUBSCRIBER_INQUIRY, ACTIVE_ANSWER, ENVELOPE);
    expect(readEligibilityResponse(written)).toEqual(ACTIVE_ANSWER);
  });

  it('reads back as the answer it was written from, for a dependent', () => {
    const written = writeEligibilityResponse(DEPENDENT_INQUIRY, ACTIVE_ANSWER, ENVELOPE);
    expect(written).toContain('HL*4*3*23*0~TRN*2*BV01JD4Z8K2M');
    expect(readEligibilityResponse(written)).toEqual(ACTIVE_ANSWER);
  });

  it('reads back accumulators reported for several service types, a lifetime one and one with only a remainder', () => {
    const answer: EligibilityResponse = {
      ...ACTIVE_ANSWER,
      accumulators: [
        { ...ACTIVE_ANSWER.accumulators[0]!, service_type_codes: ['30', '88'] },
        {
          ...ACTIVE_ANSWER.accumulators[0]!,
          period: 'lifetime',
          total_cents: 5000000,
          remaining_cents: 4000000,
          met_cents: 1000000,
        },
        {
          ...ACTIVE_ANSWER.accumulators[0]!,
          period: 'unspecified',
          total_cents: null,
          remaining_cents: 9900,
          met_cents: null,
        },
      ],
    };
    expect(readEligibilityResponse(writeEligibilityResponse(SUBSCRIBER_INQUIRY, answer, ENVELOPE))).toEqual(
      answer,
    );
  });

  it('reads back a subscriber who was not found', () => {
    const answer = notFoundAnswer();
    expect(readEligibilityResponse(writeEligibilityResponse(DEPENDENT_INQUIRY, answer, ENVELOPE))).toEqual(
      answer,
    );
  });

  it('ends at the information receiver when the payer refuses the provider', () => {
    const answer: EligibilityResponse = {
      ...notFoundAnswer(),
      trace_number: null,
      rejections: [eligibilityRejection('information_receiver', '50', 'N')],
    };
    const written = writeEligibilityResponse(SUBSCRIBER_INQUIRY, answer, ENVELOPE);
    expect(written).toContain(
      'HL*2*1*21*0~NM1*1P*2*RIVERSIDE FAMILY PRACTICE*****XX*1234567893~AAA*N**50*N~SE',
    );
    expect(readEligibilityResponse(written)).toEqual(answer);
  });
});

function notFoundAnswer(): EligibilityResponse {
  return {
    trace_number: 'BV01JD4Z8K2N',
    payer: { id: '99999', name: 'BLUE HORIZON HEALTH' },
    coverage: 'unknown',
    plan_name: null,
    insurance_type_code: null,
    group_number: null,
    pharmacy_benefit_manager_name: null,
    coverage_dates: null,
    pharmacy_benefits: [],
    accumulators: [],
    messages: [],
    rejections: [eligibilityRejection('subscriber', '75', 'C')],
  };
}

describe('malformed 271s', () => {
  const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.271') || name.endsWith('.270'));

  /** A small deterministic generator, so a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  function outcomeOf(text: string): 'read' | 'X12SyntaxError' {
    try {
      readEligibilityResponse(text);
      return 'read';
    } catch (error) {
      if (error instanceof X12SyntaxError) return 'X12SyntaxError';
      throw error;
    }
  }

  it.each(fixtures)('either reads or refuses with X12SyntaxError every truncation of %s', (name) => {
    const text = fixture(name);
    for (let length = 0; length < text.length; length += 1) {
      expect(['read', 'X12SyntaxError']).toContain(outcomeOf(text.slice(0, length)));
    }
  });

  it.each(fixtures)('either reads or refuses with X12SyntaxError random mutations of %s', (name) => {
    const text = fixture(name);
    const next = random(name.length * 7919);
    const alphabet = '*^:~|!>\\0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.-\r\n ';
    for (let round = 0; round < 400; round += 1) {
      const characters = [...text];
      const edits = 1 + Math.floor(next() * 4);
      for (let edit = 0; edit < edits; edit += 1) {
        const at = Math.floor(next() * characters.length);
        const kind = next();
        const character = alphabet[Math.floor(next() * alphabet.length)]!;
        if (kind < 0.4) characters[at] = character;
        else if (kind < 0.7) characters.splice(at, 1);
        else characters.splice(at, 0, character);
      }
      expect(['read', 'X12SyntaxError']).toContain(outcomeOf(characters.join('')));
    }
  });

  it.each(fixtures)('either reads or refuses with X12SyntaxError element-level mutations of %s', (name) => {
    // Envelope counts stay right, so the mutations reach the loops, dates and amounts.
    const text = fixture(name).replace(/\r?\n/g, '');
    const element = text[3]!;
    const terminator = text[105]!;
    const segments = text.split(terminator).filter(Boolean);
    const tokens = [
      '',
      'RD8',
      'D8',
      '29',
      '33',
      '23',
      '20',
      '22',
      '23',
      'EB',
      'LS',
      'LE',
      '1.2',
      '-',
      '.',
      '20261399',
      '20260101-2026',
      '88',
      'Y',
      'N',
      'VN',
      'C',
    ];
    const next = random(name.length * 104_729);
    for (let round = 0; round < 600; round += 1) {
      const mutated = segments.map((segment) => segment.split(element));
      for (let edit = 0; edit < 3; edit += 1) {
        const segment = mutated[3 + Math.floor(next() * (mutated.length - 6))]!;
        const at = 1 + Math.floor(next() * (segment.length + 1));
        segment[at] = tokens[Math.floor(next() * tokens.length)]!;
        for (let index = 0; index < at; index += 1) segment[index] ??= '';
      }
      const mutatedText = mutated.map((segment) => segment.join(element)).join(terminator) + terminator;
      expect(['read', 'X12SyntaxError']).toContain(outcomeOf(mutatedText));
    }
  });

  it('refuses a non-numeric amount, naming the element and position but not the value', () => {
    const text = fixture('ours-subscriber-not-found.271').replace('AAA*N**75*C', 'EB*C*IND*30***23*12O0');
    const attempt = () => readEligibilityResponse(text);
    expect(attempt).toThrow('segment 12: EB07 is not a decimal number');
    expect(attempt).not.toThrow('12O0');
  });

  it.each([
    ['line breaks inside a segment', `NM1*PR${'\n'.repeat(200_000)}X`],
    ['a very long amount', `EB*B*IND*88***27*${'1'.repeat(200_000)}X`],
    ['a very long segment id', `${'A'.repeat(200_000)}*1`],
  ])('reads or refuses a 271 with %s quickly', (_, segment) => {
    const text = fixture('ours-subscriber-not-found.271').replace('AAA*N**75*C', segment);
    const started = Date.now();
    expect(['read', 'X12SyntaxError']).toContain(outcomeOf(text));
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('reads a 271 with tens of thousands of benefit rows in time proportional to its length', () => {
    const rows = Array.from({ length: 40_000 }, (_, index) => `EB*B*IND*88***27*${index}.00****N*Y~MSG*ROW~`);
    const base = fixture('ours-subscriber-not-found.271').replace(/\n/g, '');
    const text = base
      .replace('AAA*N**75*C~', rows.join(''))
      .replace(/SE\*(\d+)\*/, (_, count: string) => `SE*${Number(count) - 1 + rows.length * 2}*`);
    const started = Date.now();
    expect(readEligibilityResponse(text).pharmacy_benefits).toHaveLength(40_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('reading what payers and clearinghouses add', () => {
  /** A fixture with one segment replaced in place, so the envelope counts still hold. */
  const replaced = (name: string, segment: string, by: string) => {
    const text = fixture(name);
    expect(text).toContain(segment);
    return text.replace(segment, by);
  };

  it("keeps every TRN*2 of the patient's loop, the clearinghouse's before ours included", () => {
    const text = replaced(
      'ours-active-accumulators-pharmacy.271',
      'TRN|2|BV01JD4Z8K2M|9HEALTHACC\\\r\nTRN|1|202611230001|9ZZCLEARHO',
      'TRN|2|CH55555|9ZZCLEARHO\\\r\nTRN|2|BV01JD4Z8K2M|9HEALTHACC',
    );
    expect(readEligibilityResponse(text)).toMatchObject({
      trace_number: 'CH55555',
      trace_numbers: ['CH55555', 'BV01JD4Z8K2M'],
    });
  });

  it('takes a year-to-date amount as what was met of the open total, never as a total', () => {
    const text = replaced(
      'ours-active-accumulators-pharmacy.271',
      'EB|C|IND|30|||29|1080|||||Y',
      'EB|C|IND|30|||24|420|||||Y',
    );
    expect(readEligibilityResponse(text).accumulators[0]).toMatchObject({
      kind: 'deductible',
      level: 'individual',
      network: 'in_network',
      total_cents: 150000,
      met_cents: 42000,
      remaining_cents: 108000,
    });
  });

  it('never repeats an AAA reason that is not a code, since it could be anything', () => {
    const text = replaced('ours-subscriber-not-found.271', 'AAA*N**75*C~', 'AAA*N**JANE DOE*C~');
    expect(readEligibilityResponse(text).rejections).toEqual([
      { level: 'subscriber', code: 'unrecognized', reason: expect.any(String), follow_up: null },
    ]);
    expect(JSON.stringify(readEligibilityResponse(text))).not.toContain('JANE');
  });
});
