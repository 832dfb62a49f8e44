import { createClient, paginate, Schemas } from '../clients/typescript/src';

/** An event as GET /events shows it: the notification, with its mode. */
export type ListedEvent = Schemas['Event'];

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
  const api = createClient({ baseUrl: apiUrl, apiKey });
  const createdAfter = new Date(Date.parse(state.since) - CATCH_UP_OVERLAP_MS).toISOString();
  const missed: ListedEvent[] = [];
  const pages = paginate((cursor) =>
    api.GET('/events', { params: { query: { created_after: createdAfter, limit: pageSize, cursor } } }),
  );
  for await (const event of pages) missed.push(event);

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
