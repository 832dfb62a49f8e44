import type { BenefitVerificationCase } from '../../../domain/cases/benefit-verification';
import type { CaseObjectType, CaseRecord, CaseStatus } from '../../../domain/cases/case-model';
import {
  PRIOR_AUTH_OUTCOME_RESULTS,
  type PriorAuthorizationCase,
} from '../../../domain/cases/prior-authorization';
import {
  BENEFIT_VERIFICATION_STATUSES,
  COVERAGE_STATUSES,
  MANUAL_DRUG_COVERAGES,
  PRIOR_AUTH_REQUIREMENTS,
} from '../../cases/types/benefit-verification/benefit-verification.dto';
import { ENROLLMENT_RESULTS } from '../../cases/types/patient-enrollment/patient-enrollment.dto';
import { formText } from '../forms';

export interface DecisionField {
  /** The API body's field path, dotted for nested objects. */
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'select' | 'date';
  options?: readonly string[];
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
  rows?: DecisionRows;
  /** Whether the case, in the form's status, has something for the form to do; always when absent. */
  appliesTo?(record: CaseRecord): boolean;
  /** Buttons that send the form; a button with a value sends it as `choice`. */
  buttons: Array<{ label: string; value?: string; kind?: 'primary' | 'danger' }>;
  body(values: Record<string, string>, person: string): object;
}

export const CHOICE_FIELD = 'choice';

const MAX_FIELD_LENGTH = 20_000;

/** As many rows as a benefit verification requests drugs at most. */
const MAX_ROWS = 20;

const DOLLAR_FIELDS = new Set([
  'deductible.total_cents',
  'deductible.met_cents',
  'out_of_pocket.total_cents',
  'out_of_pocket.met_cents',
  'copay.amount_cents',
]);
const NUMBER_FIELDS = new Set([
  'copay.supply_duration_days',
  'coinsurance_percent',
  'quantity_limit.quantity',
  'quantity_limit.period_days',
  'approved_quantity',
]);

const MANUAL_DRUG_ROWS: DecisionRows = {
  name: 'drugs',
  caption: 'Per-drug results (leave coverage empty for a drug not verified)',
  keyHeading: 'Drug',
  keyField: 'drug',
  keysOf: (record) =>
    (record as BenefitVerificationCase).request.drugs.map((drug) => drug.name ?? drug.ndc ?? ''),
  fields: [
    { name: 'coverage', label: 'Coverage', kind: 'select', options: ['', ...MANUAL_DRUG_COVERAGES] },
    {
      name: 'prior_authorization_required',
      label: 'Prior authorization',
      kind: 'select',
      options: PRIOR_AUTH_REQUIREMENTS,
    },
    { name: 'copay.amount_cents', label: 'Copay ($)', kind: 'text' },
    { name: 'copay.supply_duration_days', label: 'Copay supply (days)', kind: 'text' },
    { name: 'coinsurance_percent', label: 'Coinsurance (%)', kind: 'text' },
    { name: 'quantity_limit.quantity', label: 'Quantity limit', kind: 'text' },
    { name: 'quantity_limit.period_days', label: 'Limit period (days)', kind: 'text' },
    { name: 'notes', label: 'Notes', kind: 'text' },
  ],
};

/** A reviewer's clinical review, the payer's answer recorded by hand, and answers to the payer's questions. */
export const PRIOR_AUTHORIZATION_DECISION_FORMS: readonly DecisionForm[] = [
  {
    decision: 'review',
    status: 'awaiting_review',
    heading: 'Clinical review',
    fields: [{ name: 'notes', label: 'Note', kind: 'textarea' }],
    buttons: [
      { label: 'Approve', value: 'approve', kind: 'primary' },
      { label: 'Reject', value: 'reject', kind: 'danger' },
    ],
    // The reviewer is the person signed in: the console never lets anyone decide in another's name.
    body: (values, person) => ({ ...nest(values), decision: values[CHOICE_FIELD] ?? '', reviewer: person }),
  },
  {
    decision: 'outcome',
    status: 'awaiting_outcome',
    heading: "Record the payer's answer",
    fields: [
      { name: 'result', label: 'Result', kind: 'select', options: PRIOR_AUTH_OUTCOME_RESULTS },
      {
        name: 'detail_code',
        label: 'Detail code (more_information_required: the payer asks for information)',
        kind: 'text',
      },
      {
        name: 'detail',
        label: 'Detail (the payer’s question, for an information request)',
        kind: 'textarea',
      },
      { name: 'payer_reference', label: 'Payer reference', kind: 'text' },
      { name: 'authorization_number', label: 'Authorization number', kind: 'text' },
      { name: 'approved_quantity', label: 'Approved quantity (partial approval)', kind: 'text' },
      { name: 'authorization_start_date', label: 'Authorization start date', kind: 'date' },
      { name: 'authorization_expiration', label: 'Authorization expiration', kind: 'date' },
    ],
    buttons: [{ label: 'Record payer outcome', kind: 'primary' }],
    body: (values) => nest(numbersOf(values)),
  },
  {
    decision: 'information',
    status: 'awaiting_outcome',
    heading: "Answer the payer's information request",
    fields: [],
    appliesTo: (record) => Boolean((record as PriorAuthorizationCase).pending_request),
    rows: {
      name: 'answers',
      caption: 'Answers, one per question of the pending request',
      keyHeading: 'Question id',
      keyField: 'question_id',
      keysOf: (record) =>
        ((record as PriorAuthorizationCase).pending_request?.questions ?? []).map((question) => question.id),
      fields: [{ name: 'answer', label: 'Answer', kind: 'textarea' }],
    },
    buttons: [{ label: 'Send answers to the payer', kind: 'primary' }],
    body: (values) => {
      const { answers } = nest(values);
      // A question left unanswered is left out, as an API client leaves it out.
      return { answers: filledRows(answers, 'answer') };
    },
  },
];

/** A benefit verification a person completes by hand, after calling the plan. */
export const BENEFIT_VERIFICATION_DECISION_FORMS: readonly DecisionForm[] = [
  {
    decision: 'outcome',
    status: 'awaiting_review',
    heading: 'Manual verification',
    fields: [
      {
        name: 'status',
        label: 'Verification result',
        kind: 'select',
        options: BENEFIT_VERIFICATION_STATUSES,
      },
      {
        name: 'coverage_status',
        label: 'Coverage status',
        kind: 'select',
        options: ['', ...COVERAGE_STATUSES],
      },
      { name: 'notes', label: 'Notes', kind: 'textarea' },
      { name: 'deductible.total_cents', label: 'Deductible total ($)', kind: 'text' },
      { name: 'deductible.met_cents', label: 'Deductible met ($)', kind: 'text' },
      { name: 'out_of_pocket.total_cents', label: 'Out-of-pocket total ($)', kind: 'text' },
      { name: 'out_of_pocket.met_cents', label: 'Out-of-pocket met ($)', kind: 'text' },
      { name: 'coverage_dates.start_date', label: 'Coverage start date', kind: 'date' },
      { name: 'coverage_dates.end_date', label: 'Coverage end date', kind: 'date' },
      // What the reviewer confirmed with the plan, for a card read wrong or not at all.
      { name: 'insurance.payer', label: 'Confirmed payer', kind: 'text' },
      { name: 'insurance.member_id', label: 'Confirmed member id', kind: 'text' },
      { name: 'insurance.group_number', label: 'Confirmed group number', kind: 'text' },
      { name: 'insurance.rx_bin', label: 'Confirmed RxBIN', kind: 'text' },
      { name: 'insurance.rx_pcn', label: 'Confirmed RxPCN', kind: 'text' },
      { name: 'insurance.rx_group', label: 'Confirmed RxGroup', kind: 'text' },
    ],
    rows: MANUAL_DRUG_ROWS,
    buttons: [{ label: 'Complete verification', kind: 'primary' }],
    body: (values) => {
      const { drugs, ...rest } = nest(numbersOf(values));
      // A row without a coverage was not verified: leaving it out records the drug as unknown.
      const rows = filledRows(drugs, 'coverage');
      return rows.length > 0 ? { ...rest, drugs: rows } : rest;
    },
  },
];

/** The information a program asked for, and the program's decision recorded by hand. */
export const PATIENT_ENROLLMENT_DECISION_FORMS: readonly DecisionForm[] = [
  {
    decision: 'information',
    status: 'awaiting_review',
    heading: 'Send the information the program asked for',
    fields: [
      { name: 'patient.date_of_birth', label: 'Patient date of birth', kind: 'date' },
      { name: 'prescription.drug_name', label: 'Prescription drug name', kind: 'text' },
      { name: 'prescription.dosage', label: 'Prescription dosage', kind: 'text' },
      { name: 'prescription.directions', label: 'Prescription directions', kind: 'text' },
      { name: 'evidence.type', label: 'Evidence type', kind: 'text' },
      { name: 'evidence.date_created', label: 'Evidence date', kind: 'date' },
      { name: 'evidence.content', label: 'Evidence content (JSON object)', kind: 'textarea' },
    ],
    buttons: [{ label: 'Send information', kind: 'primary' }],
    body: (values) => {
      const { evidence, ...rest } = nest(values) as { evidence?: Record<string, string> };
      if (!evidence) return rest;
      const { content, date_created: day, ...item } = evidence;
      return {
        ...rest,
        evidence: [
          {
            ...item,
            // The API takes a date-time; a date input gives the day, which starts at midnight.
            ...(day !== undefined && {
              date_created: /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00` : day,
            }),
            ...(content !== undefined && { content: parsedJson(content) }),
          },
        ],
      };
    },
  },
  {
    decision: 'outcome',
    status: 'awaiting_outcome',
    heading: "Record the program's decision",
    fields: [
      { name: 'result', label: 'Result', kind: 'select', options: ENROLLMENT_RESULTS },
      { name: 'member_id', label: 'Member id (copay cards only)', kind: 'text' },
      { name: 'bin', label: 'BIN (copay cards only)', kind: 'text' },
      { name: 'pcn', label: 'PCN (copay cards only)', kind: 'text' },
      { name: 'group', label: 'Group (copay cards only)', kind: 'text' },
      { name: 'valid_until', label: 'Valid until', kind: 'date' },
      { name: 'detail', label: 'Detail', kind: 'textarea' },
    ],
    buttons: [{ label: 'Record program decision', kind: 'primary' }],
    body: (values) => nest(values),
  },
];

/** Each case type's decision forms; a clinical eligibility check takes none from the console. */
export const DECISION_FORMS: Record<CaseObjectType, readonly DecisionForm[]> = {
  prior_authorization: PRIOR_AUTHORIZATION_DECISION_FORMS,
  benefit_verification: BENEFIT_VERIFICATION_DECISION_FORMS,
  patient_enrollment: PATIENT_ENROLLMENT_DECISION_FORMS,
  clinical_eligibility: [],
};

export function decisionFormsFor(record: CaseRecord): DecisionForm[] {
  return DECISION_FORMS[record.object].filter(
    (form) => form.status === record.status && (form.appliesTo?.(record) ?? true),
  );
}

export function decisionFormOf(object: CaseObjectType, decision: string): DecisionForm | undefined {
  return DECISION_FORMS[object].find((form) => form.decision === decision);
}

/** The form's own fields as sent, trimmed; anything else the browser sent is ignored. */
export function formValues(form: DecisionForm, body: unknown): Record<string, string> {
  const names = [...form.fields.map((field) => field.name), ...rowFieldNames(form.rows), CHOICE_FIELD];
  return Object.fromEntries(names.map((name) => [name, formText(body, name, MAX_FIELD_LENGTH)]));
}

/** The name of field `name` in row `index`. */
export function rowFieldName(rows: DecisionRows, index: number, name: string): string {
  return `${rows.name}.${index}.${name}`;
}

function rowFieldNames(rows: DecisionRows | undefined): string[] {
  if (!rows) return [];
  return Array.from({ length: MAX_ROWS }, (_, index) =>
    [rows.keyField, ...rows.fields.map((field) => field.name)].map((name) => rowFieldName(rows, index, name)),
  ).flat();
}

/**
 * Amounts typed in dollars as the API's cents, and counts as numbers. Text that is neither stays
 * text, which the API's validation then names.
 */
function numbersOf(values: Record<string, string>): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const field = name.replace(/^drugs\.\d+\./, '');
      if (DOLLAR_FIELDS.has(field) && /^\d+(\.\d{1,2})?$/.test(value))
        return [name, Math.round(Number(value) * 100)];
      if (NUMBER_FIELDS.has(field) && /^\d+(\.\d+)?$/.test(value)) return [name, Number(value)];
      return [name, value];
    }),
  );
}

/** Dotted field names as nested objects; empty fields are left out, as an API client would leave them. */
function nest(values: Record<string, string | number>): Record<string, unknown> {
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
function filledRows(nested: unknown, field: string): Array<Record<string, unknown>> {
  return Object.entries((nested ?? {}) as Record<string, Record<string, unknown>>)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, row]) => row)
    .filter((row) => row[field] !== undefined);
}

/** JSON as typed; text that is not JSON stays text, which the API's validation then names. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
