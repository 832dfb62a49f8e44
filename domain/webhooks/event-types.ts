import type { EventDescription } from '../cases/case-kind';
import { CASE_KINDS, type CaseEventType } from '../cases/case-kinds';

/**
 * The webhook events of contract section 6: each case type's, as its kind declares them. Endpoints
 * subscribe by machine name or by the specification's title; both normalise to the machine name.
 */
export const CASE_EVENT_TYPES = Object.fromEntries(
  CASE_KINDS.flatMap((kind) => Object.entries(kind.events)),
) as Readonly<Record<CaseEventType, EventDescription>>;

/** Events about objects other than cases (contract section 13): sent to the mode the object lives in. */
export const ACCOUNT_EVENT_TYPES = {
  'provider_authorization.updated': {
    title: 'Provider Authorization Updated',
    description:
      "A prescriber's authorization was created, signed, lapsed or revoked; data is the provider_authorization.",
  },
} as const satisfies Record<string, EventDescription>;
export type AccountEventType = keyof typeof ACCOUNT_EVENT_TYPES;

/** Every event an endpoint may subscribe to, by machine name. */
export const SUBSCRIBABLE_EVENT_TYPES: Readonly<Record<SubscribableEventType, EventDescription>> = {
  ...CASE_EVENT_TYPES,
  ...ACCOUNT_EVENT_TYPES,
};

export const TEST_EVENT_TYPE = 'webhook.test';
const TEST_EVENT = { title: 'Webhook Test', description: 'A test notification sent on request.' };

export type { CaseEventType };
export type SubscribableEventType = CaseEventType | AccountEventType;
export type EventType = SubscribableEventType | typeof TEST_EVENT_TYPE;

const BY_TITLE = new Map(
  Object.entries(SUBSCRIBABLE_EVENT_TYPES).map(([type, { title }]) => [title.toLowerCase(), type]),
);

/** The machine name for a subscription given either form, or undefined when it names no event. */
export function normalizeEventType(nameOrTitle: string): SubscribableEventType | undefined {
  if (Object.hasOwn(SUBSCRIBABLE_EVENT_TYPES, nameOrTitle)) return nameOrTitle as SubscribableEventType;
  return BY_TITLE.get(nameOrTitle.trim().toLowerCase()) as SubscribableEventType | undefined;
}

export function describeEvent(type: EventType): { title: string; description: string } {
  return type === TEST_EVENT_TYPE ? TEST_EVENT : SUBSCRIBABLE_EVENT_TYPES[type];
}
