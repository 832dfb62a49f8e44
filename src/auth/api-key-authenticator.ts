import { AccountsRepository, Principal } from './accounts.repository';
import { digestApiKey } from './api-key-secret';

/** Entries kept before the cache starts over, so a flood of distinct valid keys cannot grow memory. */
const MAX_CACHED_KEYS = 10_000;

/**
 * Finds the principal of a presented key, reusing a lookup for `ttlMs` so a busy key costs one
 * query per interval instead of one per request. Revocation through this process evicts at once;
 * a revocation made by another process takes effect here within `ttlMs`.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { principal: Principal; expiresAt: number }>();
  /** Counts revocations, so a lookup that began before one does not cache what it read. */
  private revocations = 0;

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly ttlMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** `beforeLookup` runs only when the database must be asked, and may refuse by throwing. */
  async principalFor(
    secret: string,
    beforeLookup: () => void = () => undefined,
  ): Promise<Principal | undefined> {
    // The digest, not the key, indexes the cache: no raw key stays in memory past its request.
    const digest = digestApiKey(secret);
    const cached = this.cache.get(digest);
    if (cached && cached.expiresAt > this.now()) return cached.principal;
    this.cache.delete(digest);

    beforeLookup();
    const revocationsBefore = this.revocations;
    const principal = await this.accounts.findActiveKeyBySecret(secret);
    // Unknown keys are not remembered: a key created a moment later must work at once.
    if (principal && this.ttlMs > 0 && this.revocations === revocationsBefore) {
      if (this.cache.size >= MAX_CACHED_KEYS) this.cache.clear();
      this.cache.set(digest, { principal, expiresAt: this.now() + this.ttlMs });
    }
    return principal;
  }

  /** Called on revocation, so the revoking process refuses the key from the next request on. */
  forget(apiKeyId: string): void {
    this.revocations += 1;
    for (const [digest, entry] of this.cache) {
      if (entry.principal.credential.id === apiKeyId) this.cache.delete(digest);
    }
  }
}
