import { newId } from '../../domain/ids';
import { Database } from '../../infrastructure/storage/database';
import { apiKeyHint, digestApiKey, digestsMatch, generateApiKeySecret } from './api-key-secret';
import { Role } from './roles';

export interface Account {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  account_id: string;
  label: string;
  key_hint: string;
  roles: Role[];
  created_at: string;
  revoked_at: string | null;
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
}

const API_KEY_COLUMNS = 'id, account_id, label, key_hint, roles, created_at, revoked_at';

/** Accounts and their API keys. The raw key leaves this class once, as the result of `createApiKey`. */
export class AccountsRepository {
  constructor(private readonly db: Database) {}

  async createAccount(name: string): Promise<Account> {
    const [account] = await this.db.query<Account>(
      'INSERT INTO accounts (id, name) VALUES ($1, $2) RETURNING id, name, created_at',
      [newId('account'), name],
    );
    return account!;
  }

  async findAccount(accountId: string): Promise<Account | undefined> {
    const [account] = await this.db.query<Account>(
      'SELECT id, name, created_at FROM accounts WHERE id = $1',
      [accountId],
    );
    return account;
  }

  async listAccounts(): Promise<Account[]> {
    return this.db.query<Account>('SELECT id, name, created_at FROM accounts ORDER BY id');
  }

  /** Creates a key; `secret` pins its value (the development key), else a random one is generated. */
  async createApiKey(input: {
    accountId: string;
    roles: Role[];
    label: string;
    secret?: string;
  }): Promise<{ key: ApiKeyRecord; secret: string }> {
    const secret = input.secret ?? generateApiKeySecret();
    const [key] = await this.db.query<ApiKeyRecord>(
      `INSERT INTO api_keys (id, account_id, key_digest, key_hint, label, roles)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${API_KEY_COLUMNS}`,
      [newId('apiKey'), input.accountId, digestApiKey(secret), apiKeyHint(secret), input.label, input.roles],
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

  async findActiveKeyBySecret(secret: string): Promise<Principal | undefined> {
    const digest = digestApiKey(secret);
    const [row] = await this.db.query<{ id: string; account_id: string; key_digest: string; roles: Role[] }>(
      'SELECT id, account_id, key_digest, roles FROM api_keys WHERE key_digest = $1 AND revoked_at IS NULL',
      [digest],
    );
    // The index lookup already matched; the constant-time comparison keeps the final check free of
    // early-exit timing whatever the engine's comparison does.
    if (!row || !digestsMatch(row.key_digest, digest)) return undefined;
    return { accountId: row.account_id, roles: row.roles, credential: { type: 'api_key', id: row.id } };
  }

  async findKeyIdBySecret(secret: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>('SELECT id FROM api_keys WHERE key_digest = $1', [
      digestApiKey(secret),
    ]);
    return row?.id;
  }
}
