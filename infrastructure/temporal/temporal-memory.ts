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
 *   reloads an idle one from the database when a decision or a timer wakes it. Issue 42 holds each
 *   process within +10 % of its RSS after a soak's warm-up: at 2,048 the cache took 15 minutes of the
 *   soak to fill, and the dev server grew +16.5 % after its 5-minute warm-up, then held. At 1,024 it
 *   was full by minute 6 and the dev server grew +8.5 % after minute 4, flat from minute 11; about 40
 *   workflows were running at any time, and an evicted one had been loaded 3.3 minutes before on average.
 * - `goMemoryLimit`: Go's soft memory limit (GOMEMLIMIT). Below it the collector runs as usual; near
 *   it, it collects sooner instead of letting the heap double, so the process stays near its budget.
 */
export const TEMPORAL_MEMORY = {
  historyCacheEntries: 1_024,
  goMemoryLimit: '320MiB',
} as const;
