import { FINAL_STATUSES } from '../../domain/cases/case-model';
import type { CaseSummary } from '../../domain/cases/case-summary';
import { Database } from '../storage/database';
import { keysetCursor, KeysetPosition, positionColumn } from '../storage/keyset-cursor';

export type { CaseSummary };

/** Whose cases a list shows: one account's, in one mode. */
export interface CaseScope {
  accountId: string;
  livemode: boolean;
}

export interface CaseSummaryFilter {
  object?: string;
  status?: string[];
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  patientRef?: string;
}

export interface PageRequest {
  limit: number;
  /** Where the previous page ended. */
  after?: KeysetPosition;
}

export interface SummaryPage<Row> {
  data: Row[];
  nextCursor: string | null;
}

export interface SealedCaseRow {
  case_id: string;
  created_at: string;
  /** `created_at` to the microsecond, for the cursor of a page that ends on this row. */
  page_position: string;
  /** The case object as GET shows it, sealed; null until the backfill fills a row written before it. */
  case_sealed: string | null;
}

/** How many cases of one type are in one status, across every account. */
export interface CaseCount {
  object: string;
  status: string;
  count: number;
  /** Of them, those still open past their `due_at` (only prior authorizations have one). */
  overdue: number;
}

/**
 * A review queue entry. `queue_due_at` is what the queue sorts by: the review target while the case
 * awaits review, the information request's due date (the one the clinic must meet) while the payer
 * waits for information. `overdue` is true once it has passed, whether or not the case has said so yet.
 */
export type QueuedCaseSummary = CaseSummary & { queue_due_at: string };

export const MAX_PAGE_SIZE = 100;

const COLUMNS =
  'case_id, account_id, object, status, patient_ref, created_at, updated_at, due_at, overdue, sequence, livemode, ' +
  'review_due_at, information_requested, outcome_result, information_due_at';

const REVIEW_QUEUE_OBJECT = 'prior_authorization';
/**
 * The review target while awaiting review; while the payer waits for answers, the date they are due
 * (rows written before that date was summarised fall back to the payer's deadline).
 */
const QUEUE_DUE_AT = `(CASE WHEN status = 'awaiting_review' THEN COALESCE(review_due_at, due_at, created_at)
  ELSE COALESCE(information_due_at, due_at, created_at) END)`;

/**
 * The SQL read model of cases (migration 0012), for what Temporal visibility cannot do: ordered,
 * keyset-paged lists and the review queue. The case lifecycle writes it at every status move, so it
 * trails the workflow by the moment the write takes; GET of a case still reads Temporal.
 */
export class CaseSummariesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Upserts a case's summary unless a newer one is stored (a higher sequence, or the same sequence
   * updated later), so a retried or late write of an older move never overwrites a newer one. A case
   * whose account is unknown, or a case id another account holds, writes nothing. A case's mode is
   * fixed by its first write. `caseSealed` is the case object as GET shows it, sealed; a write without
   * one (a run from before the read model held it) clears it, so a list never shows an object older
   * than its row. Says whether it wrote.
   */
  async record(summary: CaseSummary, caseSealed?: string): Promise<boolean> {
    const written = await this.db.query<{ case_id: string }>(
      `INSERT INTO case_summaries (${COLUMNS}, case_sealed)
       SELECT $1, accounts.id, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16
       FROM accounts WHERE accounts.id = $2
       ON CONFLICT (case_id) DO UPDATE SET
         status = excluded.status,
         patient_ref = excluded.patient_ref,
         updated_at = excluded.updated_at,
         due_at = excluded.due_at,
         overdue = excluded.overdue,
         sequence = excluded.sequence,
         review_due_at = excluded.review_due_at,
         information_requested = excluded.information_requested,
         outcome_result = excluded.outcome_result,
         information_due_at = excluded.information_due_at,
         case_sealed = excluded.case_sealed
       WHERE case_summaries.account_id = excluded.account_id
         AND (excluded.sequence, excluded.updated_at) >= (case_summaries.sequence, case_summaries.updated_at)
       RETURNING case_id`,
      [
        summary.case_id,
        summary.account_id,
        summary.object,
        summary.status,
        summary.patient_ref,
        summary.created_at,
        summary.updated_at,
        summary.due_at,
        summary.overdue,
        summary.sequence,
        summary.livemode ?? false,
        summary.review_due_at ?? null,
        summary.information_requested ?? false,
        summary.outcome_result ?? null,
        summary.information_due_at ?? null,
        caseSealed ?? null,
      ],
    );
    return written.length > 0;
  }

  async find(accountId: string, caseId: string): Promise<CaseSummary | undefined> {
    const [row] = await this.db.query<CaseSummary>(
      `SELECT ${COLUMNS} FROM case_summaries WHERE account_id = $1 AND case_id = $2`,
      [accountId, caseId],
    );
    return row;
  }

  /** The account's cases of one mode, newest first, paged by a keyset cursor over (created_at, case_id). */
  async list(
    scope: CaseScope,
    filter: CaseSummaryFilter,
    page: PageRequest,
  ): Promise<SummaryPage<CaseSummary>> {
    const limit = pageSize(page.limit);
    const rows = await this.newestFirst<Positioned<CaseSummary>>(
      COLUMNS,
      scope,
      filter,
      limit + 1,
      page.after,
    );
    return pageOf(rows, limit);
  }

  /**
   * The sealed case objects of the account's cases of one mode, newest first: `limit` of them after
   * `after` (the last one a page showed). Rows whose object the backfill has not filled yet come too,
   * with `case_sealed` null, so a page never skips a case.
   */
  listCaseObjects(
    scope: CaseScope,
    filter: CaseSummaryFilter,
    limit: number,
    after?: KeysetPosition,
  ): Promise<SealedCaseRow[]> {
    return this.newestFirst<SealedCaseRow>('case_id, created_at, case_sealed', scope, filter, limit, after);
  }

  /** Removes a case's row (the backfill's, when the case was purged while it read it). */
  async forget(caseId: string): Promise<void> {
    await this.db.query('DELETE FROM case_summaries WHERE case_id = $1', [caseId]);
  }

  /** Of these case ids, those with no row or a row without its case object, in the order given. */
  async idsWithoutCaseObject(caseIds: string[]): Promise<string[]> {
    if (caseIds.length === 0) return [];
    const rows = await this.db.query<{ case_id: string }>(
      `SELECT given.case_id FROM unnest($1::text[]) WITH ORDINALITY AS given (case_id, position)
       WHERE NOT EXISTS (
         SELECT 1 FROM case_summaries WHERE case_summaries.case_id = given.case_id AND case_sealed IS NOT NULL
       )
       ORDER BY given.position`,
      [caseIds],
    );
    return rows.map((row) => row.case_id);
  }

  private newestFirst<Row>(
    columns: string,
    scope: CaseScope,
    filter: CaseSummaryFilter,
    limit: number,
    after: KeysetPosition | undefined,
  ): Promise<Row[]> {
    const params: unknown[] = [scope.accountId, scope.livemode];
    const where = ['account_id = $1', 'livemode = $2'];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.object !== undefined) where.push(`object = ${bind(filter.object)}`);
    if (filter.status !== undefined) where.push(`status = ANY(${bind(filter.status)}::text[])`);
    if (filter.createdFrom !== undefined) where.push(`created_at >= ${bind(filter.createdFrom)}`);
    if (filter.createdTo !== undefined) where.push(`created_at < ${bind(filter.createdTo)}`);
    if (filter.patientRef !== undefined) where.push(`patient_ref = ${bind(filter.patientRef)}`);
    if (after !== undefined) {
      where.push(`(created_at, case_id) < (${bind(after.at)}::timestamptz, ${bind(after.id)})`);
    }
    return this.db.query<Row>(
      `SELECT ${columns}, ${positionColumn('created_at')} AS page_position FROM case_summaries WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, case_id DESC LIMIT ${bind(limit)}`,
      params,
    );
  }

  /**
   * Prior authorizations that wait for the account: those awaiting clinical review and those whose
   * payer asked for information, soonest due first (`queue_due_at`), each marked once overdue.
   */
  async reviewQueue(
    scope: CaseScope,
    page: PageRequest,
    now: Date = new Date(),
  ): Promise<SummaryPage<QueuedCaseSummary>> {
    const params: unknown[] = [scope.accountId, scope.livemode, REVIEW_QUEUE_OBJECT];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const where = [
      'account_id = $1',
      'livemode = $2',
      'object = $3',
      "(status = 'awaiting_review' OR (status = 'awaiting_outcome' AND information_requested))",
    ];
    if (page.after !== undefined) {
      where.push(
        `(${QUEUE_DUE_AT}, case_id) > (${bind(page.after.at)}::timestamptz, ${bind(page.after.id)})`,
      );
    }
    const limit = pageSize(page.limit);
    const rows = await this.db.query<Positioned<QueuedCaseSummary>>(
      `SELECT ${COLUMNS}, ${QUEUE_DUE_AT} AS queue_due_at, ${positionColumn(QUEUE_DUE_AT)} AS page_position
       FROM case_summaries WHERE ${where.join(' AND ')}
       ORDER BY queue_due_at ASC, case_id ASC LIMIT ${bind(limit + 1)}`,
      params,
    );
    const marked = rows.map((row) => ({
      ...row,
      overdue: row.overdue || Date.parse(row.queue_due_at) < now.getTime(),
    }));
    return pageOf(marked, limit);
  }

  /**
   * Cases by type and status over all accounts, for the operators' metrics: one grouped scan whose
   * answer has at most types × statuses rows, however many cases and accounts there are.
   */
  async countByObjectAndStatus(now: Date = new Date()): Promise<CaseCount[]> {
    return this.db.query<CaseCount>(
      `SELECT object, status, count(*)::int AS count,
              (count(*) FILTER (WHERE status <> ALL($1::text[]) AND (overdue OR due_at < $2)))::int AS overdue
       FROM case_summaries GROUP BY object, status ORDER BY object, status`,
      [FINAL_STATUSES, now],
    );
  }
}

function pageSize(limit: number): number {
  return Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_PAGE_SIZE) : MAX_PAGE_SIZE;
}

/** A row with its sort time to the microsecond, which only the page's cursor shows. */
type Positioned<Row> = Row & { case_id: string; page_position: string };

function pageOf<Row>(rows: Positioned<Row>[], limit: number): SummaryPage<Row> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    data: shown.map(({ page_position: _position, ...row }) => row as Row),
    nextCursor: rows.length > limit && last ? keysetCursor(last.page_position, last.case_id) : null,
  };
}
