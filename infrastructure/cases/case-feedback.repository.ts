import {
  FEEDBACK_PARTS,
  FEEDBACK_RATINGS,
  type CriterionExpectation,
  type CriterionMark,
  type FeedbackAuthor,
  type FeedbackDrug,
  type FeedbackPart,
  type FeedbackRating,
  feedbackDrugOf,
  type FeedbackReport,
  type FeedbackReportDrug,
  type PriorAuthorizationFeedback,
} from '../../domain/cases/case-feedback';
import { newId } from '../../domain/ids';
import { SecretBox } from '../crypto/aes-gcm';
import { keyedReference } from '../crypto/keyed-reference';
import type { Database, QueryRunner } from '../storage/database';

/** A feedback to store: what the API took, with what the report needs of its case at this moment. */
export interface FeedbackEntry {
  accountId: string;
  livemode: boolean;
  caseId: string;
  rating: FeedbackRating;
  parts: FeedbackPart[];
  comment: string | null;
  criteria: CriterionExpectation[];
  marks: CriterionMark[];
  drug: FeedbackDrug;
  author: FeedbackAuthor;
  /** The Idempotency-Key's bound id: a retry of the same POST finds the feedback stored first. */
  idempotencyId?: string;
}

/** A stored feedback, and whether this call stored it (false: a retry found its first attempt's). */
export interface RecordedFeedback {
  feedback: PriorAuthorizationFeedback;
  created: boolean;
}

/** The free text of a feedback, sealed: a comment or an expected answer may hold PHI. */
interface SealedFeedback {
  comment: string | null;
  criteria: CriterionExpectation[];
}

/**
 * What the report names of a feedback's group, sealed: beside the case id, the drug or a criterion's
 * question would say what the case's patient is treated with.
 */
interface SealedDrug {
  name: string | null;
  ndc: string | null;
  /** The question of each criterion the feedback named, by criterion id, as the case held it. */
  questions: Record<string, string>;
}

interface FeedbackRow {
  id: string;
  case_id: string;
  rating: FeedbackRating;
  parts: FeedbackPart[];
  feedback_sealed: string;
  author_type: FeedbackAuthor['type'];
  author_id: string;
  created_at: string;
}

const FEEDBACK_COLUMNS = 'id, case_id, rating, parts, feedback_sealed, author_type, author_id, created_at';

/**
 * Feedback on cases, beside them and outside their workflows: the case's reads list it, the admin
 * report counts it, and the case's purge or erasure removes it (`deleteFeedbackOfCase`).
 */
export class CaseFeedbackRepository {
  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
    /** The patient reference's key (`config.cases.patientRefKey`), which also hashes the drug to group by. */
    private readonly refKey: Buffer,
  ) {}

  /**
   * Stores a feedback unless its case already holds `cap` of them ('full'). Under one lock per case,
   * so concurrent feedback never passes the cap; a retry under the same Idempotency-Key answers the
   * feedback its first attempt stored.
   */
  async record(entry: FeedbackEntry, cap: number): Promise<RecordedFeedback | 'full'> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`case_feedback:${entry.caseId}`]);
      if (entry.idempotencyId) {
        const [stored] = await tx.query<FeedbackRow>(
          `SELECT ${FEEDBACK_COLUMNS} FROM case_feedback WHERE account_id = $1 AND idempotency_id = $2`,
          [entry.accountId, entry.idempotencyId],
        );
        if (stored) return { feedback: this.feedbackOf(stored), created: false };
      }
      const [{ count }] = (await tx.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM case_feedback WHERE account_id = $1 AND case_id = $2',
        [entry.accountId, entry.caseId],
      )) as [{ count: number }];
      if (count >= cap) return 'full';
      const sealed: SealedFeedback = { comment: entry.comment, criteria: entry.criteria };
      const drug: SealedDrug = {
        name: entry.drug.name,
        ndc: entry.drug.ndc,
        questions: Object.fromEntries(entry.marks.map((mark) => [mark.id, mark.question])),
      };
      const [row] = await tx.query<FeedbackRow>(
        `INSERT INTO case_feedback
           (id, account_id, livemode, case_id, rating, parts, drug_ref, drug_sealed, criteria_marks,
            feedback_sealed, author_type, author_id, idempotency_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, now())
         RETURNING ${FEEDBACK_COLUMNS}`,
        [
          newId('caseFeedback'),
          entry.accountId,
          entry.livemode,
          entry.caseId,
          entry.rating,
          entry.parts,
          drugRefOf(this.refKey, entry.accountId, entry.drug.key),
          this.secrets.sealText(JSON.stringify(drug)),
          JSON.stringify(entry.marks.map(({ id, differs }) => ({ id, differs }))),
          this.secrets.sealText(JSON.stringify(sealed)),
          entry.author.type,
          entry.author.id,
          entry.idempotencyId ?? null,
        ],
      );
      return { feedback: this.feedbackOf(row!), created: true };
    });
  }

  /** The feedback of each of these cases of the account, oldest first, in one query. */
  async ofCases(accountId: string, caseIds: string[]): Promise<Map<string, PriorAuthorizationFeedback[]>> {
    const byCase = new Map<string, PriorAuthorizationFeedback[]>();
    if (caseIds.length === 0) return byCase;
    const rows = await this.db.query<FeedbackRow>(
      `SELECT ${FEEDBACK_COLUMNS} FROM case_feedback
       WHERE account_id = $1 AND case_id = ANY($2::text[]) ORDER BY created_at, id`,
      [accountId, caseIds],
    );
    for (const row of rows) {
      byCase.set(row.case_id, [...(byCase.get(row.case_id) ?? []), this.feedbackOf(row)]);
    }
    return byCase;
  }

  /**
   * The account's feedback in one mode, given in [from, to), by drug and by criterion: one query
   * counts over the open columns, grouped by the drug's keyed hash, and takes one sealed drug per
   * group (for a criterion, one of the feedback that named it), which the process opens to name the
   * drug and the question.
   */
  async report(
    scope: { accountId: string; livemode: boolean },
    from: Date,
    to: Date,
  ): Promise<FeedbackReport> {
    // Ratings and parts are parameters after the four of the scope and period, numbered in their lists' order.
    const ratingCounts = FEEDBACK_RATINGS.map(
      (_rating, index) => `count(DISTINCT f.id) FILTER (WHERE f.rating = $${5 + index}) AS rating_${index}`,
    );
    const partCounts = FEEDBACK_PARTS.map(
      (_part, index) =>
        `count(DISTINCT f.id) FILTER (WHERE $${5 + FEEDBACK_RATINGS.length + index} = ANY(f.parts)) AS part_${index}`,
    );
    const rows = await this.db.query<ReportRow>(
      `SELECT f.drug_ref, max(f.drug_sealed) AS drug_sealed, c.id AS criterion_id,
              GROUPING(c.id) = 1 AS drug_total,
              count(DISTINCT f.id)::int AS feedback_count,
              ${[...ratingCounts, ...partCounts].join(',\n              ')},
              count(c.id)::int AS named,
              count(c.id) FILTER (WHERE c.differs)::int AS expected_other_answer
       FROM case_feedback f
       LEFT JOIN LATERAL jsonb_to_recordset(f.criteria_marks) AS c (id text, differs boolean) ON true
       WHERE f.account_id = $1 AND f.livemode = $2 AND f.created_at >= $3 AND f.created_at < $4
       GROUP BY GROUPING SETS ((f.drug_ref), (f.drug_ref, c.id))
       HAVING GROUPING(c.id) = 1 OR c.id IS NOT NULL
       ORDER BY f.drug_ref, GROUPING(c.id) DESC, c.id`,
      [
        scope.accountId,
        scope.livemode,
        from.toISOString(),
        to.toISOString(),
        ...FEEDBACK_RATINGS,
        ...FEEDBACK_PARTS,
      ],
    );
    const drugs: FeedbackReportDrug[] = [];
    for (const row of rows) {
      const sealed = JSON.parse(this.secrets.openText(row.drug_sealed)) as SealedDrug;
      if (row.drug_total) {
        drugs.push({
          drug: feedbackDrugOf({ drug_name: sealed.name ?? undefined, ndc: sealed.ndc ?? undefined }),
          feedback_count: row.feedback_count,
          ratings: countsOf(FEEDBACK_RATINGS, (index) => row[`rating_${index}`]),
          parts: countsOf(FEEDBACK_PARTS, (index) => row[`part_${index}`]),
          criteria: [],
        });
      } else {
        drugs[drugs.length - 1]!.criteria.push({
          id: row.criterion_id!,
          question: sealed.questions[row.criterion_id!] ?? '',
          named: row.named,
          expected_other_answer: row.expected_other_answer,
        });
      }
    }
    drugs.sort((a, b) => b.feedback_count - a.feedback_count || a.drug.key.localeCompare(b.drug.key));
    return {
      object: 'prior_authorization_feedback_report',
      from: from.toISOString(),
      to: to.toISOString(),
      livemode: scope.livemode,
      feedback_count: drugs.reduce((sum, drug) => sum + drug.feedback_count, 0),
      drugs,
    };
  }

  private feedbackOf(row: FeedbackRow): PriorAuthorizationFeedback {
    const sealed = JSON.parse(this.secrets.openText(row.feedback_sealed)) as SealedFeedback;
    return {
      id: row.id,
      object: 'prior_authorization_feedback',
      rating: row.rating,
      parts: row.parts,
      comment: sealed.comment,
      criteria: sealed.criteria,
      author: { type: row.author_type, id: row.author_id },
      created_at: row.created_at,
    };
  }
}

/**
 * The drug's group in the report: a keyed hash, as the patient reference is (`patientRefOf`), so the
 * same drug of one account groups together while the column names no drug to anyone reading it.
 */
export function drugRefOf(key: Buffer, accountId: string, drugKey: string): string {
  return keyedReference(key, `${accountId}:${drugKey}`);
}

type ReportRow = {
  drug_ref: string;
  drug_sealed: string;
  criterion_id: string | null;
  drug_total: boolean;
  feedback_count: number;
  named: number;
  expected_other_answer: number;
} & Record<`rating_${number}` | `part_${number}`, number | string>;

/** Counts by name, from the columns the query numbered in the order of `names` (bigint arrives as text). */
function countsOf<Name extends string>(
  names: readonly Name[],
  column: (index: number) => number | string,
): Record<Name, number> {
  return Object.fromEntries(names.map((name, index) => [name, Number(column(index))])) as Record<
    Name,
    number
  >;
}

/** Removes a case's feedback, in the transaction that purges or erases the case. */
export async function deleteFeedbackOfCase(tx: QueryRunner, caseId: string): Promise<void> {
  await tx.query('DELETE FROM case_feedback WHERE case_id = $1', [caseId]);
}
