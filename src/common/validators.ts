import { Matches, registerDecorator, ValidationOptions } from 'class-validator';

import { normalizeEventType, SUBSCRIBABLE_EVENT_TYPES } from '../../domain/webhooks/event-types';

const MAX_URL_LENGTH = 2048;

/** http(s) only, no credentials in the URL (they would leak into logs and delivery lists). */
export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate(value: unknown) {
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
        defaultMessage: () =>
          `must be an absolute http or https URL without credentials, at most ${MAX_URL_LENGTH} characters`,
      },
    });
}

/** An event by machine name (`prior_authorization.updated`) or title (`Prior Authorization Updated`). */
export function IsWebhookEvent(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookEvent',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && normalizeEventType(value) !== undefined,
        defaultMessage: () =>
          `must name known events: ${Object.keys(SUBSCRIBABLE_EVENT_TYPES).join(', ')} (or their titles)`,
      },
    });
}

// eslint-disable-next-line no-control-regex -- naming the control characters is the point of this rule
const CONTROL_CHARACTERS_ABSENT = /^[^\u0000-\u001f\u007f]*$/;

/** Names and labels are stored as text, which holds no NUL, and are shown in lists: no control characters. */
export function HasNoControlCharacters(): PropertyDecorator {
  return Matches(CONTROL_CHARACTERS_ABSENT, { message: 'must not contain control characters' });
}
