import { normalizeEventType } from '../../domain/webhooks/event-types';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import {
  EventFilter,
  EVENT_RETENTION_DAYS,
  EventScope,
  EventsRepository,
  WebhookEvent,
} from '../../infrastructure/webhooks/events.repository';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import { DEFAULT_PAGE_SIZE } from '../common/dto/page-query';
import { ApiError } from '../common/errors';
import type { ListEventsQuery } from './events.dto';

/**
 * The caller's events of its own mode, as its full-payload endpoints received them, for as long as
 * they are retained, paged by keyset cursors (infrastructure/storage/keyset-cursor.ts).
 */
export class EventsService {
  constructor(private readonly events: EventsRepository) {}

  async list(principal: Principal, query: ListEventsQuery) {
    const scope = scopeOf(principal);
    const filter: EventFilter = {
      ...(query.type && { type: normalizeEventType(query.type) }),
      ...(query.created_after && { createdAfter: new Date(query.created_after) }),
      ...(query.created_before && { createdBefore: new Date(query.created_before) }),
    };
    const { events, nextCursor } = await this.events.list(scope, filter, {
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      ...(query.cursor && { after: keysetPosition(query.cursor) }),
    });
    return { object: 'list' as const, data: events, has_more: nextCursor !== null, next_cursor: nextCursor };
  }

  async get(principal: Principal, id: string): Promise<WebhookEvent> {
    const event = await this.events.find(id, scopeOf(principal));
    if (!event) {
      throw ApiError.notFound(
        `No event with this id exists in your account (events are kept ${EVENT_RETENTION_DAYS} days).`,
      );
    }
    return event;
  }
}

function scopeOf(principal: Principal): EventScope {
  return { accountId: principal.accountId, livemode: principal.livemode };
}
