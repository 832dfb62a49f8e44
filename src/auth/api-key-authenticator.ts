import {
  AccountsRepository,
  AccountStatus,
  KEY_USE_RECORD_INTERVAL_MS,
  Principal,
} from '../../infrastructure/accounts/accounts.repository';
import { digestApiKey } from '../../infrastructure/accounts/api-key-secret';
import { ApiError } from '../common/errors';

/** Entries kept before the cache starts over, so a flood of distinct valid keys cannot grow memory. */
const MAX_CACHED_KEYS = 10_000;

interface KnownKey {
  principal: Principal;
  accountStatus: AccountStatus;
  /** Never extended by a hit: what was read may be served for `ttlMs`, and not a moment longer. */
  expiresAt: number;
  nextUseRecordAt: number;
}

/**
 * Finds the principal of a presented key, reusing a lookup for `ttlMs` so a busy key costs one
 * query per interval instead of one per request. Revocation through this process evicts at once;
 * a revocation or an account suspension made by another process takes effect here within `ttlMs`.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, KnownKey>();
  /** Counts revocations, so a lookup that began before one does not cache what it read. */
  private revocations = 0;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly ttlMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * The key's principal, or undefined for a key that does not exist or is revoked; throws the
   * contract's `accountSuspended` error for a key of a suspended account. `beforeLookup` runs only
   * when the database must be asked, and may refuse by throwing.
   */
  async principalFor(
    secret: string,
    beforeLookup: () => void = () => undefined,
  ): Promise<Principal | undefined> {
    // The digest, not the key, indexes the cache: no raw key stays in memory past its request.
    const digest = digestApiKey(secret);
    let known = this.cache.get(digest);
    if (!known || known.expiresAt <= this.now()) {
      this.cache.delete(digest);
      beforeLookup();
      known = await this.lookUp(secret, digest);
      if (!known) return undefined;
    }
    if (known.accountStatus !== 'active') throw ApiError.accountSuspended();
    await this.recordUseWhenDue(known);
    return known.principal;
  }

  /** Called on revocation, so the revoking process refuses the key from the next request on. */
  forget(apiKeyId: string): void {
    this.revocations += 1;
    for (const [digest, entry] of this.cache) {
      if (entry.principal.credential.id === apiKeyId) this.cache.delete(digest);
    }
  }

  private async lookUp(secret: string, digest: string): Promise<KnownKey | undefined> {
    const revocationsBefore = this.revocations;
    const found = await this.accounts.findActiveKeyBySecret(secret);
    // Unknown keys are not remembered: a key created a moment later must work at once.
    if (!found) return undefined;
    const known: KnownKey = {
      principal: found.principal,
      accountStatus: found.accountStatus,
      expiresAt: this.now() + this.ttlMs,
      nextUseRecordAt: found.lastUsedAt ? Date.parse(found.lastUsedAt) + KEY_USE_RECORD_INTERVAL_MS : 0,
    };
    if (this.ttlMs > 0 && this.revocations === revocationsBefore) {
      if (this.cache.size >= MAX_CACHED_KEYS) this.cache.clear();
      this.cache.set(digest, known);
    }
    return known;
  }

  /** Piggy-backs on the cache: a key's use is written at most once a minute, never once per request. */
  private async recordUseWhenDue(known: KnownKey): Promise<void> {
    if (this.now() < known.nextUseRecordAt) return;
    known.nextUseRecordAt = this.now() + KEY_USE_RECORD_INTERVAL_MS;
    // The request is already authenticated: a record of use that cannot be written must not refuse it.
    await this.accounts.recordKeyUse(known.principal.credential.id).catch(() => undefined);
  }
}
