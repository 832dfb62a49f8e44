import { createHash, randomBytes } from 'node:crypto';

import type { Database } from '../storage/database';

/** What a link lets its holder do: sign a pending authorization, or revoke a signed one. */
export type LinkPurpose = 'sign' | 'revoke';

/** 256 random bits, base64url: 43 characters. */
const TOKEN_BYTES = 32;
export const LINK_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The links mailed to prescribers. A token is a bearer secret: it is returned once, to be put in the
 * mail, and only its SHA-256 is kept, so the table cannot be turned back into working links.
 */
export class SigningLinksRepository {
  constructor(private readonly db: Database) {}

  async issue(authorizationId: string, purpose: LinkPurpose, expiresAt: string): Promise<string> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    await this.db.query(
      `INSERT INTO provider_authorization_links (token_sha256, authorization_id, purpose, expires_at)
       VALUES ($1, $2, $3, $4)`,
      [tokenDigest(token), authorizationId, purpose, expiresAt],
    );
    return token;
  }

  /**
   * The authorization an unused, unexpired link of this purpose opens, or undefined for any other
   * token (unknown, tampered, used, lapsed or of the other purpose): callers answer all of these alike.
   */
  async open(token: string, purpose: LinkPurpose, now = new Date()): Promise<string | undefined> {
    if (!LINK_TOKEN_SHAPE.test(token)) return undefined;
    const [row] = await this.db.query<{ authorization_id: string }>(
      `SELECT authorization_id FROM provider_authorization_links
       WHERE token_sha256 = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3`,
      [tokenDigest(token), purpose, now.toISOString()],
    );
    return row?.authorization_id;
  }

  /**
   * Deletes up to `limit` links used, or lapsed, before `cutoff`: they open nothing any more, and
   * every mail (and each retry of one) adds a row. Answers how many went; concurrent sweepers skip
   * each other's rows.
   */
  async deleteSpent(cutoff: Date, limit: number): Promise<number> {
    const deleted = await this.db.query<{ token_sha256: string }>(
      `DELETE FROM provider_authorization_links WHERE token_sha256 IN (
         SELECT token_sha256 FROM provider_authorization_links
         WHERE used_at < $1 OR expires_at < $1
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING token_sha256`,
      [cutoff.toISOString(), limit],
    );
    return deleted.length;
  }

  /** Marks the link used; false when it already was (a second submit of the same form). */
  async use(token: string, now = new Date()): Promise<boolean> {
    const rows = await this.db.query<{ token_sha256: string }>(
      `UPDATE provider_authorization_links SET used_at = $2
       WHERE token_sha256 = $1 AND used_at IS NULL RETURNING token_sha256`,
      [tokenDigest(token), now.toISOString()],
    );
    return rows.length > 0;
  }
}
