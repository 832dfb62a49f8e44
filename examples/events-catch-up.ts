/** An event as GET /events shows it: the notification, with its mode. */
export interface ListedEvent {
  id: string;
  object: 'event';
  type: string;
  title: string;
  description: string;
  created_at: string;
  livemode: boolean;
  data: Record<string, unknown>;
}

/** What a receiver keeps between runs, in its database in production. */
export interface CatchUpState {
  /** The created_at of the newest event processed (at most 30 days ago: older events are gone). */
  since: string;
  /** Event ids already processed: the same set the webhook receiver dedupes with. */
  seen: Set<string>;
}

/**
 * How far before `since` each catch-up looks again. An event's `created_at` is when its case changed,
 * and its row is written a moment later by an activity that retries while the database is down, so
 * an event may appear after newer ones were already listed; an hour covers those retries.
 */
export const CATCH_UP_OVERLAP_MS = 60 * 60 * 1000;

export interface CatchUpOptions {
  /** The API's base URL, e.g. https://access.example. */
  apiUrl: string;
  /** A provider key of the mode whose events you receive. */
  apiKey: string;
  state: CatchUpState;
  onEvent: (event: ListedEvent) => Promise<void>;
  pageSize?: number;
}

/**
 * Processes every event since `state.since` (less the overlap) that was not processed yet, oldest
 * first, as the webhooks would have delivered them. Pages are newest first, so all pages are read
 * before any event is processed; events already processed come back and are skipped as seen.
 * Returns how many events it processed.
 */
export async function catchUp(options: CatchUpOptions): Promise<number> {
  const { apiUrl, apiKey, state, onEvent, pageSize = 100 } = options;
  const missed: ListedEvent[] = [];
  let cursor: string | undefined;
  do {
    const createdAfter = new Date(Date.parse(state.since) - CATCH_UP_OVERLAP_MS).toISOString();
    const query = new URLSearchParams({ created_after: createdAfter, limit: String(pageSize) });
    if (cursor) query.set('cursor', cursor);
    const response = await fetch(`${apiUrl}/events?${query.toString()}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    if (!response.ok) throw new Error(`GET /events answered ${response.status}`);
    const page = (
      (await response.json()) as {
        data: { data: ListedEvent[]; has_more: boolean; next_cursor: string | null };
      }
    ).data;
    missed.push(...page.data);
    cursor = page.has_more ? (page.next_cursor ?? undefined) : undefined;
  } while (cursor);

  let processed = 0;
  for (const event of missed.reverse()) {
    if (state.seen.has(event.id)) continue;
    await onEvent(event);
    state.seen.add(event.id);
    if (event.created_at > state.since) state.since = event.created_at;
    processed += 1;
  }
  return processed;
}
