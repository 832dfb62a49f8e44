import type { EventDescription } from '../cases/case-kind';
import { CASE_KINDS, type CaseEventType } from '../cases/case-kinds';

/**
 * The webhook events of contract section 6: each case type's, as its kind declares them. Endpoints
 * subscribe by machine name or by the specification's title; both normalise to the machine name.
 */
export const CASE_EVENT_TYPES = Object.fromEntries(
  CASE_KINDS.flatMap((kind) => Object.entries(kind.events)),
) as Readonly<Record<CaseEventType, EventDescription>>;

export const TEST_EVENT_TYPE = 'webhook.test';
const TEST_EVENT = { title: 'Webhook Test', description: 'A test notification sent on request.' };

export type { CaseEventType };
export type EventType = CaseEventType | typeof TEST_EVENT_TYPE;

const BY_TITLE = new Map(
  Object.entries(CASE_EVENT_TYPES).map(([type, { title }]) => [title.toLowerCase(), type]),
);

/** The machine name for a subscription given either form, or undefined when it names no event. */
export function normalizeEventType(nameOrTitle: string): CaseEventType | undefined {
  if (Object.hasOwn(CASE_EVENT_TYPES, nameOrTitle)) return nameOrTitle as CaseEventType;
  return BY_TITLE.get(nameOrTitle.trim().toLowerCase()) as CaseEventType | undefined;
}

export function describeEvent(type: EventType): { title: string; description: string } {
  return type === TEST_EVENT_TYPE ? TEST_EVENT : CASE_EVENT_TYPES[type];
}
