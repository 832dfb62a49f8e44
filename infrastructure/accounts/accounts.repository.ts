import { Role } from '../../domain/accounts/roles';
import { newId } from '../../domain/ids';
import { Database } from '../storage/database';
import { apiKeyHint, digestApiKey, digestsMatch, generateApiKeySecret, KeyMode } from './api-key-secret';

/** docs/decisions.md#accounts: a suspended account's keys and console sessions are refused; its cases run on. */
export type AccountStatus = 'active' | 'suspended';

export interface Account {
  id: string;
  name: string;
  status: AccountStatus;
  suspended_at: string | null;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  account_id: string;
  label: string;
  key_hint: string;
  roles: Role[];
  /** The key's mode: true for live, false for test (every key issued before modes). */
  livemode: boolean;
  created_at: string;
  revoked_at: string | null;
  /** When the key last authenticated a request, to the minute (see `recordKeyUse`). */
  last_used_at: string | null;
}

/** What a request acts as: an API key, or a console user through their session cookie. */
export interface Credential {
  type: 'api_key' | 'user';
  id: string;
}

export interface Principal {
  accountId: string;
  roles: Role[];
  credential: Credential;
  /** The mode the caller acts in: its key's, or the mode a console user chose. */
  livemode: boolean;
}

/** An unrevoked key found by its secret, with what authentication decides on besides the key. */
export interface KeyLookup {
  principal: Principal;
  accountStatus: AccountStatus;
  lastUsedAt: string | null;
}

const ACCOUNT_COLUMNS = 'id, name, status, suspended_at, created_at';
const API_KEY_COLUMNS =
  'id, account_id, label, key_hint, roles, livemode, created_at, revoked_at, last_used_at';

/** A key's last use is recorded to the minute: a busy key costs one write a minute, not one per request. */
export const KEY_USE_RECORD_INTERVAL_MS = 60_000;

/** Accounts and their API keys. The raw key leaves this class once, as the result of `createApiKey`. */
export class AccountsRepository {
  constructor(private readonly db: Database) {}

  async createAccount(name: string): Promise<Account> {
    const [account] = await this.db.query<Account>(
      `INSERT INTO accounts (id, name) VALUES ($1, $2) RETURNING ${ACCOUNT_COLUMNS}`,
      [newId('account'), name],
    );
    return account!;
  }

  async findAccount(accountId: string): Promise<Account | undefined> {
    const [account] = await this.db.query<Account>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [
      accountId,
    ]);
    return account;
  }

  async listAccounts(): Promise<Account[]> {
    return this.db.query<Account>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY id`);
  }

  /**
   * Moves an account to `status`; returns it, or undefined when it does not exist or already has
   * that status (so a repeated suspension keeps the time of the first).
   */
  async setAccountStatus(accountId: string, status: AccountStatus): Promise<Account | undefined> {
    const [account] = await this.db.query<Account>(
      `UPDATE accounts
       SET status = $2, suspended_at = CASE WHEN $2 = 'suspended' THEN now() ELSE NULL END
       WHERE id = $1 AND status <> $2
       RETURNING ${ACCOUNT_COLUMNS}`,
      [accountId, status],
    );
    return account;
  }

  /**
   * Creates a key in one mode (test unless said otherwise); `secret` pins its value (the development
   * key), else a random one with the mode's prefix is generated.
   */
  async createApiKey(input: {
    accountId: string;
    roles: Role[];
    label: string;
    mode?: KeyMode;
    secret?: string;
  }): Promise<{ key: ApiKeyRecord; secret: string }> {
    const mode = input.mode ?? 'test';
    const secret = input.secret ?? generateApiKeySecret(mode);
    const [key] = await this.db.query<ApiKeyRecord>(
      `INSERT INTO api_keys (id, account_id, key_digest, key_hint, label, roles, livemode)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${API_KEY_COLUMNS}`,
      [
        newId('apiKey'),
        input.accountId,
        digestApiKey(secret),
        apiKeyHint(secret),
        input.label,
        input.roles,
        mode === 'live',
      ],
    );
    return { key: key!, secret };
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.db.query<ApiKeyRecord>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY id`,
      [accountId],
    );
  }

  /** Returns the revoked key, or undefined when no such active key exists (in that account, if given). */
  async revokeApiKey(keyId: string, accountId?: string): Promise<ApiKeyRecord | undefined> {
    const [key] = await this.db.query<ApiKeyRecord>(
      `UPDATE api_keys SET revoked_at = now()
       WHERE id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR account_id = $2)
       RETURNING ${API_KEY_COLUMNS}`,
      [keyId, accountId ?? null],
    );
    return key;
  }

  /** The unrevoked key with this secret, whatever its account's status: the caller decides on that. */
  async findActiveKeyBySecret(secret: string): Promise<KeyLookup | undefined> {
    const digest = digestApiKey(secret);
    const [row] = await this.db.query<{
      id: string;
      account_id: string;
      key_digest: string;
      roles: Role[];
      livemode: boolean;
      last_used_at: string | null;
      account_status: AccountStatus;
    }>(
      `SELECT k.id, k.account_id, k.key_digest, k.roles, k.livemode, k.last_used_at, a.status AS account_status
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_digest = $1 AND k.revoked_at IS NULL`,
      [digest],
    );
    // The index lookup already matched; the constant-time comparison keeps the final check free of
    // early-exit timing whatever the engine's comparison does.
    if (!row || !digestsMatch(row.key_digest, digest)) return undefined;
    return {
      principal: {
        accountId: row.account_id,
        roles: row.roles,
        credential: { type: 'api_key', id: row.id },
        livemode: row.livemode,
      },
      accountStatus: row.account_status,
      lastUsedAt: row.last_used_at,
    };
  }

  /**
   * Notes that the key authenticated a request now, unless a use within the last minute is already
   * recorded (by this process or another).
   */
  async recordKeyUse(keyId: string): Promise<void> {
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - $2::integer * interval '1 millisecond')`,
      [keyId, KEY_USE_RECORD_INTERVAL_MS],
    );
  }

  async findKeyIdBySecret(secret: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>('SELECT id FROM api_keys WHERE key_digest = $1', [
      digestApiKey(secret),
    ]);
    return row?.id;
  }
}
