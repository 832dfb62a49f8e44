import type { ThinNotifiedObject } from '../../domain/webhooks/notified-object';
import type { NotificationBody } from './webhook-deliveries.repository';

/** What a thin notification keeps of the notified object: nothing that can name a patient. */
const THIN_FIELDS = ['id', 'object', 'status', 'livemode'] as const;

/**
 * The notification a thin endpoint receives: the same event (id, type, title, description,
 * created_at) with `data` cut to the object's id, object, status and livemode, so the receiver
 * learns what changed and fetches it with GET. A test event's endpoint object has no status and
 * keeps the other three.
 */
export function thinNotification(notification: NotificationBody): NotificationBody {
  const data = notification.data as unknown as Record<string, unknown>;
  const thin = Object.fromEntries(
    THIN_FIELDS.filter((field) => field in data).map((field) => [field, data[field]]),
  );
  return { ...notification, data: thin as unknown as ThinNotifiedObject };
}
