import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { CASE_STATUSES, CaseStatus } from '../../../domain/cases/case-model';
import type { CaseSummary, QueuedCaseSummary } from '../../../infrastructure/cases/case-summaries.repository';
import { RequiresRole } from '../../common/route-access';
import { CaseSummariesService, CaseSummaryQuery } from '../../cases/case-summaries.service';
import { CasesService } from '../../cases/cases.service';
import { ApiError } from '../../common/errors';
import { ConsoleAudit } from '../console-audit';
import { formText } from '../forms';
import { Html, html } from '../html';
import { csrfField, sendPage } from '../layout';
import { moment } from '../markup';
import { triageOf } from './case-request-views';
import type { CaseTriage } from './case-request-views';
import { CaseSection, casePath, SECTION_SEGMENTS, sectionOfObject, sectionOfPath } from './case-sections';
import { dueBadge, statusBadge } from './case-views';
import { principalOf } from './console-principal';

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;
/** How many earlier pages "Previous page" can walk back through. */
const MAX_TRAIL = 50;
/** Stands for the first page, which has no cursor, in a trail of cursors. */
const FIRST_PAGE = '-';
const DAY_MS = 86_400_000;

/** What a list shows: its filters as the form sent them, and where in the list it is. */
interface ListState {
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

/**
 * Each section's list of cases and the reviewers' queue, read from the case summaries. Filters by
 * status and dates travel in the URL; a patient reference is PHI, so that search and its pages are
 * POSTs whose answers are rendered directly.
 */
@ApiExcludeController()
@Controller('console')
export class CaseListsController {
  constructor(
    @Inject(CaseSummariesService) private readonly summaries: CaseSummariesService,
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(ConsoleAudit) private readonly audit: ConsoleAudit,
  ) {}

  @Get('review-queue')
  @RequiresRole('reviewer')
  async reviewQueue(@Req() req: Request, @Res() res: Response): Promise<void> {
    const state = listState(req.query, false);
    const principal = principalOf(req);
    const page = await this.summaries.reviewQueue(principal, pageRequest(state));
    const section = sectionOfObject('prior_authorization');
    // The summaries hold no PHI; who, what and which payer come from each case's own state, as its page does.
    const triage = await Promise.all(
      page.data.map((row) =>
        this.cases.get(principal, section.type, row.case_id).then(triageOf, (error: unknown) => {
          if (error instanceof ApiError && error.httpStatus === 404) return null;
          throw error;
        }),
      ),
    );
    await this.audit.record(
      req,
      'case.listed',
      { object: 'prior_authorization', id: null },
      { filters: ['review_queue'], result_ids: page.data.map((row) => row.case_id) },
    );
    sendPage(req, res, {
      title: 'Review queue',
      body: html`<p>
          Prior authorizations waiting for the clinic, soonest due first: those awaiting clinical review (due
          by their review target) and those whose payer asked for information (due by the payer's decision
          deadline).
        </p>
        ${
          page.data.length === 0
            ? html`<p class="empty" role="status">No prior authorization is waiting for review.</p>`
            : html`<table>
                <caption>
                  Prior authorizations awaiting review or information
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Case</th>
                    <th scope="col">Patient</th>
                    <th scope="col">Drug</th>
                    <th scope="col">Payer</th>
                    <th scope="col">Waiting for</th>
                    <th scope="col">Due</th>
                    <th scope="col">Review target</th>
                    <th scope="col">Payer deadline</th>
                    <th scope="col">Created</th>
                    <th scope="col">Decision</th>
                  </tr>
                </thead>
                <tbody>
                  ${page.data.map((row, index) => queueRow(section, row, triage[index] ?? null))}
                </tbody>
              </table>`
        }
        ${linkPager('/console/review-queue', state, page.nextCursor)}`,
    });
  }

  @Get(SECTION_SEGMENTS)
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendList(req, res, sectionOfPath(req.path), listState(req.query, false));
  }

  @Post(SECTION_SEGMENTS)
  async search(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendList(req, res, sectionOfPath(req.path), listState(req.body, true));
  }

  private async sendList(req: Request, res: Response, section: CaseSection, state: ListState): Promise<void> {
    const problems = filterProblems(state);
    const query: CaseSummaryQuery = {
      object: section.type.object,
      ...(state.status && { status: [state.status as CaseStatus] }),
      ...(state.createdFrom && { createdFrom: new Date(`${state.createdFrom}T00:00:00Z`) }),
      // The form's "to" day is included: the list's bound is the start of the next day.
      ...(state.createdTo && { createdTo: new Date(Date.parse(`${state.createdTo}T00:00:00Z`) + DAY_MS) }),
      ...(state.patientReference && { patientInternalId: state.patientReference }),
    };
    let rows: CaseSummary[] = [];
    let nextCursor: string | null = null;
    if (problems.length === 0) {
      try {
        ({ data: rows, nextCursor } = await this.summaries.list(principalOf(req), query, pageRequest(state)));
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'validation_error') throw error;
        problems.push(...error.details.map((detail) => `${detail.field}: ${detail.issue}`));
      }
      await this.audit.record(
        req,
        'case.listed',
        { object: section.type.object, id: null },
        {
          filters: Object.entries({
            status: query.status,
            created_from: query.createdFrom,
            created_to: query.createdTo,
            patient_internal_id: query.patientInternalId,
          })
            .filter(([, value]) => value !== undefined)
            .map(([name]) => name),
          result_ids: rows.map((row) => row.case_id),
        },
      );
    }
    const searchedByPatient = state.patientReference !== '';
    const path = `/console/${section.segment}`;
    sendPage(
      req,
      res,
      {
        title: section.title,
        ...(problems.length > 0 && {
          notice: { kind: 'error' as const, text: `The filters are invalid: ${problems.join('; ')}` },
        }),
        body: html`${filterForm(path, state)} ${patientSearchForm(req, res, path, state)}
        ${
          rows.length === 0
            ? html`<p class="empty" role="status">No cases match.</p>`
            : casesTable(section, rows)
        }
        ${searchedByPatient ? formPager(req, res, path, state, nextCursor) : linkPager(path, state, nextCursor)}`,
      },
      problems.length > 0 ? 400 : 200,
    );
  }
}

function queueRow(section: CaseSection, row: QueuedCaseSummary, triage: CaseTriage | null): Html {
  const inReview = row.status === 'awaiting_review';
  const anchor = inReview ? 'review-heading' : 'information-heading';
  return html`<tr>
    <td><a href="${casePath(section, row.case_id)}">${row.case_id}</a></td>
    <td>${triage?.patient ?? '—'}</td>
    <td>${triage?.drug ?? '—'}</td>
    <td>${triage?.payer ?? '—'}</td>
    <td>${inReview ? statusBadge('awaiting_review') : statusBadge('information_requested')}</td>
    <td>${dueBadge(row.queue_due_at, row.overdue)}</td>
    <td>${row.review_due_at ? moment(row.review_due_at) : '—'}</td>
    <td>${row.due_at ? moment(row.due_at) : '—'}</td>
    <td>${moment(row.created_at)}</td>
    <td>
      <a href="${casePath(section, row.case_id)}#${anchor}"
        >${inReview ? 'Review' : 'Answer'} ${row.case_id}</a
      >
    </td>
  </tr>`;
}

function casesTable(section: CaseSection, rows: CaseSummary[]): Html {
  const dueColumn = section.type.object === 'prior_authorization';
  return html`<table>
    <caption>
      ${section.title}, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Case</th>
        <th scope="col">Status</th>
        <th scope="col">Created</th>
        <th scope="col">Updated</th>
        ${
          dueColumn
            ? html`<th scope="col">Due</th>
                <th scope="col">Outcome</th>`
            : ''
        }
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (row) =>
          html`<tr>
            <td><a href="${casePath(section, row.case_id)}">${row.case_id}</a></td>
            <td>${statusBadge(row.status)}</td>
            <td>${moment(row.created_at)}</td>
            <td>${moment(row.updated_at)}</td>
            ${
              dueColumn
                ? html`<td>${openDue(row)}</td>
                    <td>
                      ${row.outcome_result ? statusBadge(row.outcome_result) : '—'}
                      ${row.information_requested ? statusBadge('information_requested') : ''}
                    </td>`
                : ''
            }
          </tr>`,
      )}
    </tbody>
  </table>`;
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
  return html`<form method="get" action="${path}" class="filters">
    <div>
      <label for="status">Status</label>
      <select id="status" name="status">
        <option value="">Any status</option>
        ${CASE_STATUSES.map(
          (status) =>
            html`<option value="${status}" ${status === state.status ? html`selected` : ''}>
              ${status.replace(/_/g, ' ')}
            </option>`,
        )}
      </select>
    </div>
    <div>
      <label for="created_from">Created from</label>
      <input id="created_from" name="created_from" type="date" value="${state.createdFrom}" />
    </div>
    <div>
      <label for="created_to">Created to</label>
      <input id="created_to" name="created_to" type="date" value="${state.createdTo}" />
    </div>
    <button type="submit">Filter</button>
  </form>`;
}

function patientSearchForm(req: Request, res: Response, path: string, state: ListState): Html {
  return html`<form method="post" action="${path}" class="filters">
    ${csrfField(req, res)} ${hiddenFilters(state)}
    <div>
      <label for="patient_reference">Patient reference</label>
      <input
        id="patient_reference"
        name="patient_reference"
        type="search"
        autocomplete="off"
        value="${state.patientReference}"
      />
    </div>
    <button type="submit">Find cases</button>
  </form>`;
}

function hiddenFilters(state: ListState): Html {
  return html`<input type="hidden" name="status" value="${state.status}" />
    <input type="hidden" name="created_from" value="${state.createdFrom}" />
    <input type="hidden" name="created_to" value="${state.createdTo}" />
    <input type="hidden" name="limit" value="${state.limit}" />`;
}

/** Pages of a list whose filters may be in the URL: links carrying the opaque cursor. */
function linkPager(path: string, state: ListState, nextCursor: string | null): Html {
  const href = (cursor: string | undefined, trail: string[]) => {
    const query = new URLSearchParams();
    for (const [name, value] of [
      ['status', state.status],
      ['created_from', state.createdFrom],
      ['created_to', state.createdTo],
      ['limit', state.limit === DEFAULT_PAGE_SIZE ? '' : String(state.limit)],
      ['cursor', cursor ?? ''],
      ['trail', trail.join(',')],
    ]) {
      if (value) query.set(name!, value);
    }
    const search = query.toString();
    return search ? `${path}?${search}` : path;
  };
  const previous = previousPage(state);
  const next = nextPage(state, nextCursor);
  if (!previous && !next) return html``;
  return html`<nav class="pager" aria-label="Pages">
    ${previous ? html`<a href="${href(previous.cursor, previous.trail)}" rel="prev">Previous page</a>` : ''}
    ${next ? html`<a href="${href(next.cursor, next.trail)}" rel="next">Next page</a>` : ''}
  </nav>`;
}

/** Pages of a patient search: forms that POST the reference again, so it never enters a URL. */
function formPager(
  req: Request,
  res: Response,
  path: string,
  state: ListState,
  nextCursor: string | null,
): Html {
  const button = (label: string, page: { cursor?: string; trail: string[] }) =>
    html`<form method="post" action="${path}">
      ${csrfField(req, res)} ${hiddenFilters(state)}
      <input type="hidden" name="patient_reference" value="${state.patientReference}" />
      <input type="hidden" name="cursor" value="${page.cursor ?? ''}" />
      <input type="hidden" name="trail" value="${page.trail.join(',')}" />
      <button type="submit">${label}</button>
    </form>`;
  const previous = previousPage(state);
  const next = nextPage(state, nextCursor);
  if (!previous && !next) return html``;
  return html`<nav class="pager" aria-label="Pages">
    ${previous ? button('Previous page', previous) : ''} ${next ? button('Next page', next) : ''}
  </nav>`;
}

function previousPage(state: ListState): { cursor?: string; trail: string[] } | undefined {
  if (!state.cursor) return undefined;
  const trail = [...state.trail];
  const cursor = trail.pop();
  return { cursor: cursor === FIRST_PAGE ? undefined : cursor, trail };
}

function nextPage(
  state: ListState,
  nextCursor: string | null,
): { cursor: string; trail: string[] } | undefined {
  if (!nextCursor) return undefined;
  return { cursor: nextCursor, trail: [...state.trail, state.cursor || FIRST_PAGE].slice(-MAX_TRAIL) };
}

function listState(source: unknown, patientSearch: boolean): ListState {
  const limit = Number(formText(source, 'limit', 3));
  return {
    status: formText(source, 'status', 40),
    createdFrom: formText(source, 'created_from', 10),
    createdTo: formText(source, 'created_to', 10),
    patientReference: patientSearch ? formText(source, 'patient_reference', 200) : '',
    cursor: formText(source, 'cursor', 1000),
    trail: formText(source, 'trail', 60_000).split(',').filter(Boolean).slice(-MAX_TRAIL),
    limit: Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE_SIZE ? limit : DEFAULT_PAGE_SIZE,
  };
}

function pageRequest(state: ListState): { limit: number; cursor?: string } {
  return { limit: state.limit, ...(state.cursor && { cursor: state.cursor }) };
}

function filterProblems(state: ListState): string[] {
  const problems: string[] = [];
  if (state.status && !(CASE_STATUSES as readonly string[]).includes(state.status)) {
    problems.push(`status: must be one of ${CASE_STATUSES.join(', ')}`);
  }
  for (const [field, value] of [
    ['created_from', state.createdFrom],
    ['created_to', state.createdTo],
  ] as const) {
    if (value && !isCalendarDate(value)) problems.push(`${field}: must be a date (YYYY-MM-DD)`);
  }
  if (
    isCalendarDate(state.createdFrom) &&
    isCalendarDate(state.createdTo) &&
    state.createdTo < state.createdFrom
  ) {
    problems.push('created_to: must not be before created_from');
  }
  return problems;
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}
