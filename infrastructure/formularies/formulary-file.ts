import { normalizeNdc } from '../../domain/payers/payer-catalog';
import { CsvSyntaxError, readCsv } from './csv';
import { drugNameKeyOf, FormularyEntry, planKeyOf } from './formulary-entry';

/** What one upload may hold; docs/formularies.md states the same numbers. */
export const FORMULARY_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxRows: 100_000,
  maxFieldLength: 200,
  /** Problems reported per upload: enough to fix a file in a few rounds, not a copy of it. */
  maxProblems: 20,
} as const;

export const FORMULARY_COLUMNS = [
  'payer_id',
  'plan',
  'ndc',
  'drug_name',
  'coverage',
  'tier',
  'prior_authorization_required',
  'step_therapy_required',
  'quantity_limit',
  'quantity_limit_period_days',
  'copay_cents',
  'copay_supply_days',
  'coinsurance_percent',
  'benefit_type',
  'hcpcs_code',
] as const;
type Column = (typeof FORMULARY_COLUMNS)[number];

const DEFAULT_COPAY_SUPPLY_DAYS = 30;

/** One thing wrong with the file: where (row, column name) and which rule, never the cell's text. */
export interface FormularyProblem {
  row: number;
  column: string | null;
  issue: string;
}

export class FormularyFileError extends Error {
  constructor(
    readonly problems: FormularyProblem[],
    /** More problems were found than are listed. */
    readonly truncated: boolean,
  ) {
    super(`The formulary file has ${problems.length}${truncated ? '+' : ''} problems`);
    this.name = 'FormularyFileError';
  }
}

/** Refused rather than read: a cell that breaks its column's rule. */
class CellError extends Error {}

/**
 * Reads a formulary CSV for one payer into entries, or throws FormularyFileError listing every
 * problem up to FORMULARY_LIMITS.maxProblems. Either the whole file is good or nothing is returned.
 */
export function readFormularyFile(text: string, payerId: string): FormularyEntry[] {
  const problems: FormularyProblem[] = [];
  let truncated = false;
  const report = (problem: FormularyProblem) => {
    if (problems.length < FORMULARY_LIMITS.maxProblems) problems.push(problem);
    else truncated = true;
  };
  const entries: FormularyEntry[] = [];
  let header: Column[] | undefined;
  const rowsByDrug = new Map<string, number>();
  try {
    for (const record of readCsv(text, {
      maxRecords: FORMULARY_LIMITS.maxRows + 1,
      maxColumns: FORMULARY_COLUMNS.length,
      maxFieldLength: FORMULARY_LIMITS.maxFieldLength,
    })) {
      if (!header) {
        header = readHeader(record.row, record.fields, report);
        if (!header) break;
        continue;
      }
      const entry = readRow(record.row, record.fields, header, payerId, report);
      if (!entry) continue;
      const drugKey = `${planKeyOf(entry.plan)}|${entry.ndc ?? `name:${drugNameKeyOf(entry.drug_name)}`}`;
      const earlier = rowsByDrug.get(drugKey);
      if (earlier !== undefined) {
        report({ row: entry.row, column: null, issue: `repeats the drug and plan of row ${earlier}` });
      } else {
        rowsByDrug.set(drugKey, entry.row);
        entries.push(entry);
      }
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    report({ row: error.row, column: header?.[error.column - 1] ?? `#${error.column}`, issue: error.issue });
  }
  if (problems.length === 0 && entries.length === 0) {
    report({
      row: 1,
      column: null,
      issue: header
        ? 'the file has no rows after its header (to remove a formulary, DELETE it)'
        : 'the file is empty: it needs a header row and one row per drug',
    });
  }
  if (problems.length > 0) throw new FormularyFileError(problems, truncated);
  return entries;
}

function readHeader(
  row: number,
  fields: string[],
  report: (problem: FormularyProblem) => void,
): Column[] | undefined {
  const names = fields.map((field) => field.trim().toLowerCase());
  let valid = true;
  const fail = (column: string | null, issue: string) => {
    report({ row, column, issue });
    valid = false;
  };
  names.forEach((name, index) => {
    if (!(FORMULARY_COLUMNS as readonly string[]).includes(name)) {
      fail(`#${index + 1}`, 'is not a column of the formulary format (see docs/formularies.md)');
    } else if (names.indexOf(name) !== index) {
      fail(name, 'appears twice in the header');
    }
  });
  if (!names.includes('coverage')) fail('coverage', 'the header needs this column');
  if (!names.includes('ndc') && !names.includes('drug_name')) {
    fail('ndc', 'the header needs an ndc column, a drug_name column or both');
  }
  return valid ? (names as Column[]) : undefined;
}

function readRow(
  row: number,
  fields: string[],
  header: Column[],
  payerId: string,
  report: (problem: FormularyProblem) => void,
): FormularyEntry | undefined {
  if (fields.length !== header.length) {
    report({ row, column: null, issue: `has ${fields.length} fields where the header has ${header.length}` });
    return undefined;
  }
  const cells = new Map<Column, string>();
  header.forEach((column, index) => {
    const value = fields[index]!.trim();
    if (value !== '') cells.set(column, value);
  });
  let valid = true;
  function read<T>(column: Column, parse: (value: string) => T): T | null {
    const value = cells.get(column);
    if (value === undefined) return null;
    try {
      return parse(value);
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      report({ row, column, issue: error.message });
      valid = false;
      return null;
    }
  }
  const missing = (column: Column, issue: string) => {
    report({ row, column, issue });
    valid = false;
  };

  read('payer_id', (value) => {
    if (value.toUpperCase() !== payerId) throw new CellError('names another payer than the URL');
  });
  const plan = read('plan', (value) => {
    if (planKeyOf(value) === '') throw new CellError('must contain letters or digits');
    return value;
  });
  const ndc = read('ndc', parseNdc);
  const drugName = read('drug_name', (value) => {
    if (drugNameKeyOf(value) === null) throw new CellError('must contain letters or digits');
    return value;
  });
  if (!cells.has('ndc') && !cells.has('drug_name'))
    missing('ndc', 'each row needs an ndc, a drug_name or both');
  const coverage = read('coverage', oneOf(['covered', 'not_covered'] as const));
  if (!cells.has('coverage')) missing('coverage', 'is required: covered or not_covered');
  const tier = read('tier', wholeNumber(1, 20));
  const priorAuthorization = read('prior_authorization_required', yesOrNo);
  const stepTherapy = read('step_therapy_required', yesOrNo);
  const quantityLimit = read('quantity_limit', wholeNumber(1, 1_000_000));
  const quantityLimitPeriod = read('quantity_limit_period_days', wholeNumber(1, 3650));
  if (quantityLimitPeriod !== null && !cells.has('quantity_limit')) {
    missing('quantity_limit_period_days', 'needs a quantity_limit in the same row');
  }
  const copayCents = read('copay_cents', wholeNumber(0, 10_000_000));
  const copaySupplyDays = read('copay_supply_days', wholeNumber(1, 365));
  if (copaySupplyDays !== null && !cells.has('copay_cents')) {
    missing('copay_supply_days', 'needs a copay_cents in the same row');
  }
  const coinsurance = read('coinsurance_percent', percent);
  const benefitType = read('benefit_type', oneOf(['pharmacy', 'medical'] as const));
  const hcpcsCode = read('hcpcs_code', parseHcpcs);
  if (!valid || coverage === null) return undefined;
  return {
    row,
    plan,
    ndc,
    drug_name: drugName,
    coverage,
    tier,
    prior_authorization_required: priorAuthorization ?? false,
    step_therapy_required: stepTherapy ?? false,
    quantity_limit: quantityLimit,
    quantity_limit_period_days: quantityLimitPeriod,
    copay:
      copayCents === null
        ? null
        : { amount_cents: copayCents, supply_duration_days: copaySupplyDays ?? DEFAULT_COPAY_SUPPLY_DAYS },
    coinsurance_percent: coinsurance,
    benefit_type: benefitType ?? 'pharmacy',
    hcpcs_code: hcpcsCode,
  };
}

const NDC_SEGMENT_LENGTHS = new Set(['5-4-2', '4-4-2', '5-3-2', '5-4-1']);

function parseNdc(value: string): string {
  const segments = value.split('-');
  const digitsOnly = segments.every((segment) => /^[0-9]+$/.test(segment));
  const lengths = segments.map((segment) => segment.length).join('-');
  if (digitsOnly && (lengths === '11' || NDC_SEGMENT_LENGTHS.has(lengths))) return normalizeNdc(value);
  throw new CellError('must be 11 digits, or hyphenated as 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits');
}

function parseHcpcs(value: string): string {
  const code = value.toUpperCase();
  if (/^[A-Z][0-9]{4}$/.test(code)) return code;
  throw new CellError('must be a HCPCS code: a letter and four digits, such as J1745');
}

function oneOf<const Value extends string>(values: readonly Value[]) {
  return (value: string): Value => {
    const lower = value.toLowerCase();
    const found = values.find((allowed) => allowed === lower);
    if (found) return found;
    throw new CellError(`must be ${values.join(' or ')}`);
  };
}

function yesOrNo(value: string): boolean {
  return oneOf(['yes', 'no'] as const)(value) === 'yes';
}

function wholeNumber(minimum: number, maximum: number) {
  return (value: string): number => {
    const number = /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
    if (number >= minimum && number <= maximum) return number;
    throw new CellError(`must be a whole number from ${minimum} to ${maximum}`);
  };
}

function percent(value: string): number {
  const number = /^[0-9]{1,3}(?:\.[0-9]{1,2})?$/.test(value) ? Number(value) : NaN;
  if (number >= 0 && number <= 100) return number;
  throw new CellError('must be a number from 0 to 100, with at most two decimals');
}
