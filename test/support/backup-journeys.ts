import { JsonObject } from './case-journeys';
import { benefitVerificationRequest, priorAuthorizationRequest } from './case-requests';
import { eventually } from './test-app';
import { TestReceiver } from './webhook-receiver';

/** Calls one running API with a key of the account, answering the parsed JSON body. */
export type AccountApi = (route: string, init?: RequestInit) => Promise<JsonObject>;

export const WEBHOOK_SECRET = 'whsec_backup_restore_0000001';
const PRIOR_AUTHORIZATION = '/prior-authorization';
const PRIOR_AUTHORIZATION_STATUSES = ['processing', 'awaiting_review', 'awaiting_outcome', 'completed'];

/** The cases a backup is taken under: one closed, one awaiting review, one waiting on the payer. */
export interface CasesAtBackup {
  closed: string;
  awaitingReview: string;
  awaitingPayer: string;
}

/**
 * An active webhook endpoint on the receiver and the three kinds of case a backup meets. The payer
 * is asked once PAYER_POLL_INTERVAL_MS has passed, which the caller sets long past the backup.
 */
export async function openCasesForBackup(api: AccountApi, receiver: TestReceiver): Promise<CasesAtBackup> {
  const endpoint = await api('/webhooks', {
    method: 'POST',
    body: JSON.stringify({
      name: 'clinic',
      url: receiver.url,
      secret: WEBHOOK_SECRET,
      events: ['prior_authorization.updated', 'benefit_verification.updated'],
    }),
  });
  receiver.endpointIds.add(endpoint.data.id);
  await api(`/webhooks/${endpoint.data.id}`, { method: 'PATCH', body: JSON.stringify({ active: true }) });
  await waitForStatus(api, '/webhooks', endpoint.data.id, 'active');

  const verification = await api('/benefit-verification', {
    method: 'POST',
    body: JSON.stringify(benefitVerificationRequest()),
  });
  await waitForStatus(api, '/benefit-verification', verification.data.id, 'completed');

  const [awaitingReview, awaitingPayer] = await Promise.all(
    [1, 2].map(async () => {
      const created = await api(PRIOR_AUTHORIZATION, {
        method: 'POST',
        body: JSON.stringify(priorAuthorizationRequest()),
      });
      await waitForStatus(api, PRIOR_AUTHORIZATION, created.data.id, 'awaiting_review');
      return created.data.id as string;
    }),
  );
  const reviewed = await api(`${PRIOR_AUTHORIZATION}/${awaitingPayer}/review`, {
    method: 'POST',
    body: JSON.stringify({ decision: 'approve', reviewer: 'Dr. Before' }),
  });
  if (reviewed.data?.status !== 'awaiting_outcome') {
    throw new Error(`The approved case is ${reviewed.data?.status}, not waiting on the payer`);
  }
  return { closed: verification.data.id, awaitingReview: awaitingReview!, awaitingPayer: awaitingPayer! };
}

/**
 * On the restored service: the closed case reads, the reviewer approves the case left awaiting
 * review, and both prior authorizations complete, every status change notified once per sequence
 * under one event id, whichever service sent it.
 */
export async function expectCasesToFinishAfterRestore(
  api: AccountApi,
  receiver: TestReceiver,
  cases: CasesAtBackup,
): Promise<void> {
  const closed = await api(`/benefit-verification/${cases.closed}`);
  expect(closed.data).toMatchObject({ id: cases.closed, status: 'completed' });

  const stillWaiting = await api(`${PRIOR_AUTHORIZATION}/${cases.awaitingReview}`);
  expect(stillWaiting.data.status).toBe('awaiting_review');
  const reviewed = await api(`${PRIOR_AUTHORIZATION}/${cases.awaitingReview}/review`, {
    method: 'POST',
    body: JSON.stringify({ decision: 'approve', reviewer: 'Dr. After' }),
  });
  expect(reviewed.data.status).toBe('awaiting_outcome');

  for (const id of [cases.awaitingReview, cases.awaitingPayer]) {
    const finished = await waitForStatus(api, PRIOR_AUTHORIZATION, id, 'completed');
    expect(finished.status_history.map((change: JsonObject) => change.status)).toEqual(
      PRIOR_AUTHORIZATION_STATUSES,
    );
    const announced = await eventually(async () => {
      const received = receivedFor(receiver, id);
      return received.some((event) => event.data.status === 'completed') ? received : undefined;
    }, 60_000);
    expect([...new Set(announced.map((event) => event.data.status))]).toEqual(PRIOR_AUTHORIZATION_STATUSES);
    expect([...new Set(announced.map((event) => event.data.sequence))]).toEqual([1, 2, 3, 4]);
    // A notification sent again after the restore carries the event id it had before.
    for (const sequence of [1, 2, 3, 4]) {
      const eventIds = announced.filter((event) => event.data.sequence === sequence).map((event) => event.id);
      expect(new Set(eventIds).size).toBe(1);
    }
  }
  expect(receiver.rejections).toEqual([]);
}

function receivedFor(receiver: TestReceiver, caseId: string): JsonObject[] {
  return (receiver.notifications as JsonObject[])
    .filter((notification) => notification.data.id === caseId)
    .sort((a, b) => a.data.sequence - b.data.sequence);
}

async function waitForStatus(api: AccountApi, route: string, id: string, status: string) {
  return eventually(async () => {
    const body = await api(`${route}/${id}`);
    return body.data?.status === status ? (body.data as JsonObject) : undefined;
  }, 90_000);
}

/** An AccountApi on a base URL. */
export function accountApi(baseUrl: string, key: string): AccountApi {
  return async (route, init = {}) => {
    const response = await fetch(`${baseUrl}${route}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    });
    return (await response.json()) as JsonObject;
  };
}
