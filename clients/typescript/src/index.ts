import { randomUUID } from 'node:crypto';

import createFetchClient, { type Client } from 'openapi-fetch';

import type { components, paths } from './api';

export type { components, paths, webhooks } from './api';
export * from './webhooks';

/** Every object the API answers with, by its name in the API document (`Schemas['BenefitVerification']`). */
export type Schemas = components['schemas'];

export interface ClientOptions {
  /** Where the service is, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An API key (`sk_test_…` or `sk_live_…`). */
  apiKey: string;
  /** A fetch to use instead of the global one (a proxy, a test double). */
  fetch?: typeof fetch;
}

/** The API's client: each call's path, parameters, body and answer are typed from the API document. */
export type ApiClient = Client<paths>;

export function createClient(options: ClientOptions): ApiClient {
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch && { fetch: options.fetch }),
  });
}

/**
 * A new Idempotency-Key. Make one per logical request and send the same key with every retry of
 * it: the service answers a retry with the first answer (`Idempotent-Replayed: true`) and creates
 * nothing twice. Keep the key with your record of the request, so a retry after a crash reuses it.
 */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/** The header object carrying an Idempotency-Key, to pass as `params: { header: … }`. */
export function idempotent(key: string = newIdempotencyKey()): { 'Idempotency-Key': string } {
  return { 'Idempotency-Key': key };
}

/** A page as the API answers a list: a list object in the success envelope. */
interface ListPage<Item> {
  data?: { data: { data: Item[]; has_more: boolean; next_cursor?: string | null } } | undefined;
  error?: unknown;
}

/** What a list call returned when it failed: the error envelope and the HTTP status. */
export class ApiListError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`The API answered ${status} while listing`);
  }
}

/**
 * Every item of a list, page after page: `fetchPage` reads one page from a cursor (undefined for
 * the first), e.g. `(cursor) => client.GET('/events', { params: { query: { cursor } } })`. A page
 * that fails throws ApiListError; items already yielded stay yielded.
 */
export async function* paginate<Item>(
  fetchPage: (cursor: string | undefined) => Promise<ListPage<Item> & { response: Response }>,
): AsyncGenerator<Item> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    if (!page.data) throw new ApiListError(page.response.status, page.error);
    const { data, has_more: hasMore, next_cursor: nextCursor } = page.data.data;
    yield* data;
    if (hasMore && !nextCursor)
      throw new ApiListError(page.response.status, 'has_more without a next_cursor');
    cursor = hasMore ? (nextCursor ?? undefined) : undefined;
  } while (cursor !== undefined);
}
