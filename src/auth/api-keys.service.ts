import type { Role } from '../../domain/accounts/roles';
import type { AccountsRepository, ApiKeyRecord } from '../../infrastructure/accounts/accounts.repository';
import type { KeyMode } from '../../infrastructure/accounts/api-key-secret';
import type { ApiKeyAuthenticator } from './api-key-authenticator';

/** An account's own API keys, as the API and the console's keys page manage them. */
export class ApiKeysService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  list(accountId: string): Promise<ApiKeyRecord[]> {
    return this.accounts.listApiKeys(accountId);
  }

  async find(accountId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
    return (await this.list(accountId)).find((key) => key.id === keyId);
  }

  /** The key and its secret, which is never available again. */
  create(
    accountId: string,
    key: { label: string; roles: Role[]; mode?: KeyMode },
  ): Promise<{ key: ApiKeyRecord; secret: string }> {
    return this.accounts.createApiKey({ accountId, ...key });
  }

  /**
   * Returns the revoked key, or undefined when the account has no such active key. The authenticator
   * forgets it at once, so no cached lookup lets it in again.
   */
  async revoke(accountId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
    const key = await this.accounts.revokeApiKey(keyId, accountId);
    if (key) this.authenticator.forget(key.id);
    return key;
  }
}
