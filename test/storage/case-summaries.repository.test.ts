import { randomBytes } from 'node:crypto';

import { newId } from '../../domain/ids';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { CaseSummariesRepository, CaseSummary } from '../../infrastructure/cases/case-summaries.repository';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { CaseSummariesService } from '../../src/cases/case-summaries.service';
import { patientRefOf } from '../../src/cases/cases.service';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('case summaries');

const HOUR = 3_600_000;
/** Lists show one mode; these cases are written without one, as cases started before modes write. */
const testMode = (accountId: string) => ({ accountId, livemode: false });
const at = (hoursAfterStart: number) =>
  new Date(Date.UTC(2026, 10, 2, 9) + hoursAfterStart * HOUR).toISOString();

describe.each(engines)('case summaries on %s', (_engine, open) => {
  let db: Database;
  let summaries: CaseSummariesRepository;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    summaries = new CaseSummariesRepository(db);
    accounts = new AccountsRepository(db);
  });
  afterAll(() => db.close());

  const newAccount = async () => (await accounts.createAccount('Summary clinic')).id;

  function summary(accountId: string, overrides: Partial<CaseSummary> = {}): CaseSummary {
    const created = overrides.created_at ?? at(0);
    return {
      case_id: newId('priorAuthorization'),
      account_id: accountId,
      object: 'prior_authorization',
      status: 'processing',
      patient_ref: null,
      created_at: created,
      updated_at: created,
      due_at: new Date(Date.parse(created) + 72 * HOUR).toISOString(),
      overdue: false,
      sequence: 1,
      livemode: false,
      review_due_at: null,
      information_requested: false,
      information_due_at: null,
      outcome_result: null,
      ...overrides,
    };
  }

  async function recordAll(rows: CaseSummary[]): Promise<CaseSummary[]> {
    for (const row of rows) await summaries.record(row);
    return rows;
  }

  const after = (cursor?: string) => (cursor === undefined ? {} : { after: keysetPosition(cursor) });

  /** Every page of a list, following next cursors until there is none. */
  async function allPages<Row extends { case_id: string }>(
    read: (cursor?: string) => Promise<{ data: Row[]; nextCursor: string | null }>,
  ): Promise<Row[][]> {
    const pages: Row[][] = [];
    let cursor: string | undefined;
    do {
      const page = await read(cursor);
      pages.push(page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return pages;
  }

  it('keeps a written summary, found by its account and case id only', async () => {
    const accountId = await newAccount();
    const written = summary(accountId, { patient_ref: 'a'.repeat(32) });
    expect(await summaries.record(written)).toBe(true);
    expect(await summaries.find(accountId, written.case_id)).toEqual(written);
    expect(await summaries.find(await newAccount(), written.case_id)).toBeUndefined();
  });

  it('keeps the newest move when an older one is written after it', async () => {
    const accountId = await newAccount();
    const awaitingReview = summary(accountId, { status: 'awaiting_review', sequence: 2, updated_at: at(1) });
    await summaries.record(awaitingReview);
    const lateProcessing = { ...awaitingReview, status: 'processing', sequence: 1, updated_at: at(0) };
    expect(await summaries.record(lateProcessing)).toBe(false);
    expect(await summaries.find(accountId, awaitingReview.case_id)).toMatchObject({
      status: 'awaiting_review',
      sequence: 2,
    });
  });

  it('takes a later change within the same move, such as the overdue flag, and a retry of the same write', async () => {
    const accountId = await newAccount();
    const submitted = summary(accountId, { status: 'awaiting_outcome', sequence: 3, updated_at: at(1) });
    await summaries.record(submitted);
    const overdue = { ...submitted, overdue: true, updated_at: at(73) };
    expect(await summaries.record(overdue)).toBe(true);
    expect(await summaries.record(overdue)).toBe(true);
    expect(await summaries.record(submitted)).toBe(false);
    expect((await summaries.find(accountId, submitted.case_id))?.overdue).toBe(true);
  });

  it("writes nothing for an unknown account, and never over another account's case", async () => {
    const accountId = await newAccount();
    const unknownAccount = summary('acct_00000000000000000000000000');
    expect(await summaries.record(unknownAccount)).toBe(false);
    const owned = await recordAll([summary(accountId)]);
    const claimed = { ...owned[0]!, account_id: await newAccount(), status: 'cancelled', sequence: 9 };
    expect(await summaries.record(claimed)).toBe(false);
    expect(await summaries.find(accountId, owned[0]!.case_id)).toMatchObject({ status: 'processing' });
  });

  it('lists newest first and filters by case type, status, creation dates and patient reference', async () => {
    const accountId = await newAccount();
    const [oldest, middle, newest, verification] = await recordAll([
      summary(accountId, { created_at: at(0), status: 'completed', sequence: 4, patient_ref: 'p1' }),
      summary(accountId, { created_at: at(5), status: 'awaiting_review', sequence: 2, patient_ref: 'p2' }),
      summary(accountId, { created_at: at(10), status: 'failed', sequence: 3, patient_ref: 'p1' }),
      summary(accountId, {
        case_id: newId('benefitVerification'),
        object: 'benefit_verification',
        created_at: at(7),
        due_at: null,
      }),
    ]);
    const ids = async (filter: Parameters<CaseSummariesRepository['list']>[1]) =>
      (await summaries.list(testMode(accountId), filter, { limit: 50 })).data.map((row) => row.case_id);

    expect(await ids({})).toEqual([newest, verification, middle, oldest].map((row) => row!.case_id));
    expect(await ids({ object: 'benefit_verification' })).toEqual([verification!.case_id]);
    expect(await ids({ object: 'prior_authorization', status: ['completed', 'failed'] })).toEqual([
      newest!.case_id,
      oldest!.case_id,
    ]);
    expect(await ids({ createdFrom: new Date(at(5)), createdTo: new Date(at(10)) })).toEqual([
      verification!.case_id,
      middle!.case_id,
    ]);
    expect(await ids({ patientRef: 'p1' })).toEqual([newest!.case_id, oldest!.case_id]);
    expect(await ids({ patientRef: 'p3' })).toEqual([]);
  });

  it("never lists another account's cases", async () => {
    const [mine, theirs] = [await newAccount(), await newAccount()];
    await recordAll([summary(theirs)]);
    expect((await summaries.list(testMode(mine), {}, { limit: 50 })).data).toEqual([]);
  });

  it("shows a mode's lists and review queue only that mode's cases", async () => {
    const accountId = await newAccount();
    const [test, live] = await recordAll([
      summary(accountId, { status: 'awaiting_review' }),
      summary(accountId, { status: 'awaiting_review', livemode: true }),
    ]);
    const liveMode = { accountId, livemode: true };
    const listed = async (scope: { accountId: string; livemode: boolean }) => [
      (await summaries.list(scope, {}, { limit: 50 })).data.map((row) => row.case_id),
      (await summaries.reviewQueue(scope, { limit: 50 })).data.map((row) => row.case_id),
    ];
    expect(await listed(testMode(accountId))).toEqual([[test!.case_id], [test!.case_id]]);
    expect(await listed(liveMode)).toEqual([[live!.case_id], [live!.case_id]]);
  });

  it('reads a summary written without a mode, by a case started before modes, as a test case', async () => {
    const accountId = await newAccount();
    const { livemode: _mode, ...modeless } = summary(accountId);
    await summaries.record(modeless);
    expect(await summaries.find(accountId, modeless.case_id)).toMatchObject({ livemode: false });
  });

  it('pages through every case exactly once, also across cases created at the same moment', async () => {
    const accountId = await newAccount();
    // Pairs share a creation time, so the case id alone must order them and the cursor must carry it.
    const rows = await recordAll(
      Array.from({ length: 11 }, (_, index) => summary(accountId, { created_at: at(Math.floor(index / 2)) })),
    );
    const pages = await allPages((cursor) =>
      summaries.list(testMode(accountId), {}, { limit: 3, ...after(cursor) }),
    );
    expect(pages.map((page) => page.length)).toEqual([3, 3, 3, 2]);
    const listed = pages.flat();
    expect(new Set(listed.map((row) => row.case_id)).size).toBe(listed.length);
    const newestFirst = [...rows].sort(
      (a, b) => b.created_at.localeCompare(a.created_at) || b.case_id.localeCompare(a.case_id),
    );
    expect(listed.map((row) => row.case_id)).toEqual(newestFirst.map((row) => row.case_id));
  });

  it('queues the prior authorizations awaiting review, soonest due first, marking those past due', async () => {
    const accountId = await newAccount();
    const now = new Date(at(73));
    const waiting = (createdAt: string, dueInHours: number, overrides: Partial<CaseSummary> = {}) =>
      summary(accountId, {
        status: 'awaiting_review',
        sequence: 2,
        created_at: createdAt,
        due_at: new Date(Date.parse(createdAt) + dueInHours * HOUR).toISOString(),
        ...overrides,
      });
    const [standardOld, expeditedLater, standardRecent] = await recordAll([
      waiting(at(0), 72),
      waiting(at(50), 24),
      waiting(at(60), 72),
      summary(accountId, { status: 'awaiting_outcome', sequence: 3 }),
      waiting(at(1), 72, {
        case_id: newId('benefitVerification'),
        object: 'benefit_verification',
      }),
    ]);
    const queue = await summaries.reviewQueue(testMode(accountId), { limit: 10 }, now);
    expect(queue.data.map(({ case_id, overdue }) => ({ case_id, overdue }))).toEqual([
      { case_id: standardOld!.case_id, overdue: true },
      { case_id: expeditedLater!.case_id, overdue: false },
      { case_id: standardRecent!.case_id, overdue: false },
    ]);
    expect(queue.data.map((row) => row.due_at)).toEqual([
      standardOld!.due_at,
      expeditedLater!.due_at,
      standardRecent!.due_at,
    ]);
    expect(queue.nextCursor).toBeNull();
  });

  it('queues by the review target where a case has one, and cases whose payer asks for information by the date the answers are due', async () => {
    const accountId = await newAccount();
    const now = new Date(at(10));
    const [reviewedSoon, informationRequested, reviewedLater] = await recordAll([
      summary(accountId, {
        status: 'awaiting_review',
        created_at: at(0),
        due_at: null,
        review_due_at: at(4),
      }),
      summary(accountId, {
        status: 'awaiting_outcome',
        sequence: 3,
        created_at: at(1),
        due_at: at(12),
        information_requested: true,
        information_due_at: at(3),
      }),
      summary(accountId, {
        status: 'awaiting_review',
        created_at: at(2),
        due_at: null,
        review_due_at: at(26),
      }),
      summary(accountId, { status: 'awaiting_outcome', sequence: 3, due_at: at(5) }),
    ]);
    const queue = await summaries.reviewQueue(testMode(accountId), { limit: 10 }, now);
    expect(
      queue.data.map(({ case_id, queue_due_at, overdue }) => ({ case_id, queue_due_at, overdue })),
    ).toEqual([
      { case_id: informationRequested!.case_id, queue_due_at: at(3), overdue: true },
      { case_id: reviewedSoon!.case_id, queue_due_at: at(4), overdue: true },
      { case_id: reviewedLater!.case_id, queue_due_at: at(26), overdue: false },
    ]);
  });

  it('keeps the overdue flag a case recorded, even before its due time by this clock', async () => {
    const accountId = await newAccount();
    const [flagged] = await recordAll([summary(accountId, { status: 'awaiting_review', overdue: true })]);
    const queue = await summaries.reviewQueue(testMode(accountId), { limit: 10 }, new Date(at(1)));
    expect(queue.data).toEqual([expect.objectContaining({ case_id: flagged!.case_id, overdue: true })]);
  });

  it('pages through the review queue exactly once', async () => {
    const accountId = await newAccount();
    const rows = await recordAll(
      Array.from({ length: 7 }, (_, index) =>
        summary(accountId, { status: 'awaiting_review', created_at: at(Math.floor(index / 2)) }),
      ),
    );
    const pages = await allPages((cursor) =>
      summaries.reviewQueue(testMode(accountId), { limit: 2, ...after(cursor) }),
    );
    const oldestFirst = [...rows].sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.case_id.localeCompare(b.case_id),
    );
    expect(pages.flat().map((row) => row.case_id)).toEqual(oldestFirst.map((row) => row.case_id));
  });

  it('pages through cases created within one millisecond in microsecond order', async () => {
    const accountId = await newAccount();
    const rows = await recordAll([1, 2, 3, 4].map(() => summary(accountId)));
    // The API's timestamps show milliseconds; the cursor must carry what the database holds.
    for (const [index, row] of rows.entries()) {
      await db.query(`UPDATE case_summaries SET created_at = $2::timestamptz WHERE case_id = $1`, [
        row.case_id,
        `2026-03-04T05:06:07.12300${index + 1}Z`,
      ]);
    }
    const pages = await allPages((cursor) =>
      summaries.list(testMode(accountId), {}, { limit: 1, ...after(cursor) }),
    );
    expect(pages.flat().map((row) => row.case_id)).toEqual(rows.map((row) => row.case_id).reverse());
  });

  it('takes a cursor made by hand as the position it names', async () => {
    const accountId = await newAccount();
    const [older] = await recordAll([
      summary(accountId, { created_at: at(1) }),
      summary(accountId, { created_at: at(3) }),
    ]);
    const between = (Date.parse(at(2)) * 1000).toString();
    const page = await summaries.list(testMode(accountId), {}, { limit: 10, ...after(`${between}_zzz`) });
    expect(page.data.map((row) => row.case_id)).toEqual([older!.case_id]);
  });

  it('counts cases by type and status across accounts, with the open ones past due, for the metrics', async () => {
    const now = new Date(at(100));
    const countsOf = async () =>
      new Map(
        (await summaries.countByObjectAndStatus(now)).map((row) => [`${row.object} ${row.status}`, row]),
      );
    const before = await countsOf();
    await recordAll([
      summary(await newAccount(), { status: 'awaiting_review' }),
      summary(await newAccount(), { status: 'awaiting_review', created_at: at(50) }),
      summary(await newAccount(), { status: 'completed' }),
      summary(await newAccount(), {
        case_id: newId('benefitVerification'),
        object: 'benefit_verification',
        due_at: null,
      }),
    ]);
    const after = await countsOf();
    const grown = (key: string) => ({
      count: (after.get(key)?.count ?? 0) - (before.get(key)?.count ?? 0),
      overdue: (after.get(key)?.overdue ?? 0) - (before.get(key)?.overdue ?? 0),
    });
    expect(grown('prior_authorization awaiting_review')).toEqual({ count: 2, overdue: 1 });
    expect(grown('prior_authorization completed')).toEqual({ count: 1, overdue: 0 });
    expect(grown('benefit_verification processing')).toEqual({ count: 1, overdue: 0 });
  });

  it('holds in the clear only ids, enums, dates and the keyed patient hash; the case object only sealed', async () => {
    const columns = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'case_summaries' ORDER BY column_name`,
    );
    expect(columns.map((column) => column.column_name)).toEqual([
      'account_id',
      'case_id',
      'case_sealed',
      'created_at',
      'due_at',
      'information_due_at',
      'information_requested',
      'livemode',
      'object',
      'outcome_result',
      'overdue',
      'patient_ref',
      'review_due_at',
      'sequence',
      'status',
      'updated_at',
    ]);
  });

  describe('through the service the console calls', () => {
    const patientRefKey = randomBytes(32);
    let service: CaseSummariesService;
    beforeAll(() => {
      service = new CaseSummariesService(summaries, patientRefKey);
    });

    it("finds a patient's cases by the same keyed hash the API's lists use", async () => {
      const accountId = await newAccount();
      const [theirCase] = await recordAll([
        summary(accountId, { patient_ref: patientRefOf(patientRefKey, accountId, 'mrn-4471') }),
        summary(accountId, { patient_ref: patientRefOf(patientRefKey, accountId, 'mrn-9000') }),
      ]);
      const page = await service.list(testMode(accountId), { patientInternalId: 'mrn-4471' }, { limit: 10 });
      expect(page.data.map((row) => row.case_id)).toEqual([theirCase!.case_id]);
    });
  });
});
