import type { CaseObjectType, CaseStatus } from '../../../domain/cases/case-model';
import {
  BENEFIT_VERIFICATION_STATUSES,
  COVERAGE_STATUSES,
  PRIOR_AUTH_RESULTS,
} from '../../cases/case-requests.dto';
import { ENROLLMENT_RESULTS } from '../../programs/patient-enrollment.dto';
import { formText } from '../forms';

export interface DecisionField {
  /** The API body's field path, dotted for nested objects. */
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'select' | 'date';
  options?: readonly string[];
}

/**
 * A case decision as a console form: which case it applies to, its fields (named as the API's body
 * names them, so the API's validation messages name them too) and how the form becomes that body.
 */
export interface DecisionForm {
  /** The case type's decision of this name (`CaseType.decisions`), sent exactly as the API sends it. */
  decision: string;
  object: CaseObjectType;
  status: CaseStatus;
  heading: string;
  fields: DecisionField[];
  /** Buttons that send the form; a button with a value sends it as `choice`. */
  buttons: Array<{ label: string; value?: string; kind?: 'primary' | 'danger' }>;
  body(values: Record<string, string>, person: string): object;
}

export const CHOICE_FIELD = 'choice';

const MAX_FIELD_LENGTH = 20_000;

export const DECISION_FORMS: readonly DecisionForm[] = [
  {
    decision: 'review',
    object: 'prior_authorization',
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
    object: 'prior_authorization',
    status: 'awaiting_outcome',
    heading: "Record the payer's determination",
    fields: [
      { name: 'result', label: 'Result', kind: 'select', options: PRIOR_AUTH_RESULTS },
      { name: 'detail_code', label: 'Detail code', kind: 'text' },
      { name: 'detail', label: 'Detail', kind: 'textarea' },
      { name: 'payer_reference', label: 'Payer reference', kind: 'text' },
      { name: 'authorization_start_date', label: 'Authorization start date', kind: 'date' },
      { name: 'authorization_expiration', label: 'Authorization expiration', kind: 'date' },
    ],
    buttons: [{ label: 'Record payer outcome', kind: 'primary' }],
    body: (values) => nest(values),
  },
  {
    decision: 'outcome',
    object: 'benefit_verification',
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
    ],
    buttons: [{ label: 'Complete verification', kind: 'primary' }],
    body: (values) => nest(values),
  },
  {
    decision: 'information',
    object: 'patient_enrollment',
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
    object: 'patient_enrollment',
    status: 'awaiting_outcome',
    heading: "Record the program's decision",
    fields: [
      { name: 'result', label: 'Result', kind: 'select', options: ENROLLMENT_RESULTS },
      { name: 'member_id', label: 'Member id', kind: 'text' },
      { name: 'bin', label: 'BIN', kind: 'text' },
      { name: 'pcn', label: 'PCN', kind: 'text' },
      { name: 'group', label: 'Group', kind: 'text' },
      { name: 'valid_until', label: 'Valid until', kind: 'date' },
      { name: 'detail', label: 'Detail', kind: 'textarea' },
    ],
    buttons: [{ label: 'Record program decision', kind: 'primary' }],
    body: (values) => nest(values),
  },
];

export function decisionFormsFor(object: CaseObjectType, status: CaseStatus): DecisionForm[] {
  return DECISION_FORMS.filter((form) => form.object === object && form.status === status);
}

export function decisionFormOf(object: CaseObjectType, decision: string): DecisionForm | undefined {
  return DECISION_FORMS.find((form) => form.object === object && form.decision === decision);
}

/** The form's own fields as sent, trimmed; anything else the browser sent is ignored. */
export function formValues(form: DecisionForm, body: unknown): Record<string, string> {
  const names = [...form.fields.map((field) => field.name), CHOICE_FIELD];
  return Object.fromEntries(names.map((name) => [name, formText(body, name, MAX_FIELD_LENGTH)]));
}

/** Dotted field names as nested objects; empty fields are left out, as an API client would leave them. */
function nest(values: Record<string, string>): Record<string, unknown> {
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

/** JSON as typed; text that is not JSON stays text, which the API's validation then names. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
