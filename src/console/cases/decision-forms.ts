import type { CaseObjectType, CaseRecord } from '../../../domain/cases/case-model';
import {
  CHOICE_FIELD,
  type DecisionField,
  type DecisionForm,
  type DecisionRows,
} from '../../cases/cases.module';
import { formText } from '../forms';
import { sectionOfObject } from './case-sections';

const MAX_FIELD_LENGTH = 20_000;

/** The forms of the case's type that apply to it as it stands. */
export function decisionFormsFor(record: CaseRecord): DecisionForm[] {
  return sectionOfObject(record.object).type.console.decisionForms.filter(
    (form) => form.status === record.status && (form.appliesTo?.(record) ?? true),
  );
}

export function decisionFormOf(object: CaseObjectType, decision: string): DecisionForm | undefined {
  return sectionOfObject(object).type.console.decisionForms.find((form) => form.decision === decision);
}

/** The form's own fields as sent, trimmed; anything else the browser sent is ignored. */
export function formValues(form: DecisionForm, body: unknown, record: CaseRecord): Record<string, string> {
  const names = [
    ...fieldsOfForm(form, record).map((field) => field.name),
    ...rowFieldNames(form.rows),
    CHOICE_FIELD,
  ];
  return Object.fromEntries(names.map((name) => [name, formText(body, name, MAX_FIELD_LENGTH)]));
}

/** The form's fields: its own, then those drawn from the case. */
export function fieldsOfForm(form: DecisionForm, record: CaseRecord): DecisionField[] {
  return [...form.fields, ...(form.fieldsOf?.(record) ?? [])];
}

/** The name of field `name` in row `index`. */
export function rowFieldName(rows: DecisionRows, index: number, name: string): string {
  return `${rows.name}.${index}.${name}`;
}

function rowFieldNames(rows: DecisionRows | undefined): string[] {
  if (!rows) return [];
  return Array.from({ length: rows.maxRows }, (_, index) =>
    [rows.keyField, ...rows.fields.map((field) => field.name)].map((name) => rowFieldName(rows, index, name)),
  ).flat();
}
