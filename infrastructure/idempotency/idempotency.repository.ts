import type { SecretBox } from '../crypto/aes-gcm';
import type { Database, QueryRunner } from '../storage/database';
import type { Principal } from '../accounts/accounts.repository';

export const REPLAY_WINDOW_HOURS = 24;
/** Expired keys of accounts that send no more requests go in a pass at most this often, per process. */
const EXPIRY_SWEEP_INTERVAL_MS = 10 * 60_000;

/** The key was first sent with another route or body; the edge answers 409 with `code`. */
export class IdempotencyConflictError extends Error {
  readonly code = 'idempotency_conflict';

  constructor() {
    super('The Idempotency-Key was first used with another request');
    this.name = 'IdempotencyConflictError';
  }
}

/** One request under an Idempotency-Key: whose, which key, which route and which body. */
export interface IdempotentRequest {
  accountId: string;
  livemode: boolean;
  key: string;
  /** Method and route pattern, e.g. `POST /prior-authorizations/:id/review`, plus the path's ids. */
  endpoint: string;
  requestSha256: string;
  /** The id bound to the key if this request is its first: a retry acts on the same one. */
  candidateId: string;
}

/** What the first request under a key left, as a retry finds it. */
export type Claim =
  /** This request is the key's first: it acts, under `boundId`. */
  | { kind: 'first'; boundId: string }
  /** The first request answered: this answer is replayed. */
  | { kind: 'answered'; status: number; body: unknown }
  /** The first request is still being processed. */
  | { kind: 'in_flight'; retryAfterSeconds: number }
  /** The first request ended without an answer (a failure past our checks, or a crash): its outcome is unknown. */
  | { kind: 'interrupted'; boundId: string };

/**
 * Idempotency-Key bookkeeping (contract section 7). An id is bound to the key the first time it is
 * seen, so a retry, even after a crash half-way, refers to the same case or the same decision.
 * Keys are scoped to an account and a mode: the same key sent in test and in live mode names two
 * requests. Answers are sealed, since they may carry PHI or a secret, and every key expires after
 * the replay window.
 */
export class IdempotencyRepository {
  private lastExpirySweep = 0;

  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Case creation's claim: the case id is bound to the key and every retry acts again on it (the
   * workflow id makes a second start impossible), answering with the case as it stands.
   */
  async claim(input: IdempotentRequest): Promise<{ resourceId: string; replayed: boolean }> {
    return this.db.transaction(async (tx) => {
      const existing = await this.insertOrFind(tx, input);
      if (!existing) return { resourceId: input.candidateId, replayed: false };
      return { resourceId: existing.resource_id, replayed: true };
    });
  }

  /**
   * The claim of a request whose answer is stored: the first request is locked for `lockMs` while
   * it acts; a retry replays its answer, waits for it, or finds it interrupted (and then holds the
   * lock itself).
   */
  async begin(input: IdempotentRequest, lockMs: number): Promise<Claim> {
    await this.sweepExpiredIfDue();
    return this.db.transaction(async (tx) => {
      const existing = await this.insertOrFind(tx, input, lockMs);
      if (!existing) return { kind: 'first', boundId: input.candidateId };
      if (existing.answer_sealed !== null) {
        const body = JSON.parse(this.secrets.openText(existing.answer_sealed)) as unknown;
        return { kind: 'answered', status: existing.answer_status!, body };
      }
      if (existing.locked_for_ms !== null && existing.locked_for_ms > 0) {
        return {
          kind: 'in_flight',
          retryAfterSeconds: Math.max(1, Math.ceil(existing.locked_for_ms / 1000)),
        };
      }
      await tx.query(
        `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $4)
         WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3`,
        [input.accountId, input.livemode, input.key, lockMs / 1000],
      );
      return { kind: 'interrupted', boundId: existing.resource_id };
    });
  }

  /** Keeps the answer of the key's request, sealed, and unlocks the key. */
  async answer(principal: Principal, key: string, status: number, body: unknown): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET answer_status = $4, answer_sealed = $5, locked_until = NULL
       WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3`,
      [principal.accountId, principal.livemode, key, status, this.secrets.sealText(JSON.stringify(body))],
    );
  }

  /** A request that failed after our checks may have acted: the key stays bound, and a retry may resume it. */
  async unlock(principal: Principal, key: string): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET locked_until = NULL
       WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3`,
      [principal.accountId, principal.livemode, key],
    );
  }

  /** Frees a key whose request was refused before it changed anything, so the key may serve another body. */
  async release(principal: Principal, key: string, resourceId: string): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys
       WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3 AND resource_id = $4`,
      [principal.accountId, principal.livemode, key, resourceId],
    );
  }

  /** Deletes every key older than the replay window, with the answer it kept; returns how many went. */
  async deleteExpired(): Promise<number> {
    const deleted = await this.db.query(
      `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) RETURNING 1`,
      [REPLAY_WINDOW_HOURS],
    );
    return deleted.length;
  }

  private async sweepExpiredIfDue(): Promise<void> {
    if (Date.now() - this.lastExpirySweep < EXPIRY_SWEEP_INTERVAL_MS) return;
    this.lastExpirySweep = Date.now();
    await this.deleteExpired();
  }

  /** Binds the key to this request, or finds what its first request left; a different request is 409. */
  private async insertOrFind(tx: QueryRunner, input: IdempotentRequest, lockMs?: number) {
    // A key older than the replay window is free again.
    await tx.query(
      `DELETE FROM idempotency_keys WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3
         AND created_at < now() - make_interval(hours => $4)`,
      [input.accountId, input.livemode, input.key, REPLAY_WINDOW_HOURS],
    );
    const inserted = await tx.query(
      `INSERT INTO idempotency_keys
         (account_id, livemode, idempotency_key, endpoint, request_sha256, resource_id, locked_until)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
       ON CONFLICT DO NOTHING RETURNING resource_id`,
      [
        input.accountId,
        input.livemode,
        input.key,
        input.endpoint,
        input.requestSha256,
        input.candidateId,
        lockMs === undefined ? null : lockMs / 1000,
      ],
    );
    if (inserted.length > 0) return undefined;
    const [existing] = await tx.query<{
      endpoint: string;
      request_sha256: string;
      resource_id: string;
      answer_status: number | null;
      answer_sealed: string | null;
      locked_for_ms: number | null;
    }>(
      `SELECT endpoint, request_sha256, resource_id, answer_status, answer_sealed,
              (EXTRACT(EPOCH FROM locked_until - now()) * 1000)::float8 AS locked_for_ms
       FROM idempotency_keys WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3 FOR UPDATE`,
      [input.accountId, input.livemode, input.key],
    );
    if (existing!.endpoint !== input.endpoint || existing!.request_sha256 !== input.requestSha256) {
      throw new IdempotencyConflictError();
    }
    return existing!;
  }
}
