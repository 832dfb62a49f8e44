/** The case event types the soak's endpoint subscribes to, and the only ones its accounting counts. */
export const CASE_EVENTS = [
  'benefit_verification.updated',
  'prior_authorization.updated',
  'clinical_eligibility.updated',
  'patient_enrollment.updated',
];

/** A list page as the API answers it, inside its `data` envelope. */
interface PageAnswer {
  data?: { data?: unknown; next_cursor?: string | null } | null;
}

/** A GET that waits out outages; undefined when no answer came. */
export type PatientGet = (route: string) => Promise<{ status: number; body: PageAnswer } | undefined>;

/** What the receiver acknowledged, by event id, with how many times. */
export interface Acknowledgements {
  readonly acknowledged: ReadonlyMap<string, number>;
}

interface DeliveryRow {
  event_id: string;
  retry_of: string | null;
  status: string;
  attempts: Array<{ next_attempt_at: string | null }>;
}

interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
}

export interface EventAccounting {
  /** Events the service recorded for the endpoint (one first delivery each). */
  expected: number;
  delivered: number;
  duplicates: number;
  /** Undelivered, with a later attempt scheduled: not lost yet. */
  scheduled: Array<{ eventId: string; next: string }>;
  /** Undelivered, pending, and due already or never tried: a delivery the service should be making. */
  overdue: string[];
  /** Undelivered with no attempt left: lost. */
  lost: string[];
  /**
   * Events listed by GET /events that no delivery to the endpoint was made for, each with what an
   * operator needs to trace it: its id, type and when it was created. Listed before the log is read,
   * so each one is a fan-out the service missed, not an event that arrived between the two reads.
   */
  notFannedOut: ListedEvent[];
  complete: boolean;
}

/** Every page of a list, as an integrator pages it; stops short (and says so) if a page does not come. */
export async function everyItem<Item>(
  get: PatientGet,
  route: string,
): Promise<{ items: Item[]; complete: boolean }> {
  const items: Item[] = [];
  let cursor: string | undefined;
  do {
    const separator = route.includes('?') ? '&' : '?';
    const answer = await get(`${route}${separator}limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    const page = answer?.status === 200 ? answer.body.data : undefined;
    if (!page) return { items, complete: false };
    items.push(...(page.data as Item[]));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return { items, complete: true };
}

/**
 * Waits (until `deadline`, reading again every `pollMs`) for every event the endpoint should receive,
 * then sorts the ones it did not: scheduled for later, overdue, or lost. The expected events are the
 * endpoint's deliveries, which the service records for every event of a subscribed type once the
 * endpoint is active, in the transaction that records the event.
 *
 * The events are listed before the delivery log is read for the last time. Cases still waiting when
 * the drain ends (a prior authorization or an enrollment awaiting its outcome) finish during the
 * accounting; read the other way round, an event recorded between the two reads was listed while its
 * delivery had not been, and looked never fanned out (the second soak's one "event without a
 * delivery"). In this order every event listed has its deliveries in the log read after it.
 */
export async function eventAccounting(
  get: PatientGet,
  receiver: Acknowledgements,
  endpointId: string,
  wait: { deadline: number; pollMs: number },
): Promise<EventAccounting> {
  const read = async () => {
    const deliveries = await everyItem<DeliveryRow>(get, `/webhooks/${endpointId}/deliveries`);
    const byEvent = new Map<string, DeliveryRow>();
    // Newest first: the first row met for an event is its latest delivery (a manual retry's, if any).
    for (const delivery of deliveries.items)
      if (!byEvent.has(delivery.event_id)) byEvent.set(delivery.event_id, delivery);
    return { byEvent, complete: deliveries.complete };
  };
  let deliveries = await read();
  const undelivered = () => [...deliveries.byEvent.keys()].filter((id) => !receiver.acknowledged.has(id));
  const waitForAcknowledgements = async () => {
    while (undelivered().length > 0 && Date.now() < wait.deadline) {
      await new Promise((resolve) => setTimeout(resolve, wait.pollMs));
      deliveries = await read();
    }
  };
  await waitForAcknowledgements();
  const events = await everyItem<ListedEvent>(get, '/events');
  // Events recorded during the listing have deliveries the first attempts may not have finished yet.
  deliveries = await read();
  await waitForAcknowledgements();
  const accounting: EventAccounting = {
    expected: deliveries.byEvent.size,
    delivered: deliveries.byEvent.size - undelivered().length,
    duplicates: [...receiver.acknowledged.values()].reduce((sum, count) => sum + Math.max(count - 1, 0), 0),
    scheduled: [],
    overdue: [],
    lost: [],
    notFannedOut: events.items
      .filter((event) => CASE_EVENTS.includes(event.type) && !deliveries.byEvent.has(event.id))
      .map(({ id, type, created_at }) => ({ id, type, created_at })),
    complete: deliveries.complete && events.complete,
  };
  for (const eventId of undelivered()) {
    const delivery = deliveries.byEvent.get(eventId)!;
    const next = delivery.attempts[delivery.attempts.length - 1]?.next_attempt_at;
    if (delivery.status !== 'pending') accounting.lost.push(eventId);
    else if (next && Date.parse(next) > Date.now()) accounting.scheduled.push({ eventId, next });
    else accounting.overdue.push(eventId);
  }
  return accounting;
}
