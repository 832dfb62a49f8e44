import { createHash, randomBytes } from 'node:crypto';

import type { Role } from '../../domain/accounts/roles';
import { newId } from '../../domain/ids';
import type { Database } from '../storage/database';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSION_TOUCH_INTERVAL_MS } from './session-policy';

export type SessionStage = 'password_verified' | 'signed_in';

/** A live session with what every console request needs to know about its person and account. */
export interface ConsoleSession {
  id: string;
  stage: SessionStage;
  csrfToken: string;
  userId: string;
  accountId: string;
  accountName: string;
  accountStatus: 'active' | 'suspended';
  displayName: string;
  roles: Role[];
  totpEnabled: boolean;
  lastSeenAt: Date;
}

interface SessionRow {
  id: string;
  stage: SessionStage;
  csrf_token: string;
  user_id: string;
  account_id: string;
  account_name: string;
  account_status: 'active' | 'suspended';
  display_name: string;
  roles: Role[];
  totp_enabled_at: string | null;
  last_seen_at: string;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Session tokens are 256 random bits; the database holds only their digests. */
export class ConsoleSessionsRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async start(user: { id: string; account_id: string }, stage: SessionStage): Promise<{ token: string }> {
    const token = randomBytes(32).toString('base64url');
    await this.db.query(
      `INSERT INTO console_sessions (id, token_digest, user_id, account_id, stage, csrf_token, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        newId('consoleSession'),
        digest(token),
        user.id,
        user.account_id,
        stage,
        randomBytes(32).toString('base64url'),
        new Date(this.now() + SESSION_ABSOLUTE_MS),
      ],
    );
    return { token };
  }

  /**
   * The session a cookie names, if it has not ended, passed its absolute lifetime or sat idle too
   * long, and its user is not disabled. Its account may be suspended: the caller refuses that with
   * a message that says so.
   */
  async find(token: string): Promise<ConsoleSession | undefined> {
    const [row] = await this.db.query<SessionRow>(
      `SELECT s.id, s.stage, s.csrf_token, s.user_id, s.account_id, a.name AS account_name,
              a.status AS account_status, u.display_name, u.roles, u.totp_enabled_at, s.last_seen_at
       FROM console_sessions s
       JOIN console_users u ON u.id = s.user_id
       JOIN accounts a ON a.id = s.account_id
       WHERE s.token_digest = $1 AND s.ended_at IS NULL AND s.expires_at > $2
         AND s.last_seen_at > $3 AND u.disabled_at IS NULL`,
      [digest(token), new Date(this.now()), new Date(this.now() - SESSION_IDLE_MS)],
    );
    if (!row) return undefined;
    return {
      id: row.id,
      stage: row.stage,
      csrfToken: row.csrf_token,
      userId: row.user_id,
      accountId: row.account_id,
      accountName: row.account_name,
      accountStatus: row.account_status,
      displayName: row.display_name,
      roles: row.roles,
      totpEnabled: row.totp_enabled_at !== null,
      lastSeenAt: new Date(row.last_seen_at),
    };
  }

  /** Keeps an active session alive, writing at most once a minute. */
  async touch(session: ConsoleSession): Promise<void> {
    if (this.now() - session.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return;
    await this.db.query('UPDATE console_sessions SET last_seen_at = $2 WHERE id = $1', [
      session.id,
      new Date(this.now()),
    ]);
  }

  /** The second factor was checked: the same session, now allowed everything its roles grant. */
  async completeSignIn(sessionId: string): Promise<void> {
    await this.db.query(
      `UPDATE console_sessions SET stage = 'signed_in', last_seen_at = $2, pending_totp_secret_sealed = NULL
       WHERE id = $1`,
      [sessionId, new Date(this.now())],
    );
  }

  /**
   * Keeps a sealed TOTP secret offered at set-up, unless the session already holds one: a reloaded
   * page or a second tab shows the same secret, so the code from either app confirms it.
   * Returns the secret the session holds.
   */
  async offerTotpSecret(sessionId: string, sealedSecret: string): Promise<string> {
    const [row] = await this.db.query<{ pending_totp_secret_sealed: string }>(
      `UPDATE console_sessions SET pending_totp_secret_sealed = COALESCE(pending_totp_secret_sealed, $2)
       WHERE id = $1 RETURNING pending_totp_secret_sealed`,
      [sessionId, sealedSecret],
    );
    return row!.pending_totp_secret_sealed;
  }

  /** Takes the offered secret out of the session: it confirms once, then is the user's. */
  async takeOfferedTotpSecret(sessionId: string): Promise<void> {
    await this.db.query('UPDATE console_sessions SET pending_totp_secret_sealed = NULL WHERE id = $1', [
      sessionId,
    ]);
  }

  async offeredTotpSecret(sessionId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ pending_totp_secret_sealed: string | null }>(
      'SELECT pending_totp_secret_sealed FROM console_sessions WHERE id = $1',
      [sessionId],
    );
    return row?.pending_totp_secret_sealed ?? undefined;
  }

  async end(sessionId: string): Promise<void> {
    await this.db.query('UPDATE console_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL', [
      sessionId,
      new Date(this.now()),
    ]);
  }
}
