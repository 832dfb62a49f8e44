import type { CaseRecord, DocumentRef } from '../../../domain/cases/case-model';
import { DEFAULT_READING_LIMITS } from '../../../infrastructure/documents/reading-limits';
import type { CaseEventDelivery } from '../../../infrastructure/webhooks/webhook-deliveries.repository';
import {
  card,
  definitionList,
  documentPreview,
  emptyState,
  errorList,
  Fact,
  inputField,
  postForm,
  selectField,
  submitButton,
  table,
  tableCard,
  textareaField,
  timeline,
  hiddenFields,
  FieldProps,
} from '../views';
import { Html, html } from '../views/html';
import { moment } from '../views/markup';
import { statusBadge } from '../views/case-values';
import { fieldsOfForm, rowFieldName } from './decision-forms';
import {
  CHOICE_FIELD,
  type DecisionField,
  type DecisionForm,
  type CaseTypeView,
  type DecisionRows,
} from '../../cases/cases.module';
import { sectionOfObject } from './case-sections';

/** The case's moves, oldest first, each with when and why. */
export function statusHistory(record: CaseRecord): Html {
  return card({
    id: 'timeline-heading',
    heading: 'Status history',
    body: timeline(
      record.status_history.map((change) => ({
        what: statusBadge(change.status),
        when: moment(change.at),
        why: change.reason,
      })),
    ),
  });
}

/** Every case's ids, status and dates, its type's own facts, and why it failed if it did. */
export function caseFacts(record: CaseRecord): Html {
  const facts: Fact[] = [
    ['Case id', html`<code>${record.id}</code>`],
    ['Status', html`${statusBadge(record.status)} ${record.status_description}`],
    ['Created', moment(record.created_at)],
    ['Updated', moment(record.updated_at)],
    ...viewOf(record).facts(record),
    ['Failure', record.failure ? `${record.failure.message} (${record.failure.code})` : undefined],
  ];
  return card({ id: 'facts-heading', heading: 'Case', body: definitionList(facts) });
}

/** What the case came to: per-drug tables, the payer's or program's outcome, the review. */
export function caseResults(record: CaseRecord): Html {
  return card({
    id: 'results-heading',
    heading: 'Results',
    body: viewOf(record).results(record) ?? emptyState('No results yet.'),
  });
}

/** What a reviewer weighs besides the request, as the case's type has it. */
export function reviewerSections(record: CaseRecord): Html | '' {
  return viewOf(record).reviewerSections?.(record) ?? '';
}

/** Every stored document a case refers to, wherever in its request it sits. */
export function documentsOf(record: CaseRecord): DocumentRef[] {
  const found: DocumentRef[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const candidate = value as Partial<DocumentRef>;
    if (typeof candidate.document_id === 'string' && typeof candidate.name === 'string') {
      found.push(candidate as DocumentRef);
      return;
    }
    Object.values(value).forEach(visit);
  };
  visit((record as CaseRecord & { request?: unknown }).request);
  return found;
}

type Reading = NonNullable<NonNullable<CaseRecord['documents']>[number]['reading']>;

/**
 * Each document with what reading it found, a link to download it, and the images the reader kept of
 * its first pages (`previewed`: the documents whose readings kept them). `path` is the case page's,
 * under which the console serves documents and page images.
 */
export function documentsSection(
  documents: DocumentRef[],
  record: CaseRecord,
  path: string,
  /** Operators see which documents a case holds, never their content. */
  { showsContent, previewed }: { showsContent: boolean; previewed: ReadonlySet<string> },
): Html {
  const readingOf = (documentId: string) =>
    record.documents?.find((document) => document.document_id === documentId)?.reading;
  const previews = documents
    .filter((document) => showsContent && previewed.has(document.document_id))
    .flatMap((document) =>
      previewPages(readingOf(document.document_id)).map((page) =>
        documentPreview({
          src: `${path}/documents/${document.document_id}/pages/${page}`,
          caption: `${document.name}, page ${page}`,
        }),
      ),
    );
  return tableCard({
    id: 'documents-heading',
    heading: 'Documents',
    caption: 'Submitted documents',
    rows: documents,
    empty: emptyState('No documents were submitted with this case.'),
    columns: [
      {
        heading: 'Name',
        cell: (document) =>
          showsContent
            ? html`<a href="${path}/documents/${document.document_id}">${document.name}</a>`
            : document.name,
      },
      { heading: 'Content type', cell: (document) => document.type },
      { heading: 'Reading', cell: (document) => readingSummary(readingOf(document.document_id)) },
    ],
    after: previews,
  });
}

function readingSummary(reading: Reading | undefined): Html | string {
  if (!reading) return 'Not read';
  const sureness = reading.confidence === null ? '' : `, ${Math.round(reading.confidence * 100)} % sure`;
  const extent = `${reading.method ?? ''}, ${reading.pages_read} of ${reading.pages} pages${sureness}`;
  const reason = reading.reason ? html`<span class="reason">${reading.reason}</span>` : '';
  return html`${statusBadge(reading.status)} ${extent}${reason}`;
}

/** The pages the reader kept an image of: the first ones it read, up to its limit. */
function previewPages(reading: { pages_read: number } | undefined): number[] {
  const count = Math.min(reading?.pages_read ?? 0, DEFAULT_READING_LIMITS.previewPages);
  return Array.from({ length: count }, (_, index) => index + 1);
}

export function deliveriesSection(deliveries: CaseEventDelivery[]): Html {
  return tableCard({
    id: 'deliveries-heading',
    heading: 'Webhook deliveries',
    caption: "Notifications of this case's changes",
    rows: deliveries,
    empty: emptyState('No webhook deliveries for this case.'),
    columns: [
      { heading: 'Announced status', cell: (delivery) => statusBadge(delivery.case_status) },
      { heading: 'Endpoint', cell: (delivery) => html`<code>${delivery.endpoint_id}</code>` },
      {
        heading: 'Delivery',
        cell: (delivery) =>
          html`${statusBadge(delivery.status)}${delivery.retry_of ? ' (manual retry)' : ''}`,
      },
      { heading: 'Attempts', cell: (delivery) => delivery.attempts },
      { heading: 'Created', cell: (delivery) => moment(delivery.created_at) },
      { heading: 'Completed', cell: (delivery) => moment(delivery.completed_at) },
    ],
  });
}

/** A decision form, with what the person typed kept when it comes back with errors. */
export function decisionFormView(
  form: DecisionForm,
  casePath: string,
  csrf: Html,
  record: CaseRecord,
  values: Record<string, string> = {},
  errors: string[] = [],
): Html {
  const idOf = (name: string) => `${form.decision}-${name.replace(/\./g, '-')}`;
  return card({
    id: `${form.decision}-heading`,
    heading: form.heading,
    body: html`${errorList(errors)}
    ${postForm({
      action: `${casePath}/${form.decision}`,
      csrf,
      className: 'narrow',
      body: html`${fieldsOfForm(form, record).map((field) =>
          decisionField(field, {
            name: field.name,
            id: idOf(field.name),
            label: field.label,
            value: values[field.name] ?? field.initial ?? '',
          }),
        )}
        ${form.rows ? decisionRowsView(form.rows, record, values, idOf) : ''}
        <div class="actions">
          ${form.buttons.map((button) =>
            submitButton({ label: button.label, kind: button.kind, name: CHOICE_FIELD, value: button.value }),
          )}
        </div>`,
    })}`,
  });
}

/** One row per item of the case, each cell a field labelled with its column and the item. */
function decisionRowsView(
  rows: DecisionRows,
  record: CaseRecord,
  values: Record<string, string>,
  idOf: (name: string) => string,
): Html {
  return table({
    caption: rows.caption,
    rows: rows.keysOf(record),
    columns: [
      {
        heading: rows.keyHeading,
        rowHeader: true,
        cell: (key, index) =>
          html`${key}${hiddenFields({ [rowFieldName(rows, index, rows.keyField)]: key })}`,
      },
      ...rows.fields.map((field) => ({
        heading: field.label,
        cell: (key: string, index: number) => {
          const name = rowFieldName(rows, index, field.name);
          return decisionField(field, {
            name,
            id: idOf(name),
            label: `${field.label}: ${key}`,
            hiddenLabel: true,
            value: values[name] ?? '',
          });
        },
      })),
    ],
  });
}

function decisionField(field: DecisionField, props: FieldProps): Html {
  switch (field.kind) {
    case 'textarea':
      return textareaField(props);
    case 'select':
      return selectField({
        ...props,
        options: (field.options ?? []).map((option) => ({
          value: option,
          label: option === '' ? '(not given)' : option.replace(/_/g, ' '),
        })),
      });
    default:
      return inputField({ ...props, type: field.kind });
  }
}

/** What the case's type shows of it, as the type declares it (`CaseType.console.view`). */
function viewOf(record: CaseRecord): CaseTypeView {
  return sectionOfObject(record.object).type.console.view;
}
