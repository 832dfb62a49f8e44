/**
 * The Temporal server's memory budget, the same for the dev server, the scale shape's launcher and
 * docker-compose.yml (docs/operations.md, "Budgets (RSS)"; the soak in docs/performance.md measured
 * them).
 *
 * - `historyCacheEntries`: the history service keeps the mutable state of every workflow it touched in
 *   one host-level cache for an hour (Temporal's `history.cacheTTL`), up to 128,000 workflows by
 *   default (8,096 on the dev server). At 120 cases a minute that is every case of the last hour, and
 *   the soak saw the server grow about 4.5 MB a minute without a plateau. A cached workflow held about
 *   35 KB there. Limiting the cache by Temporal's byte estimate (`history.cacheSizeBasedLimit`) did not
 *   bound it: the estimate is the serialized size, several times smaller than what the server holds.
 *   Bounded by count, it keeps the workflows in use (a case is active for seconds to minutes) and
 *   reloads an idle one from the database when a decision or a timer wakes it.
 * - `goMemoryLimit`: Go's soft memory limit (GOMEMLIMIT). Below it the collector runs as usual; near
 *   it, it collects sooner instead of letting the heap double, so the process stays near its budget.
 */
export const TEMPORAL_MEMORY = {
  historyCacheEntries: 2_048,
  goMemoryLimit: '320MiB',
} as const;
