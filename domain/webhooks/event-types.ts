/**
 * The webhook events of contract section 6. Endpoints subscribe by machine name or by the
 * specification's title; both normalise to the machine name.
 */
export const CASE_EVENT_TYPES = {
  'benefit_verification.updated': {
    title: 'Benefit Verification Updated',
    description: 'A benefit verification has been updated.',
  },
  'prior_authorization.updated': {
    title: 'Prior Authorization Updated',
    description: 'A prior authorization has been updated.',
  },
  'prior_authorization.overdue': {
    title: 'Prior Authorization Overdue',
    description: "A prior authorization's payer decision deadline (due_at) passed without a determination.",
  },
  'clinical_eligibility.updated': {
    title: 'Clinical Eligibility Updated',
    description: 'A clinical eligibility check has been updated.',
  },
  'patient_enrollment.updated': {
    title: 'Patient Enrollment Updated',
    description: 'A patient enrollment has been updated.',
  },
} as const;

export const TEST_EVENT_TYPE = 'webhook.test';
const TEST_EVENT = { title: 'Webhook Test', description: 'A test notification sent on request.' };

export type CaseEventType = keyof typeof CASE_EVENT_TYPES;
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
