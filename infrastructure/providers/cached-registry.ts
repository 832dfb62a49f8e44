import type { NpiRegistry, RegistryProvider } from '../../domain/providers/npi-registry';

/** Enough for every prescriber an installation names in a day, at about a kilobyte each. */
export const MAX_CACHED_REGISTRY_ANSWERS = 10_000;

export interface CachedRegistryOptions {
  /** How long an answer is reused (`config.providers.registryCacheMs`, a day). */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  storedAt: number;
  answer: Promise<unknown>;
  settled: boolean;
}

/**
 * A registry in front of another that reuses its answers for a while (docs/providers.md): the
 * registry's records change weekly at most, and every case and authorization of a prescriber asks
 * about the same NPI. "Not returned" is an answer and is reused too. A failure is never kept, so the
 * next question asks again; questions asked while the same one is on its way wait for its answer
 * rather than asking twice. At most `maxEntries` answers are kept, the oldest dropped first.
 */
export class CachedRegistry implements NpiRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly registry: NpiRegistry,
    private readonly options: CachedRegistryOptions,
  ) {
    this.maxEntries = options.maxEntries ?? MAX_CACHED_REGISTRY_ANSWERS;
    this.now = options.now ?? Date.now;
  }

  byNpi(npi: string): Promise<RegistryProvider | undefined> {
    return this.remembered(`npi ${npi}`, () => this.registry.byNpi(npi));
  }

  byName(lastName: string, state: string, limit?: number): Promise<RegistryProvider[]> {
    // The registry compares names and states in any case, so one answer serves every spelling.
    const key = `name ${lastName.toUpperCase()} ${state.toUpperCase()} ${limit ?? ''}`;
    return this.remembered(key, () => this.registry.byName(lastName, state, limit));
  }

  private remembered<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && (!entry.settled || this.now() - entry.storedAt < this.options.ttlMs)) {
      return entry.answer as Promise<T>;
    }
    this.entries.delete(key);
    const fresh: Entry = { storedAt: this.now(), answer: ask(), settled: false };
    this.entries.set(key, fresh);
    this.dropOldest();
    fresh.answer.then(
      () => {
        fresh.settled = true;
        fresh.storedAt = this.now();
      },
      () => {
        if (this.entries.get(key) === fresh) this.entries.delete(key);
      },
    );
    return fresh.answer as Promise<T>;
  }

  private dropOldest(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) return;
      this.entries.delete(key);
    }
  }
}
