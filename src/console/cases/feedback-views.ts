import { randomUUID } from 'node:crypto';

import {
  FEEDBACK_PARTS,
  FEEDBACK_RATINGS,
  type FeedbackReport,
  type FeedbackReportDrug,
} from '../../../domain/cases/case-feedback';
import type { PriorAuthorizationCase } from '../../../domain/cases/prior-authorization';
import {
  card,
  choiceGroup,
  type Column,
  errorList,
  FEEDBACK_RATING_WORDS,
  filtersForm,
  inputField,
  postForm,
  selectField,
  submitButton,
  table,
  textareaField,
  type Html,
  html,
} from '../views';

/** What the feedback form holds: as sent, so a refused form comes back as the person left it. */
export interface FeedbackFormValues {
  /**
   * The form's one-time key (a UUID), made when the form is shown and sent back hidden: a second
   * send of the same form (a double click, a resend after a timeout) finds the feedback the first stored.
   */
  key: string;
  rating: string;
  parts: string[];
  comment: string;
  /** The expected answer chosen per criterion of the case, by criterion id. */
  expected: Record<string, string>;
}

/** A form not yet filled, under a key of its own. */
export const emptyFeedbackForm = (): FeedbackFormValues => ({
  key: randomUUID(),
  rating: '',
  parts: [],
  comment: '',
  expected: {},
});

const RATING_OPTIONS = FEEDBACK_RATINGS.map((rating) => ({
  value: rating,
  label: FEEDBACK_RATING_WORDS[rating],
}));

const PART_OPTIONS = [
  { value: 'plan', label: 'Plan found' },
  { value: 'criteria', label: 'Criteria answers' },
  { value: 'documents', label: 'Documents read' },
  { value: 'determination', label: 'Determination' },
] as const satisfies ReadonlyArray<{ value: (typeof FEEDBACK_PARTS)[number]; label: string }>;

/** The hidden field that carries the form's one-time key. */
export const FEEDBACK_KEY_FIELD = 'feedback_key';

/** The form's fields of one criterion of the case: the id it names, and the answer expected. */
export const criterionFieldNames = (index: number) => ({
  id: `criteria.${index}.id`,
  expected: `criteria.${index}.expected_answer`,
});

/**
 * The feedback form of one case: a rating, the parts concerned, a comment and, per criterion of the
 * case, the answer the person expected (left empty when they agree or have no view).
 */
export function feedbackFormView(
  pa: PriorAuthorizationCase,
  csrf: Html,
  values: FeedbackFormValues,
  errors: string[] = [],
): Html {
  return card({
    id: 'give-feedback-heading',
    heading: 'Give feedback',
    body: html`${errorList(errors)}
      <p>Feedback is kept with the case and never changes it, whatever its status.</p>
      ${postForm({
        csrf,
        body: html`<input type="hidden" name="${FEEDBACK_KEY_FIELD}" value="${values.key}" /> ${choiceGroup({
            legend: 'How right was this case?',
            name: 'rating',
            type: 'radio',
            options: RATING_OPTIONS,
            chosen: [values.rating],
            idPrefix: 'rating',
          })}
          ${choiceGroup({
            legend: 'Which parts does it concern? (at least one unless it was correct)',
            name: 'parts',
            type: 'checkbox',
            options: PART_OPTIONS,
            chosen: values.parts,
            idPrefix: 'part',
          })}
          ${textareaField({
            name: 'comment',
            label: 'Comment',
            hint: 'Optional. Kept encrypted; never in the audit trail or the report.',
            value: values.comment,
            rows: 4,
            attributes: html`maxlength="5000"`,
          })}
          ${
            pa.criteria.length > 0 &&
            table({
              caption: 'Expected answers (leave empty where you agree)',
              rows: pa.criteria,
              columns: [
                ...criterionColumns<(typeof pa.criteria)[number]>(),
                { heading: "Case's answer", cell: (criterion) => criterion.answer },
                {
                  heading: 'Expected answer',
                  cell: (criterion, index) => {
                    const names = criterionFieldNames(index);
                    return html`<input type="hidden" name="${names.id}" value="${criterion.id}" />
                      ${selectField({
                        name: names.expected,
                        id: `expected-${index}`,
                        label: `Expected answer to ${criterion.question}`,
                        hiddenLabel: true,
                        options: [
                          { value: '', label: 'No expectation' },
                          { value: 'yes', label: 'yes' },
                          { value: 'no', label: 'no' },
                          { value: 'unknown', label: 'unknown' },
                        ],
                        value: values.expected[criterion.id] ?? '',
                      })}`;
                  },
                },
              ],
            })
          }
          ${submitButton({ label: 'Save feedback', kind: 'primary' })}`,
      })}`,
  });
}

/**
 * How the form and the report name a criterion: by the id the API's `criteria[].id` takes, as the
 * row's header, then by its question, so a reviewer finds the same row in both.
 */
function criterionColumns<Criterion extends { id: string; question: string }>(): Column<Criterion>[] {
  return [
    { heading: 'Criterion', rowHeader: true, cell: (criterion) => html`<code>${criterion.id}</code>` },
    { heading: 'Question', cell: (criterion) => criterion.question },
  ];
}

/** The admin report's period as the form shows it: calendar dates, `to` included. */
export interface ReportPeriod {
  from: string;
  to: string;
}

function drugName({ drug }: FeedbackReportDrug): Html {
  const name = drug.name ?? 'Unnamed drug';
  return drug.ndc ? html`${name} <code>NDC ${drug.ndc}</code>` : html`${name}`;
}

/** Feedback by drug over the period, and per drug how often each criterion was expected otherwise. */
export function feedbackReportView(report: FeedbackReport, period: ReportPeriod): Html {
  return html`${filtersForm({
      action: '/console/feedback',
      fields: [
        inputField({ name: 'from', label: 'From', type: 'date', value: period.from }),
        inputField({ name: 'to', label: 'To (included)', type: 'date', value: period.to }),
      ],
      button: 'Show',
    })}
    <p>
      ${report.feedback_count} feedback given from ${period.from} to ${period.to} (UTC), in this mode.
      Comments and expected answers are not shown here: they are on each case.
    </p>
    ${table({
      caption: 'Feedback by drug',
      rows: report.drugs,
      empty: html`<p>No feedback in this period.</p>`,
      columns: [
        { heading: 'Drug', rowHeader: true, cell: drugName },
        { heading: 'Feedback', cell: (drug) => drug.feedback_count },
        ...FEEDBACK_RATINGS.map((rating) => ({
          heading: FEEDBACK_RATING_WORDS[rating],
          cell: (drug: FeedbackReportDrug) => drug.ratings[rating],
        })),
        ...PART_OPTIONS.map((part) => ({
          heading: part.label,
          cell: (drug: FeedbackReportDrug) => drug.parts[part.value],
        })),
      ],
    })}
    ${report.drugs
      .filter((drug) => drug.criteria.length > 0)
      .map((drug) =>
        table({
          caption: html`Criteria of ${drugName(drug)}`,
          rows: drug.criteria,
          columns: [
            ...criterionColumns<(typeof drug.criteria)[number]>(),
            { heading: 'Named by feedback', cell: (criterion) => criterion.named },
            { heading: 'Expected another answer', cell: (criterion) => criterion.expected_other_answer },
          ],
        }),
      )}`;
}
