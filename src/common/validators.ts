import { Matches, ValidationOptions } from 'class-validator';

import { normalizeEventType, SUBSCRIBABLE_EVENT_TYPES } from '../../domain/webhooks/event-types';
import { documentedRule } from './dto/documented-rule';

const MAX_URL_LENGTH = 2048;

/** Each event a subscription may name, by machine name and by title. */
const EVENT_NAMES = Object.entries(SUBSCRIBABLE_EVENT_TYPES).flatMap(([type, { title }]) => [type, title]);

/** http(s) only, no credentials in the URL (they would leak into logs and delivery lists). */
export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isWebhookUrl',
    (value) => {
      if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) return false;
      try {
        const url = new URL(value);
        return (
          (url.protocol === 'http:' || url.protocol === 'https:') &&
          !url.username &&
          !url.password &&
          !!url.hostname
        );
      } catch {
        return false;
      }
    },
    `must be an absolute http or https URL without credentials, at most ${MAX_URL_LENGTH} characters`,
    options,
    {
      schema: {
        type: 'string',
        format: 'uri',
        pattern: '^https?://[^/?#@]+(?:[/?#].*)?$',
        maxLength: MAX_URL_LENGTH,
      },
      description: 'An absolute http or https URL without credentials.',
    },
  );
}

/** An event by machine name (`prior_authorization.updated`) or title (`Prior Authorization Updated`). */
export function IsWebhookEvent(options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isWebhookEvent',
    (value) => typeof value === 'string' && normalizeEventType(value) !== undefined,
    `must name known events: ${Object.keys(SUBSCRIBABLE_EVENT_TYPES).join(', ')} (or their titles)`,
    options,
    { schema: { type: 'string', enum: EVENT_NAMES } },
  );
}

// eslint-disable-next-line no-control-regex -- naming the control characters is the point of this rule
const CONTROL_CHARACTERS_ABSENT = /^[^\u0000-\u001f\u007f]*$/;

/** Names and labels are stored as text, which holds no NUL, and are shown in lists: no control characters. */
export function HasNoControlCharacters(): PropertyDecorator {
  return Matches(CONTROL_CHARACTERS_ABSENT, { message: 'must not contain control characters' });
}
