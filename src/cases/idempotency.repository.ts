import { Database } from '../../infrastructure/storage/database';
import { ApiError } from '../common/errors';

const REPLAY_WINDOW_HOURS = 24;

/**
 * Idempotency-Key bookkeeping (contract section 7). The case id is bound to the key the first time
 * it is seen, so a retry, even after a crash half-way, refers to the same case.
 */
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  async claim(input: {
    accountId: string;
    key: string;
    endpoint: string;
    requestSha256: string;
    candidateId: string;
  }): Promise<{ resourceId: string; replayed: boolean }> {
    return this.db.transaction(async (tx) => {
      // A key older than the replay window is free again.
      await tx.query(
        `DELETE FROM idempotency_keys WHERE account_id = $1 AND idempotency_key = $2
           AND created_at < now() - make_interval(hours => $3)`,
        [input.accountId, input.key, REPLAY_WINDOW_HOURS],
      );
      const inserted = await tx.query(
        `INSERT INTO idempotency_keys (account_id, idempotency_key, endpoint, request_sha256, resource_id)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING resource_id`,
        [input.accountId, input.key, input.endpoint, input.requestSha256, input.candidateId],
      );
      if (inserted.length > 0) return { resourceId: input.candidateId, replayed: false };
      const [existing] = await tx.query<{ endpoint: string; request_sha256: string; resource_id: string }>(
        `SELECT endpoint, request_sha256, resource_id FROM idempotency_keys
         WHERE account_id = $1 AND idempotency_key = $2`,
        [input.accountId, input.key],
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
  async release(accountId: string, key: string, resourceId: string): Promise<void> {
    await this.db.query(
      'DELETE FROM idempotency_keys WHERE account_id = $1 AND idempotency_key = $2 AND resource_id = $3',
      [accountId, key, resourceId],
    );
  }
}
