import type { Database } from '../../../infrastructure/storage/database';

/** When each of an account's keys last authenticated a request (null: never), for the keys page. */
export class ApiKeyLastUse {
  constructor(private readonly db: Database) {}

  async ofAccount(accountId: string): Promise<Map<string, string | null>> {
    const rows = await this.db.query<{ id: string; last_used_at: string | null }>(
      'SELECT id, last_used_at FROM api_keys WHERE account_id = $1',
      [accountId],
    );
    return new Map(rows.map((row) => [row.id, row.last_used_at]));
  }
}
