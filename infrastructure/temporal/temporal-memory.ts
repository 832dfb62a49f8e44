/**
 * The Temporal server's memory budget, the same for the dev server, the scale shape's launcher and
 * docker-compose.yml (docs/operations.md, "Budgets (RSS)"; the soak in docs/performance.md measured
 * them).
 *
 * - `historyCacheBytes`: the history service keeps the mutable state of every workflow it touched in
 *   one host-level cache, up to 128,000 entries for an hour by default (Temporal's
 *   `history.hostLevelCacheMaxSize`, `history.cacheTTL`). At 120 cases a minute that is every case of
 *   the last hour, so the server grew about 4.5 MB a minute without a plateau. Limited in bytes
 *   (`history.cacheSizeBasedLimit`), it holds the most recently used workflows up to this size and
 *   reloads the others from the database.
 * - `goMemoryLimit`: Go's soft memory limit (GOMEMLIMIT). Below it the collector runs as usual; near
 *   it, it collects sooner instead of letting the heap double, so the process stays near its budget.
 */
export const TEMPORAL_MEMORY = {
  historyCacheBytes: 64 * 1024 * 1024,
  goMemoryLimit: '320MiB',
} as const;
