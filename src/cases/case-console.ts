import type { CaseRecord, CaseStatus } from '../../domain/cases/case-model';
import type { Fact, Html } from '../console/views';

/**
 * What the console shows and offers of one case type, declared in the type's folder
 * (`types/<type>/<type>.console.ts`): its section of the console, what its case page shows beyond
 * what every case has, and its decisions as forms. The console reads it from `CaseType.console`.
 */
export interface CaseConsole<Case extends CaseRecord = CaseRecord> {
  section: CaseConsoleSection;
  view: CaseTypeView<Case>;
  /** Each a decision of `CaseType.decisions` by name; a type people decide nothing on has none. */
  decisionForms: readonly DecisionForm[];
}

/** The type's section of the console: `/console/<segment>`, its navigation label and headings. */
export interface CaseConsoleSection {
  segment: string;
  title: string;
  /** One case of the section, as a page heading names it. */
  singular: string;
  /** Its lists show each open case's due date and the outcome so far, which its summaries hold. */
  listsDueAndOutcome?: boolean;
}

/** What a case page shows of one case type beyond what every case has (`CaseConsole.view`). */
export interface CaseTypeView<Case extends CaseRecord = CaseRecord> {
  /** Facts of this type, after every case's ids, status and dates. */
  facts(record: Case): Fact[];
  /** What the case came to; undefined while it has come to nothing yet. */
  results(record: Case): Html | undefined;
  /** What a reviewer weighs besides the request (a prefill's criteria): for the account's people, never operators. */
  reviewerSections?(record: Case): Html;
}

export interface DecisionField {
  /** The API body's field path, dotted for nested objects. */
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'select' | 'date';
  options?: readonly string[];
  /** What the field holds before anyone types: the case's current answer, for a form drawn from the case. */
  initial?: string;
}

/**
 * A table of the form with one row per item of the case (each requested drug), sent as the body's
 * array `name`: row i's fields are named `name.i.field`, and its `keyField` holds the item as the
 * case names it, so the API matches the row to the item.
 */
export interface DecisionRows {
  name: string;
  caption: string;
  /** The column heading of the items (Drug, Question). */
  keyHeading: string;
  keyField: string;
  /** As many rows as the decision's body takes items at most; the console reads no more. */
  maxRows: number;
  keysOf(record: CaseRecord): string[];
  fields: DecisionField[];
}

/**
 * A case decision as a console form: which case it applies to, its fields (named as the API's body
 * names them, so the API's validation messages name them too) and how the form becomes that body.
 */
export interface DecisionForm {
  /** The case type's decision of this name (`CaseType.decisions`), sent exactly as the API sends it. */
  decision: string;
  status: CaseStatus;
  heading: string;
  fields: DecisionField[];
  /** Fields drawn from the case as it stands (a payer's questionnaire), after `fields`. */
  fieldsOf?(record: CaseRecord): DecisionField[];
  rows?: DecisionRows;
  /** Whether the case, in the form's status, has something for the form to do; always when absent. */
  appliesTo?(record: CaseRecord): boolean;
  /** Buttons that send the form; a button with a value sends it as `choice`. */
  buttons: Array<{ label: string; value?: string; kind?: 'primary' | 'danger' }>;
  body(values: Record<string, string>, person: string, record: CaseRecord): object;
}

/** The form field that carries which of a form's buttons was pressed. */
export const CHOICE_FIELD = 'choice';

/** Which fields of a form are typed in dollars (sent as cents) and which are counts. */
export interface NumericFields {
  dollars?: ReadonlySet<string>;
  counts?: ReadonlySet<string>;
}

/**
 * Amounts typed in dollars as the API's cents, and counts as numbers; a row's field is known by its
 * name without the row (`drugs.0.copay.amount_cents` is `copay.amount_cents`). Text that is neither
 * stays text, which the API's validation then names.
 */
export function numbersOf(
  values: Record<string, string>,
  { dollars, counts }: NumericFields,
): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const field = name.replace(/^[a-z_]+\.\d+\./, '');
      if (dollars?.has(field) && /^\d+(\.\d{1,2})?$/.test(value))
        return [name, Math.round(Number(value) * 100)];
      if (counts?.has(field) && /^\d+(\.\d+)?$/.test(value)) return [name, Number(value)];
      return [name, value];
    }),
  );
}

/** Dotted field names as nested objects; empty fields are left out, as an API client would leave them. */
export function nest(values: Record<string, string | number>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === '' || name === CHOICE_FIELD) continue;
    const path = name.split(/\./);
    let target = body;
    for (const key of path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[path[path.length - 1]!] = value;
  }
  return body;
}

/** A form table's rows (nested as `{ "0": row, "1": row }`) in order, those whose `field` was filled in. */
export function filledRows(nested: unknown, field: string): Array<Record<string, unknown>> {
  return Object.entries((nested ?? {}) as Record<string, Record<string, unknown>>)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, row]) => row)
    .filter((row) => row[field] !== undefined);
}
