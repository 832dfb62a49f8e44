import { Database } from '../../infrastructure/storage/database';
import type { Principal } from '../auth/accounts.repository';
import { ApiError } from '../common/errors';

const REPLAY_WINDOW_HOURS = 24;

/**
 * Idempotency-Key bookkeeping (contract section 7). The case id is bound to the key the first time
 * it is seen, so a retry, even after a crash half-way, refers to the same case. Keys are scoped to
 * an account and a mode: the same key sent in test and in live mode names two requests.
 */
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  async claim(input: {
    accountId: string;
    livemode: boolean;
    key: string;
    endpoint: string;
    requestSha256: string;
    candidateId: string;
  }): Promise<{ resourceId: string; replayed: boolean }> {
    return this.db.transaction(async (tx) => {
      // A key older than the replay window is free again.
      await tx.query(
        `DELETE FROM idempotency_keys WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3
           AND created_at < now() - make_interval(hours => $4)`,
        [input.accountId, input.livemode, input.key, REPLAY_WINDOW_HOURS],
      );
      const inserted = await tx.query(
        `INSERT INTO idempotency_keys (account_id, livemode, idempotency_key, endpoint, request_sha256, resource_id)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING resource_id`,
        [input.accountId, input.livemode, input.key, input.endpoint, input.requestSha256, input.candidateId],
      );
      if (inserted.length > 0) return { resourceId: input.candidateId, replayed: false };
      const [existing] = await tx.query<{ endpoint: string; request_sha256: string; resource_id: string }>(
        `SELECT endpoint, request_sha256, resource_id FROM idempotency_keys
         WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3`,
        [input.accountId, input.livemode, input.key],
      );
      if (existing!.endpoint !== input.endpoint || existing!.request_sha256 !== input.requestSha256) {
        throw new ApiError(
          'idempotency_conflict',
          'This Idempotency-Key was already used with a different request; use a new key for a new request.',
        );
      }
      return { resourceId: existing!.resource_id, replayed: true };
    });
  }

  /** Frees a key whose request was refused before it changed anything, so the key may serve another body. */
  async release(principal: Principal, key: string, resourceId: string): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys
       WHERE account_id = $1 AND livemode = $2 AND idempotency_key = $3 AND resource_id = $4`,
      [principal.accountId, principal.livemode, key, resourceId],
    );
  }
}
