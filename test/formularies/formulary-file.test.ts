import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { CsvSyntaxError, readCsv } from '../../infrastructure/formularies/csv';
import {
  FORMULARY_LIMITS,
  FormularyFileError,
  FormularyProblem,
  readFormularyFile,
} from '../../infrastructure/formularies/formulary-file';

const LIMITS = { maxRecords: 1000, maxColumns: 20, maxFieldLength: 200 };
const records = (text: string) => [...readCsv(text, LIMITS)];

function problemsOf(text: string, payerId = 'BHH01'): FormularyProblem[] {
  try {
    readFormularyFile(text, payerId);
  } catch (error) {
    if (error instanceof FormularyFileError) return error.problems;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('the CSV reader', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks inside them', () => {
    expect(records('a,b\n"x, y","say ""hi""\nagain"\n')).toEqual([
      { row: 1, fields: ['a', 'b'] },
      { row: 2, fields: ['x, y', 'say "hi"\nagain'] },
    ]);
  });

  it('accepts CRLF, LF and CR line ends and numbers rows by the line they start on', () => {
    expect(records('a\r\nb\nc\rd')).toEqual([
      { row: 1, fields: ['a'] },
      { row: 2, fields: ['b'] },
      { row: 3, fields: ['c'] },
      { row: 4, fields: ['d'] },
    ]);
    expect(records('a\n"two\r\nlines"\nb').map((record) => record.row)).toEqual([1, 2, 4]);
  });

  it('skips a leading byte order mark and blank lines', () => {
    expect(records('\uFEFFa,b\n\n1,2\r\n\r\n')).toEqual([
      { row: 1, fields: ['a', 'b'] },
      { row: 3, fields: ['1', '2'] },
    ]);
  });

  it('keeps empty fields, a trailing one included', () => {
    expect(records('a,,c,\n')).toEqual([{ row: 1, fields: ['a', '', 'c', ''] }]);
  });

  it.each([
    ['a quote inside an unquoted field', 'a,b\n1,x"y\n', 2, 2],
    ['text after a closing quote', 'a,b\n"x"y,2\n', 2, 1],
    ['a quoted field never closed', 'a,b\n1,"open\n\n', 2, 2],
  ])('refuses %s, naming its row and column', (_case, text, row, column) => {
    expect(() => records(text)).toThrow(expect.objectContaining({ row, column }));
  });

  it('refuses a field, a row or a file beyond its limit', () => {
    const limits = { maxRecords: 2, maxColumns: 2, maxFieldLength: 3 };
    expect(() => [...readCsv('abcd', limits)]).toThrow(CsvSyntaxError);
    expect(() => [...readCsv('a,b,c', limits)]).toThrow(/more than 2 columns/);
    expect(() => [...readCsv('a\nb\nc', limits)]).toThrow(/more than 1 rows/);
  });

  it('reads a hostile file of quotes in time proportional to its length', () => {
    const text = `"${'""'.repeat(2_000_000)}`;
    const started = process.hrtime.bigint();
    expect(() => records(text)).toThrow(/never closed/);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5_000);
  });
});

describe('a formulary file', () => {
  const HEADER = 'payer_id,plan,ndc,drug_name,coverage,tier,prior_authorization_required';

  it('reads the documented example', () => {
    const example = readFileSync(path.join(__dirname, '../../docs/examples/formulary.csv'), 'utf8');
    const entries = readFormularyFile(example, 'BHH01');
    expect(entries.length).toBeGreaterThan(3);
    expect(entries[0]).toMatchObject({ row: 2, coverage: 'covered' });
  });

  it('reads every column, with header names in any case and order, values trimmed', () => {
    const text =
      'NDC, Coverage ,tier,prior_authorization_required,step_therapy_required,quantity_limit,' +
      'quantity_limit_period_days,copay_cents,copay_supply_days,coinsurance_percent,benefit_type,hcpcs_code,plan\n' +
      '0169-4132-12,Covered,3,YES,no,4,28,2500,90,12.5,medical,j1745, GRP-100 \n';
    expect(readFormularyFile(text, 'BHH01')).toEqual([
      {
        row: 2,
        plan: 'GRP-100',
        ndc: '00169413212',
        drug_name: null,
        coverage: 'covered',
        tier: 3,
        prior_authorization_required: true,
        step_therapy_required: false,
        quantity_limit: 4,
        quantity_limit_period_days: 28,
        copay: { amount_cents: 2500, supply_duration_days: 90 },
        coinsurance_percent: 12.5,
        benefit_type: 'medical',
        hcpcs_code: 'J1745',
      },
    ]);
  });

  it('defaults what a row leaves empty: every plan, no PA, pharmacy benefit, 30-day copay', () => {
    const [entry] = readFormularyFile('drug_name,coverage,copay_cents\nOzempic,covered,0\n', 'BHH01');
    expect(entry).toMatchObject({
      plan: null,
      prior_authorization_required: false,
      step_therapy_required: false,
      benefit_type: 'pharmacy',
      copay: { amount_cents: 0, supply_duration_days: 30 },
    });
  });

  it('names the row and column of every bad cell, never its value', () => {
    const text =
      `${HEADER}\n` +
      'BHH01,,12345678901,,covered,three,yes\n' +
      'OTHER,,,Ozempic,maybe,2,perhaps\n' +
      'BHH01,,1234-567,,covered,1,no\n';
    expect(problemsOf(text)).toEqual([
      { row: 2, column: 'tier', issue: 'must be a whole number from 1 to 20' },
      { row: 3, column: 'payer_id', issue: 'names another payer than the URL' },
      { row: 3, column: 'coverage', issue: 'must be covered or not_covered' },
      { row: 3, column: 'prior_authorization_required', issue: 'must be yes or no' },
      {
        row: 4,
        column: 'ndc',
        issue: 'must be 11 digits, or hyphenated as 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits',
      },
    ]);
    expect(JSON.stringify(problemsOf(text))).not.toMatch(/three|perhaps|maybe|OTHER|1234-567/);
  });

  it('refuses a row without a drug or a coverage, and cost-share columns without their partner', () => {
    const text = 'ndc,drug_name,coverage,quantity_limit_period_days,copay_supply_days\n' + ',,,30,90\n';
    expect(problemsOf(text)).toEqual([
      { row: 2, column: 'ndc', issue: 'each row needs an ndc, a drug_name or both' },
      { row: 2, column: 'coverage', issue: 'is required: covered or not_covered' },
      { row: 2, column: 'quantity_limit_period_days', issue: 'needs a quantity_limit in the same row' },
      { row: 2, column: 'copay_supply_days', issue: 'needs a copay_cents in the same row' },
    ]);
  });

  it('refuses a drug listed twice for the same plan', () => {
    const text = 'plan,ndc,coverage\nGold,00169413212,covered\ngold,0169-4132-12,not_covered\n';
    expect(problemsOf(text)).toEqual([{ row: 3, column: null, issue: 'repeats the drug and plan of row 2' }]);
  });

  it('refuses unknown, repeated and missing header columns', () => {
    expect(problemsOf('ndc,covrage,ndc\n')).toEqual([
      { row: 1, column: '#2', issue: 'is not a column of the formulary format (see docs/formularies.md)' },
      { row: 1, column: 'ndc', issue: 'appears twice in the header' },
      { row: 1, column: 'coverage', issue: 'the header needs this column' },
    ]);
    expect(problemsOf('coverage,tier\n')).toEqual([
      { row: 1, column: 'ndc', issue: 'the header needs an ndc column, a drug_name column or both' },
    ]);
  });

  it('refuses an empty file, a header without rows and a row with the wrong number of fields', () => {
    expect(problemsOf('')).toEqual([
      { row: 1, column: null, issue: 'the file is empty: it needs a header row and one row per drug' },
    ]);
    expect(problemsOf('ndc,coverage\r\n\r\n')).toEqual([
      {
        row: 1,
        column: null,
        issue: 'the file has no rows after its header (to remove a formulary, DELETE it)',
      },
    ]);
    expect(problemsOf('ndc,coverage\n00169413212\n')).toEqual([
      { row: 2, column: null, issue: 'has 1 fields where the header has 2' },
    ]);
  });

  it('reports a CSV syntax error under its column name', () => {
    expect(problemsOf('drug_name,coverage\nOzempic,"covered\n')).toEqual([
      { row: 2, column: 'coverage', issue: 'a quoted field is never closed' },
    ]);
  });

  it(`lists at most ${FORMULARY_LIMITS.maxProblems} problems and says there were more`, () => {
    const text = `ndc,coverage\n${'00169413212,unknown\n'.repeat(30)}`;
    const error = (() => {
      try {
        readFormularyFile(text, 'BHH01');
      } catch (caught) {
        return caught as FormularyFileError;
      }
    })();
    expect(error?.problems).toHaveLength(FORMULARY_LIMITS.maxProblems);
    expect(error?.truncated).toBe(true);
  });
});
