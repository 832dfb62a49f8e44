import {
  PRIOR_AUTH_OUTCOME_RESULTS,
  type PriorAuthorizationCase,
} from '../../../../domain/cases/prior-authorization';
import type { CaseRecord } from '../../../../domain/cases/case-model';
import type { PriorAuthorizationFeedback } from '../../../../domain/cases/case-feedback';
import type { UnreadEvidence } from '../../../../domain/clinical/clinical-model';
import { ANSWERABLE_ITEM_TYPES } from '../../../../domain/dtr/questionnaire';
import type {
  AnswerOrigin,
  AnswerValue,
  CaseQuestionnaire,
  QuestionnaireAnswerInput,
  QuestionnaireFallbackReason,
  QuestionnaireItemState,
} from '../../../../domain/dtr/questionnaire';
import type { CoverageRequirements } from '../../../../domain/payers/coverage-requirements';
import type { CriterionAnswer } from '../../../../domain/payers/payer-connector';
import {
  card,
  definitionList,
  FEEDBACK_RATING_WORDS,
  notice,
  table,
  tableCard,
  Html,
  html,
  moment,
  dueBadge,
  statusBadge,
  text,
} from '../../../console/views';
import {
  CaseConsole,
  CaseTypeView,
  CHOICE_FIELD,
  DecisionField,
  DecisionForm,
  filledRows,
  nest,
  numbersOf,
} from '../../case-console';
import { MAX_INFORMATION_ANSWERS } from './prior-authorization.dto';

const PRIOR_AUTHORIZATION_VIEW: CaseTypeView<PriorAuthorizationCase> = {
  facts: (pa) => {
    const reviewOverdue =
      pa.status === 'awaiting_review' && !!pa.review_due_at && Date.parse(pa.review_due_at) < Date.now();
    return [
      ['Urgency', pa.urgency],
      ['Review due', pa.review_due_at ? dueBadge(pa.review_due_at, reviewOverdue) : '—'],
      [
        'Payer decision due',
        pa.due_at ? dueBadge(pa.due_at, pa.overdue) : 'Set when the payer receives the request',
      ],
      ['Payer reference', pa.submission?.payer_reference],
    ];
  },
  results: ({ review, outcome, pending_request: pending }) => {
    if (!review && !outcome && !pending) return undefined;
    return html`${
      pending &&
      table({
        caption: html`The payer asks for information, answer by ${moment(pending.due_at)}`,
        rows: pending.questions,
        columns: [
          { heading: 'Question id', cell: (question) => html`<code>${question.id}</code>` },
          { heading: 'Question', cell: (question) => question.text },
        ],
      })
    }
    ${
      review &&
      html`<h3>Clinical review</h3>
        ${definitionList([
          ['Decision', review.decision === 'approve' ? 'Approved' : 'Rejected'],
          ['Reviewer', review.reviewer],
          ['Note', text(review.notes)],
          ['Decided', moment(review.decided_at)],
        ])}`
    }
    ${
      outcome &&
      html`<h3>Payer determination</h3>
        ${definitionList([
          ['Result', statusBadge(outcome.result)],
          ['Detail', `${text(outcome.detail)} (${text(outcome.detail_code)})`],
          ['Payer reference', text(outcome.payer_reference)],
          ['Authorization number', text(outcome.authorization_number)],
          ['Approved quantity', text(outcome.approved_quantity)],
          ['Decided', moment(outcome.decided_at)],
          [
            'Authorization',
            `${text(outcome.authorization_start_date)} to ${text(outcome.authorization_expiration)}`,
          ],
        ])}`
    }`;
  },
  reviewerSections: (pa) =>
    html`${requirementsSection(pa.coverage_requirements)}${questionnaireSection(pa.questionnaire, pa.status === 'awaiting_review')}${criteriaSection(pa.criteria, pa.unread_evidence)}${feedbackSection(pa)}`,
};

/** Where a case's feedback form is served (src/console/cases/feedback-pages.controller.ts). */
export function feedbackFormPath(caseId: string): string {
  return `/console/prior-authorizations/${encodeURIComponent(caseId)}/feedback`;
}

/** Who gave a feedback, as the audit trail names them. */
function authorText({ type, id }: PriorAuthorizationFeedback['author']): string {
  return `${type === 'user' ? 'Console user' : 'API key'} ${id}`;
}

/**
 * The feedback reviewers and integrations gave on the case, oldest first, and the way to give more:
 * kept beside the case, it never changed it.
 */
function feedbackSection(pa: PriorAuthorizationCase): Html {
  const given = (pa as PriorAuthorizationCase & { feedback?: PriorAuthorizationFeedback[] }).feedback ?? [];
  const questions = new Map(pa.criteria.map((criterion) => [criterion.id, criterion]));
  return tableCard({
    id: 'feedback-heading',
    heading: 'Feedback',
    caption: 'Feedback on this case, oldest first',
    rows: given,
    empty: html`<p>No feedback yet.</p>`,
    columns: [
      { heading: 'Given', rowHeader: true, cell: (feedback) => moment(feedback.created_at) },
      { heading: 'Rating', cell: (feedback) => FEEDBACK_RATING_WORDS[feedback.rating] },
      {
        heading: 'Parts',
        cell: (feedback) => (feedback.parts.length > 0 ? feedback.parts.join(', ') : '—'),
      },
      { heading: 'Comment', cell: (feedback) => text(feedback.comment) },
      {
        heading: 'Expected answers',
        cell: (feedback) =>
          feedback.criteria.length === 0
            ? '—'
            : html`<ul>
                ${feedback.criteria.map(
                  (expectation) =>
                    html`<li>
                      <code>${expectation.id}</code>: ${expectation.expected_answer} (case:
                      ${questions.get(expectation.id)?.answer ?? '—'})
                    </li>`,
                )}
              </ul>`,
      },
      { heading: 'By', cell: (feedback) => authorText(feedback.author) },
    ],
    after: html`<p><a href="${feedbackFormPath(pa.id)}">Give feedback on this case</a></p>`,
  });
}

/** Who gave each answer, as a reviewer reads it. */
const ORIGIN_LABELS: Readonly<Record<AnswerOrigin, string>> = {
  auto: "The payer's CQL, from the record",
  override: 'Changed by a person',
  manual: 'Given by a person',
  proposed: 'Proposed from the evidence: not sent until confirmed',
};

/**
 * The payer's questionnaire (DTR) as it stands: each shown item with its answer, who gave it and from
 * what, and what approval waits for: the required items still unanswered, or, for an adaptive
 * questionnaire, the payer's next questions.
 */
function questionnaireSection(questionnaire: CaseQuestionnaire | null | undefined, inReview: boolean): Html {
  if (!questionnaire) return html``;
  const shown = questionnaire.items.filter((item) => item.enabled && item.type !== 'group');
  return card({
    // Not `questionnaire-heading`: the form answering it has that id (`<decision>-heading`).
    id: 'payer-questionnaire-heading',
    heading: "Payer's questionnaire",
    body: html`${
      questionnaire.prefill_failure &&
      notice({ kind: 'error', body: failureText(questionnaire, questionnaire.prefill_failure, inReview) })
    }
    ${
      questionnaire.pending.length > 0 &&
      notice({
        kind: 'error',
        body: `Approval waits for ${questionnaire.pending.length} required item(s): ${questionnaire.pending.join(', ')}.`,
      })
    }
    ${
      inReview &&
      !questionnaire.prefill_failure &&
      waitsForPayerQuestions(questionnaire) &&
      notice({
        kind: 'error',
        body: 'The payer has more questions to ask: its questionnaire service has not said the questionnaire is complete, so approval waits. They appear here once it sends them; it is asked again with each answer.',
      })
    }
    ${
      shown.length > 0 &&
      table({
        caption: `${questionnaire.title ?? questionnaire.canonical} (${questionnaire.status.replace('_', ' ')})`,
        rows: shown,
        columns: [
          { heading: 'Item', rowHeader: true, cell: (item) => html`<code>${item.link_id}</code>` },
          {
            heading: 'Question',
            cell: (item) => (item.required ? `${text(item.text)} (required)` : text(item.text)),
          },
          { heading: 'Answer', cell: (item) => answerText(item.answer) },
          { heading: 'From', cell: (item) => (item.origin ? ORIGIN_LABELS[item.origin] : '—') },
          { heading: 'Source', cell: (item) => text(item.source?.reference) },
        ],
      })
    }`,
  });
}

/**
 * Whether an adaptive questionnaire waits for its payer's next questions with nothing left for a
 * person: its service has not said it is complete.
 */
function waitsForPayerQuestions(questionnaire: CaseQuestionnaire): boolean {
  return (
    isAdaptive(questionnaire) && questionnaire.status === 'in_progress' && questionnaire.pending.length === 0
  );
}

/**
 * Whether the questionnaire is adaptive, as the case says; a case whose workflow closed or continued as
 * new before `adaptive` was added never says, and its questionnaire is judged by what it holds.
 */
function isAdaptive(questionnaire: CaseQuestionnaire): boolean {
  return questionnaire.adaptive ?? looksAdaptive(questionnaire);
}

/**
 * A static questionnaire is `completed` exactly when no required item is pending, so one still
 * `in_progress` with items and nothing pending is adaptive; and a static one's CQL runs once, so a
 * failure beside answers the CQL gave (or a person changed) is an adaptive round's. An adaptive
 * questionnaire with items pending and no answer of the CQL's cannot be told apart, and reads as static.
 */
function looksAdaptive(questionnaire: CaseQuestionnaire): boolean {
  return (
    (questionnaire.status === 'in_progress' &&
      questionnaire.items.length > 0 &&
      questionnaire.pending.length === 0) ||
    questionnaire.items.some((item) => item.origin === 'auto' || item.origin === 'override')
  );
}

/** What a failed `$next-question` call came to, as a reviewer reads it. */
const FAILED_ROUND_WORDS: Readonly<Record<RoundFailure, string>> = {
  dtr_unavailable: 'could not be reached',
  dtr_timed_out: 'did not answer in time',
  dtr_invalid_package: 'answered without questions the case could read',
  dtr_answer_too_large: 'answered with more than the case reads',
};

/**
 * A case prepared before `$next-question` rounds were asked says so, and no round of its failed; the
 * package's CQL failing (`cql_`) is no failure of the service's.
 */
type RoundFailure = Exclude<QuestionnaireFallbackReason, 'dtr_adaptive_not_supported' | CqlFailure>;
type CqlFailure = Extract<QuestionnaireFallbackReason, `cql_${string}`>;

function isCqlFailure(reason: QuestionnaireFallbackReason): reason is CqlFailure {
  return reason.startsWith('cql_');
}

/** Why the questionnaire is not as the payer's service and CQL would have it, and what to do about it. */
function failureText(
  questionnaire: CaseQuestionnaire,
  reason: QuestionnaireFallbackReason,
  inReview: boolean,
): string {
  if (questionnaire.items.length === 0)
    return `The payer's questionnaire could not be had (${reason}): the criteria below are the catalog's.`;
  if (reason === 'dtr_adaptive_not_supported' || !isAdaptive(questionnaire))
    return `The payer's CQL did not prefill this questionnaire (${reason}): every item waits for a person.`;
  if (isCqlFailure(reason))
    return `The payer's CQL did not prefill the questions its service last served (${reason}): they wait for a person.`;
  const failed = `The payer's questionnaire service ${FAILED_ROUND_WORDS[reason]} for its next questions (${reason}), so some may not be shown yet.`;
  // "May": the case does not say whether a retry is scheduled. A failed call to the service is asked
  // again on the outage schedule (after rounds that served, only from patch
  // retry-failed-last-adaptive-round on); a round whose CQL failed before cql_ codes were given reads
  // the same and is not.
  return inReview
    ? `${failed} Approval waits until it says the questionnaire is complete. The next answer asks it again, and the case may ask it again on its own after a wait; to retry at once without changing anything, save an answer again as it stands.`
    : failed;
}

/** An answer as a person reads it. */
function answerText(answer: QuestionnaireItemState['answer']): string {
  if (answer === null) return '—';
  const values = Array.isArray(answer) ? answer : [answer];
  return values.map(formAnswer).join(', ');
}

/** One answer value as the form holds it: yes/no, a choice's code, a quantity with its unit, text. */
function formAnswer(value: AnswerValue): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  if ('code' in value) return value.code;
  if ('value' in value) return `${value.value}${value.unit ? ` ${value.unit}` : ''}`;
  return value.url ?? value.title ?? '';
}

/** The field that answers one item, holding its current answer. */
function questionnaireField(item: QuestionnaireItemState): DecisionField {
  const proposal =
    item.origin === 'proposed' && item.answer !== null && !Array.isArray(item.answer)
      ? ` (proposed from the evidence: ${formAnswer(item.answer)})`
      : '';
  const label = `${item.text ?? item.link_id}${item.required ? ' (required)' : ''}${proposal}`;
  const name = `${QUESTIONNAIRE_FIELD_PREFIX}${item.link_id}`;
  // A proposal is shown, never filled in: saving the form must not confirm what nobody chose.
  const initial =
    item.answer === null || Array.isArray(item.answer) || item.origin === 'proposed'
      ? ''
      : formAnswer(item.answer);
  switch (item.type) {
    case 'boolean':
      return { name, label, kind: 'select', options: ['', 'yes', 'no'], initial };
    case 'choice':
      return {
        name,
        label,
        kind: 'select',
        options: ['', ...(item.options ?? []).map((option) => option.code)],
        initial,
      };
    case 'date':
      return { name, label, kind: 'date', initial };
    case 'text':
      return { name, label, kind: 'textarea', initial };
    default:
      return { name, label, kind: 'text', initial };
  }
}

const QUESTIONNAIRE_FIELD_PREFIX = 'questionnaire.';

/** The items a person answers in the form: shown, answerable, single-valued (repeats go through the API). */
function answerableItems(record: CaseRecord): QuestionnaireItemState[] {
  return ((record as PriorAuthorizationCase).questionnaire?.items ?? []).filter(
    (item) => item.enabled && !item.read_only && !item.repeats && FORM_ITEM_TYPES.has(item.type),
  );
}

/** What the form's fields can hold: every answerable type but a quantity and an attachment, which go through the API. */
const FORM_ITEM_TYPES: ReadonlySet<string> = new Set(
  ANSWERABLE_ITEM_TYPES.filter((type) => type !== 'quantity' && type !== 'attachment'),
);

/**
 * The form's values as the API's answers: each filled field, typed as its item reads it (a number
 * that does not parse stays text, which the API's check then names). Sending an answer unchanged
 * keeps its origin; a proposal is confirmed only by choosing it. A field emptied of the answer it
 * showed clears that answer, as `null` does through the API (the form sends every field, each showing
 * its item's answer); an empty field of an unanswered or only proposed item says nothing.
 */
function questionnaireAnswersOf(
  values: Record<string, string>,
  record: CaseRecord,
): QuestionnaireAnswerInput[] {
  return answerableItems(record).flatMap((item): QuestionnaireAnswerInput[] => {
    const typed = values[`${QUESTIONNAIRE_FIELD_PREFIX}${item.link_id}`] ?? '';
    if (typed !== '') return [{ link_id: item.link_id, value: typedAnswer(item, typed) }];
    const answered = item.answer !== null && item.origin !== 'proposed';
    return answered ? [{ link_id: item.link_id, value: null }] : [];
  });
}

function typedAnswer(item: QuestionnaireItemState, typed: string): AnswerValue {
  switch (item.type) {
    case 'boolean':
      return typed === 'yes' ? true : typed === 'no' ? false : typed;
    case 'integer':
    case 'decimal':
      return /^-?\d+(\.\d+)?$/.test(typed) ? Number(typed) : typed;
    case 'choice':
    case 'open-choice': {
      const option = item.options?.find((candidate) => candidate.code === typed);
      return option ?? typed;
    }
    default:
      return typed;
  }
}

/**
 * What the payer's CRD service said the order requires, with its instructions to the clinician; or,
 * where it gave nothing to act on, that the criteria below are the catalog's, and why.
 */
function requirementsSection(requirements: CoverageRequirements | null | undefined): Html {
  if (!requirements) return html``;
  const facts = requirements.fallback_reason
    ? notice({
        kind: 'error',
        body: `The payer's coverage requirements could not be used (${requirements.fallback_reason}): the criteria below are the catalog's.`,
      })
    : definitionList([
        ['Covered', text(requirements.covered)],
        ['Prior authorization', text(requirements.pa_needed)],
        ['Documentation', text(requirements.doc_needed)],
        ['Information needed', requirements.info_needed.join(', ') || '—'],
        ['Reason', text(requirements.reason)],
        ['Questionnaires', requirements.questionnaires.join(', ') || '—'],
        ['Holds until', requirements.expires_at ? moment(requirements.expires_at) : '—'],
      ]);
  // An answer without coverage information may still carry the payer's instructions: they stay shown.
  return card({
    id: 'requirements-heading',
    heading: 'Payer requirements',
    body: html`${facts}
    ${
      requirements.instructions.length > 0 &&
      table({
        caption: "The payer's instructions",
        rows: requirements.instructions,
        columns: [
          { heading: 'Summary', cell: (instruction) => instruction.summary },
          { heading: 'Detail', cell: (instruction) => text(instruction.detail) },
        ],
      })
    }`,
  });
}

/**
 * The criteria the prefill answered for the reviewer, each with where its answer came from, and the
 * evidence the answers could not see.
 */
function criteriaSection(criteria: CriterionAnswer[] | undefined, unread: UnreadEvidence[] = []): Html {
  if (!criteria?.length) return html``;
  return tableCard({
    id: 'criteria-heading',
    heading: 'Criteria',
    caption: "The plan's criteria, answered from the request",
    rows: criteria,
    columns: [
      { heading: 'Question', cell: (criterion) => criterion.question },
      { heading: 'Answer', cell: (criterion) => criterion.answer },
      { heading: 'From', cell: (criterion) => text(criterion.source) },
    ],
    after:
      unread.length > 0 &&
      notice({
        kind: 'error',
        body: `Not seen by these answers: ${unread.map((item) => `${item.title}${item.reason ? ` (${item.reason})` : ''}`).join('; ')}`,
      }),
  });
}

/** A reviewer's clinical review, the payer's answer recorded by hand, and answers to the payer's questions. */
const PRIOR_AUTHORIZATION_DECISION_FORMS: readonly DecisionForm[] = [
  {
    decision: 'questionnaire',
    status: 'awaiting_review',
    heading: "Answer the payer's questionnaire",
    fields: [],
    fieldsOf: (record) => answerableItems(record).map(questionnaireField),
    appliesTo: (record) => answerableItems(record).length > 0,
    buttons: [{ label: 'I attest these answers are accurate: save them', kind: 'primary' }],
    // The author is the person signed in, as for a review decision.
    body: (values, person, record) => ({ answers: questionnaireAnswersOf(values, record), author: person }),
  },
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
    body: (values) => nest(numbersOf(values, { counts: new Set(['approved_quantity']) })),
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
      maxRows: MAX_INFORMATION_ANSWERS,
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

/** Prior authorizations in the console: review and payer deadlines, the criteria, the payer's questionnaire and four decisions. */
export const PRIOR_AUTHORIZATION_CONSOLE: CaseConsole<PriorAuthorizationCase> = {
  section: {
    segment: 'prior-authorizations',
    title: 'Prior authorizations',
    singular: 'Prior authorization',
    listsDueAndOutcome: true,
  },
  view: PRIOR_AUTHORIZATION_VIEW,
  decisionForms: PRIOR_AUTHORIZATION_DECISION_FORMS,
};
