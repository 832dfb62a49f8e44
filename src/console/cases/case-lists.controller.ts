import { Get, Inject, Post } from '@nestjs/common';

import { CASE_STATUSES, CaseStatus, FINAL_STATUSES } from '../../../domain/cases/case-model';
import { DAY_MS } from '../../../domain/durations';
import type { CaseSummary, PageRequest } from '../../../infrastructure/cases/case-summaries.repository';
import { KEYSET_CURSOR, keysetPosition } from '../../../infrastructure/storage/keyset-cursor';
import { RequiresRole } from '../../common/route-access';
import { CaseSummariesService, CaseSummaryQuery, CasesService } from '../../cases/cases.module';
import { ApiError } from '../../common/errors';
import { formText, refusalDetails } from '../forms';
import { attentionListView, AttentionRow } from './attention-views';
import { triageOf } from './case-request-views';
import {
  caseListView,
  DEFAULT_PAGE_SIZE,
  ListPage,
  ListPages,
  ListState,
  reviewQueueView,
} from './case-list-views';
import {
  CASE_SECTIONS,
  CaseSection,
  SECTION_SEGMENTS,
  sectionOfObject,
  sectionOfPath,
} from './case-sections';
import { CasesNeedingAttention } from './cases-needing-attention';
import { principalOf } from '../console-principal';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

const MAX_PAGE_SIZE = 100;
/** How many earlier pages "Previous page" can walk back through. */
const MAX_TRAIL = 50;
/** Stands for the first page, which has no cursor, in a trail of cursors. */
const FIRST_PAGE = '-';
/** How many cases needing attention the page reads and shows; Temporal Web's saved query lists every one. */
const MAX_ATTENTION_CASES_SHOWN = 100;

/**
 * The console's lists of cases. Each section's list and the reviewers' queue are read from the case
 * summaries: filters by status and dates travel in the URL; a patient reference is PHI, so that search
 * and its pages are POSTs whose answers are rendered directly. The platform operators' cases waiting
 * out a connector outage, in every account, are found by Temporal visibility (the `CaseAttention`
 * search attribute), and each is read as its case page reads it, so the list shows what the case says
 * now, in the mode the person views.
 */
@ConsolePages()
export class CaseListsController {
  constructor(
    @Inject(CaseSummariesService) private readonly summaries: CaseSummariesService,
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(CasesNeedingAttention) private readonly needingAttention: CasesNeedingAttention,
  ) {}

  @Get('review-queue')
  @RequiresRole('reviewer')
  async reviewQueue(@Page() page: ConsolePage): Promise<void> {
    const state = listState(page.req.query, false);
    const principal = principalOf(page.req);
    const listed = await this.summaries.reviewQueue(principal, pageRequest(state));
    const section = sectionOfObject('prior_authorization');
    // The summaries hold no PHI; who, what and which payer come from each case's own state, as its page does.
    const cases = await this.cases.getEach(
      principal,
      section.type,
      listed.data.map((row) => row.case_id),
    );
    const triage = cases.map((record) => record && triageOf(record));
    await page.audit(
      'case.listed',
      { object: 'prior_authorization', id: null },
      { filters: ['review_queue'], result_ids: listed.data.map((row) => row.case_id) },
    );
    const rows = listed.data.map((summary, index) => ({ summary, triage: triage[index] ?? null }));
    page.send({
      title: 'Review queue',
      body: reviewQueueView(section, rows, state, pagesAround(state, listed.nextCursor)),
    });
  }

  @Get(SECTION_SEGMENTS)
  async list(@Page() page: ConsolePage): Promise<void> {
    await this.sendList(page, sectionOfPath(page.req.path), listState(page.req.query, false));
  }

  @Post(SECTION_SEGMENTS)
  async search(@Page() page: ConsolePage): Promise<void> {
    await this.sendList(page, sectionOfPath(page.req.path), listState(page.req.body, true));
  }

  private async sendList(page: ConsolePage, section: CaseSection, state: ListState): Promise<void> {
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
        ({ data: rows, nextCursor } = await this.summaries.list(
          principalOf(page.req),
          query,
          pageRequest(state),
        ));
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'validation_error') throw error;
        problems.push(...refusalDetails(error));
      }
      await page.audit(
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
    page.send(
      {
        title: section.title,
        ...(problems.length > 0 && {
          notice: { kind: 'error' as const, text: `The filters are invalid: ${problems.join('; ')}` },
        }),
        body: caseListView(section, rows, state, pagesAround(state, nextCursor), page.csrf()),
      },
      problems.length > 0 ? 400 : 200,
    );
  }

  @Get('attention')
  @RequiresRole('operator')
  async attention(@Page() page: ConsolePage): Promise<void> {
    const livemode = principalOf(page.req).livemode;
    const found = await this.needingAttention.find(MAX_ATTENTION_CASES_SHOWN);
    const read = await Promise.all(
      found.cases.map(({ caseId, object }) => this.readAttentionCase(caseId, object)),
    );
    const rows = read
      .filter((row): row is AttentionRow => row !== undefined && row.record.livemode === livemode)
      .sort(
        (a, b) =>
          b.record.attention.since.localeCompare(a.record.attention.since) ||
          b.record.id.localeCompare(a.record.id),
      );
    await this.recordAttentionListing(page, rows);
    page.send({
      title: 'Cases needing attention',
      body: attentionListView(rows, found.more ? MAX_ATTENTION_CASES_SHOWN : undefined),
    });
  }

  /** The case as it stands; one that has gone on, ended, or is not verifiably ours since is left out. */
  private async readAttentionCase(caseId: string, object: string): Promise<AttentionRow | undefined> {
    const section = CASE_SECTIONS.find((candidate) => candidate.type.object === object);
    if (!section) return undefined;
    try {
      const { record, accountId } = await this.cases.getForOperator(section.type, caseId);
      if (!record.attention || FINAL_STATUSES.includes(record.status)) return undefined;
      return { section, accountId, record: { ...record, attention: record.attention } };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') return undefined;
      throw error;
    }
  }

  /** Each account's cases shown are a listing in that account's trail, as an operator's case read is. */
  private async recordAttentionListing(page: ConsolePage, rows: AttentionRow[]): Promise<void> {
    const groups = new Map<string, AttentionRow[]>();
    for (const row of rows) {
      const key = `${row.accountId} ${row.section.type.object}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const [key, group] of groups) {
      const [accountId, object] = key.split(' ') as [string, string];
      await page.audit(
        'case.listed',
        { object, id: null },
        { filters: ['attention'], result_ids: group.map((row) => row.record.id) },
        accountId,
      );
    }
  }
}

function pagesAround(state: ListState, nextCursor: string | null): ListPages {
  return { previous: previousPage(state), next: nextPage(state, nextCursor) };
}

function previousPage(state: ListState): ListPage | undefined {
  if (!state.cursor) return undefined;
  const trail = [...state.trail];
  const cursor = trail.pop();
  return { cursor: cursor === FIRST_PAGE ? undefined : cursor, trail };
}

function nextPage(state: ListState, nextCursor: string | null): ListPage | undefined {
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

/** The page the state names; a cursor of another shape than the lists hand out is a 400 on `cursor`. */
function pageRequest(state: ListState): PageRequest {
  if (!state.cursor) return { limit: state.limit };
  if (!KEYSET_CURSOR.test(state.cursor)) {
    throw new ApiError('validation_error', 'The request is invalid; see details.', [
      { field: 'cursor', issue: 'must be a next_cursor this list returned: <microseconds>_<id>' },
    ]);
  }
  return { limit: state.limit, after: keysetPosition(state.cursor) };
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
