import type { Role } from '../../domain/accounts/roles';
import { newId } from '../../domain/ids';
import type { Database, QueryRunner } from '../storage/database';
import { hashPassword } from './passwords';

export interface ConsoleUser {
  id: string;
  account_id: string;
  email: string;
  display_name: string;
  roles: Role[];
  totp_enabled_at: string | null;
  created_at: string;
  disabled_at: string | null;
}

/** A user with what signing in checks; never leaves the console's people area (src/console/people). */
export interface ConsoleUserCredentials extends ConsoleUser {
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_last_step: string | null;
  account_status: 'active' | 'suspended';
}

const USER_COLUMNS = 'id, account_id, email, display_name, roles, totp_enabled_at, created_at, disabled_at';

/** Console users. Emails are people's work addresses: never logged, matched without regard to case. */
export class ConsoleUsersRepository {
  constructor(private readonly db: Database) {}

  async create(input: {
    accountId: string;
    email: string;
    displayName: string;
    roles: Role[];
    password: string;
  }): Promise<ConsoleUser> {
    const { password, ...person } = input;
    return insertConsoleUser(this.db, { ...person, passwordHash: await hashPassword(password) });
  }

  async findByEmail(email: string): Promise<ConsoleUserCredentials | undefined> {
    const [user] = await this.db.query<ConsoleUserCredentials>(
      `SELECT ${USER_COLUMNS}, password_hash, totp_secret_sealed, totp_last_step,
              (SELECT status FROM accounts WHERE accounts.id = console_users.account_id) AS account_status
       FROM console_users WHERE lower(email) = lower($1)`,
      [email.trim()],
    );
    return user;
  }

  async findCredentials(userId: string): Promise<ConsoleUserCredentials | undefined> {
    const [user] = await this.db.query<ConsoleUserCredentials>(
      `SELECT ${USER_COLUMNS}, password_hash, totp_secret_sealed, totp_last_step,
              (SELECT status FROM accounts WHERE accounts.id = console_users.account_id) AS account_status
       FROM console_users WHERE id = $1`,
      [userId],
    );
    return user;
  }

  /**
   * Turns on the second factor with a secret the person has just proven they hold. Returns false if
   * it was already on: of two set-ups racing, the first one's secret stays.
   */
  async enableTotp(userId: string, sealedSecret: string, acceptedStep: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE console_users SET totp_secret_sealed = $2, totp_enabled_at = now(), totp_last_step = $3
       WHERE id = $1 AND totp_enabled_at IS NULL RETURNING id`,
      [userId, sealedSecret, acceptedStep],
    );
    return rows.length === 1;
  }

  /**
   * Records the time step of an accepted code, only if it is later than the last one: of two
   * sign-ins racing with one code, exactly one records it. Returns whether this one did.
   */
  async acceptTotpStep(userId: string, step: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE console_users SET totp_last_step = $2
       WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [userId, step],
    );
    return rows.length === 1;
  }

  async list(accountId: string): Promise<ConsoleUser[]> {
    return this.db.query<ConsoleUser>(
      `SELECT ${USER_COLUMNS} FROM console_users WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
  }

  /**
   * Replaces the second factor outright, for local mode's development user only: its secret lives in
   * the data folder, and a folder that lost it must get a secret the database agrees with.
   */
  async replaceTotp(userId: string, sealedSecret: string, acceptedStep: number): Promise<void> {
    await this.db.query(
      `UPDATE console_users SET totp_secret_sealed = $2, totp_enabled_at = now(), totp_last_step = $3 WHERE id = $1`,
      [userId, sealedSecret, acceptedStep],
    );
  }

  async setPassword(userId: string, password: string): Promise<void> {
    await this.db.query('UPDATE console_users SET password_hash = $2 WHERE id = $1', [
      userId,
      await hashPassword(password),
    ]);
  }

  /** A disabled user cannot sign in, and their open sessions are refused from the next request on. */
  async disable(userId: string): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE console_users SET disabled_at = now() WHERE id = $1 AND disabled_at IS NULL RETURNING id',
      [userId],
    );
    return rows.length === 1;
  }
}

/** Inserts a user whose password is already hashed, inside the caller's transaction if it has one. */
export async function insertConsoleUser(
  runner: QueryRunner,
  input: { accountId: string; email: string; displayName: string; roles: Role[]; passwordHash: string },
): Promise<ConsoleUser> {
  const [user] = await runner.query<ConsoleUser>(
    `INSERT INTO console_users (id, account_id, email, display_name, roles, password_hash)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${USER_COLUMNS}`,
    [
      newId('consoleUser'),
      input.accountId,
      input.email.trim(),
      input.displayName.trim(),
      input.roles,
      input.passwordHash,
    ],
  );
  return user!;
}
