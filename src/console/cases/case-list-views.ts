import { CASE_STATUSES } from '../../../domain/cases/case-model';
import type { CaseSummary, QueuedCaseSummary } from '../../../infrastructure/cases/case-summaries.repository';
import {
  emptyState,
  filtersForm,
  hiddenFields,
  inputField,
  pageLink,
  pager,
  postForm,
  selectField,
  submitButton,
  table,
} from '../views';
import { Html, html } from '../views/html';
import { moment } from '../views/markup';
import type { CaseTriage } from './case-request-views';
import { CaseSection, casePath } from './case-sections';
import { dueBadge, statusBadge } from '../views/case-values';

export const DEFAULT_PAGE_SIZE = 25;

/** What a list shows: its filters as the form sent them, and where in the list it is. */
export interface ListState {
  status: string;
  createdFrom: string;
  createdTo: string;
  /** PHI: only ever sent in a POST body and shown back in the form, never put in a URL. */
  patientReference: string;
  cursor: string;
  /** The cursors of the pages before this one, oldest first. */
  trail: string[];
  limit: number;
}

/** Another page of a list: its cursor (none for the first page) and the trail that leads back. */
export interface ListPage {
  cursor?: string;
  trail: string[];
}

export interface ListPages {
  previous?: ListPage;
  next?: ListPage;
}

/** A queued case with who, what and which payer, read from the case itself (null once it is gone). */
export interface QueueRow {
  summary: QueuedCaseSummary;
  triage: CaseTriage | null;
}

/** The reviewers' queue: soonest due first, each row linking to the form that answers it. */
export function reviewQueueView(
  section: CaseSection,
  rows: QueueRow[],
  state: ListState,
  pages: ListPages,
): Html {
  return html`<p>
      Prior authorizations waiting for the clinic, soonest due first: those awaiting clinical review (due by
      their review target) and those whose payer asked for information (due by the payer's decision deadline).
    </p>
    <div class="table-scroll review-queue">
      ${table({
        caption: 'Prior authorizations awaiting review or information',
        rows,
        empty: emptyState('No prior authorization is waiting for review.', { announced: true }),
        columns: [
          { heading: 'Case', cell: ({ summary }) => caseLink(section, summary.case_id) },
          { heading: 'Patient', cell: ({ triage }) => triage?.patient ?? '—' },
          { heading: 'Drug', cell: ({ triage }) => triage?.drug ?? '—' },
          { heading: 'Payer', cell: ({ triage }) => triage?.payer ?? '—' },
          {
            heading: 'Waiting for',
            cell: ({ summary }) =>
              statusBadge(summary.status === 'awaiting_review' ? 'awaiting_review' : 'information_requested'),
          },
          { heading: 'Due', cell: ({ summary }) => dueBadge(summary.queue_due_at, summary.overdue) },
          {
            heading: 'Review target',
            cell: ({ summary }) => (summary.review_due_at ? moment(summary.review_due_at) : '—'),
          },
          {
            heading: 'Payer deadline',
            cell: ({ summary }) => (summary.due_at ? moment(summary.due_at) : '—'),
          },
          { heading: 'Created', cell: ({ summary }) => moment(summary.created_at) },
          { heading: 'Decision', cell: ({ summary }) => decisionLink(section, summary) },
        ],
      })}
    </div>
    ${linkPager('/console/review-queue', state, pages)}`;
}

function caseLink(section: CaseSection, caseId: string): Html {
  return html`<a href="${casePath(section, caseId)}">${caseId}</a>`;
}

/**
 * Straight to the form the case waits on, named with the case so each link says where it goes. The
 * row's first cell already shows the id, so here only a screen reader reads it: shown twice, the long
 * id took a second wide column the queue has no room for.
 */
function decisionLink(section: CaseSection, summary: QueuedCaseSummary): Html {
  const inReview = summary.status === 'awaiting_review';
  const anchor = inReview ? 'review-heading' : 'information-heading';
  return html`<a href="${casePath(section, summary.case_id)}#${anchor}"
    >${inReview ? 'Review' : 'Answer'}<span class="visually-hidden"> ${summary.case_id}</span></a
  >`;
}

/**
 * A section's list with its filters. A search by patient reference pages with POST forms, so the
 * reference never enters a URL; other lists page with links.
 */
export function caseListView(
  section: CaseSection,
  rows: CaseSummary[],
  state: ListState,
  pages: ListPages,
  csrf: Html,
): Html {
  const path = `/console/${section.segment}`;
  return html`${filterForm(path, state)} ${patientSearchForm(path, state, csrf)} ${casesTable(section, rows)}
  ${state.patientReference ? formPager(path, state, pages, csrf) : linkPager(path, state, pages)}`;
}

function casesTable(section: CaseSection, rows: CaseSummary[]): Html {
  const dueAndOutcome = section.listsDueAndOutcome ?? false;
  return table({
    caption: `${section.title}, newest first`,
    rows,
    empty: emptyState('No cases match.', { announced: true }),
    columns: [
      { heading: 'Case', cell: (row) => caseLink(section, row.case_id) },
      { heading: 'Status', cell: (row) => statusBadge(row.status) },
      { heading: 'Created', cell: (row) => moment(row.created_at) },
      { heading: 'Updated', cell: (row) => moment(row.updated_at) },
      dueAndOutcome && { heading: 'Due', cell: openDue },
      dueAndOutcome && {
        heading: 'Outcome',
        cell: (row) =>
          html`${row.outcome_result ? statusBadge(row.outcome_result) : '—'}
          ${row.information_requested ? statusBadge('information_requested') : ''}`,
      },
    ],
  });
}

/** An open case's next deadline: the review target before the payer has it, the payer's after. */
function openDue(row: CaseSummary): Html | string {
  if (row.status === 'processing' || row.status === 'awaiting_review') {
    const target = row.review_due_at ?? row.due_at;
    return target ? dueBadge(target, Date.parse(target) < Date.now()) : '—';
  }
  return row.status === 'awaiting_outcome' ? dueBadge(row.due_at, row.overdue) : '—';
}

function filterForm(path: string, state: ListState): Html {
  return filtersForm({
    action: path,
    fields: [
      selectField({
        name: 'status',
        label: 'Status',
        value: state.status,
        options: [
          { value: '', label: 'Any status' },
          ...CASE_STATUSES.map((status) => ({ value: status, label: status.replace(/_/g, ' ') })),
        ],
      }),
      inputField({ name: 'created_from', label: 'Created from', type: 'date', value: state.createdFrom }),
      inputField({ name: 'created_to', label: 'Created to', type: 'date', value: state.createdTo }),
    ],
    button: 'Filter',
  });
}

function patientSearchForm(path: string, state: ListState, csrf: Html): Html {
  return filtersForm({
    action: path,
    csrf,
    hidden: hiddenFilters(state),
    fields: [
      inputField({
        name: 'patient_reference',
        label: 'Patient reference',
        type: 'search',
        value: state.patientReference,
        attributes: html`autocomplete="off"`,
      }),
    ],
    button: 'Find cases',
  });
}

function hiddenFilters(state: ListState): Html {
  return hiddenFields({
    status: state.status,
    created_from: state.createdFrom,
    created_to: state.createdTo,
    limit: state.limit,
  });
}

/** Pages of a list whose filters may be in the URL: links carrying the opaque cursor. */
function linkPager(path: string, state: ListState, { previous, next }: ListPages): Html | '' {
  const href = (page: ListPage) => {
    const query = new URLSearchParams();
    for (const [name, value] of [
      ['status', state.status],
      ['created_from', state.createdFrom],
      ['created_to', state.createdTo],
      ['limit', state.limit === DEFAULT_PAGE_SIZE ? '' : String(state.limit)],
      ['cursor', page.cursor ?? ''],
      ['trail', page.trail.join(',')],
    ] as const) {
      if (value) query.set(name, value);
    }
    const search = query.toString();
    return search ? `${path}?${search}` : path;
  };
  return pager('Pages', [
    previous && pageLink(href(previous), 'Previous page', 'prev'),
    next && pageLink(href(next), 'Next page', 'next'),
  ]);
}

/** Pages of a patient search: forms that POST the reference again, so it never enters a URL. */
function formPager(path: string, state: ListState, { previous, next }: ListPages, csrf: Html): Html | '' {
  const button = (label: string, page: ListPage) =>
    postForm({
      action: path,
      csrf,
      body: html`${hiddenFilters(state)}
      ${hiddenFields({
        patient_reference: state.patientReference,
        cursor: page.cursor ?? '',
        trail: page.trail.join(','),
      })}
      ${submitButton({ label })}`,
    });
  return pager('Pages', [previous && button('Previous page', previous), next && button('Next page', next)]);
}
