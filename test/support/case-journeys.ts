import { CASE_TYPE } from '../../domain/temporal/search-attributes';
import { bearer, eventually, TestApp } from './test-app';
import { TestReceiver } from './webhook-receiver';

export type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GETs the case until it reaches `status`, returning it; fails if it does not within the deadline. */
export async function waitForStatus(
  testApp: TestApp,
  key: string,
  path: string,
  id: string,
  status: string,
  timeoutMs = 20_000,
): Promise<JsonObject> {
  return eventually(async () => {
    const response = await testApp.http().get(`${path}/${id}`).set(bearer(key));
    return response.body.data?.status === status ? (response.body.data as JsonObject) : undefined;
  }, timeoutMs);
}

/**
 * Waits until Temporal's visibility lists every one of these cases as a case, a moment after each
 * starts: the read model's backfill finds cases only through that list.
 */
export async function untilVisibleAsCases(testApp: TestApp, ids: string[]): Promise<void> {
  const quoted = ids.map((id) => `'${id}'`).join(', ');
  await eventually(async () => {
    const listed = await testApp.temporalClient.workflowService.listWorkflowExecutions({
      namespace: testApp.config.temporal.namespace,
      query: `WorkflowId IN (${quoted}) AND ${CASE_TYPE.name} IS NOT NULL`,
    });
    return new Set((listed.executions ?? []).map((run) => run.execution?.workflowId)).size === ids.length;
  });
}

/** Erases a patient's cases through the API, as an admin asks, and returns the finished erasure. */
export async function erasePatient(
  testApp: TestApp,
  adminKey: string,
  internalId: string,
): Promise<JsonObject> {
  const requested = await testApp
    .http()
    .post('/patients/erasure')
    .set(bearer(adminKey))
    .send({ patient_internal_id: internalId });
  expect(requested.status).toBe(202);
  const ended = await eventually(async () => {
    const read = await testApp
      .http()
      .get(`/patients/erasures/${requested.body.data.id}`)
      .set(bearer(adminKey));
    return read.body.data?.status !== 'in_progress' ? (read.body.data as JsonObject) : undefined;
  }, 60_000);
  expect(ended.status).toBe('completed');
  return ended;
}

/** A receiver subscribed to every case event of the account, through the real webhook path. */
export async function subscribeReceiver(
  testApp: TestApp,
  providerKey: string,
  events: string[] = ['prior_authorization.updated', 'benefit_verification.updated'],
): Promise<TestReceiver> {
  const secret = 'whsec_case_events_00000001';
  const receiver = await new TestReceiver(secret).start();
  const created = await testApp.http().post('/webhooks').set(bearer(providerKey)).send({
    name: 'case events',
    url: receiver.url,
    secret,
    events,
  });
  receiver.endpointIds.add(created.body.data.id);
  await testApp
    .http()
    .patch(`/webhooks/${created.body.data.id}`)
    .set(bearer(providerKey))
    .send({ active: true });
  await waitForStatus(testApp, providerKey, '/webhooks', created.body.data.id, 'active');
  return receiver;
}

/** The case events a receiver got for one case, ordered by their sequence. */
export function eventsFor(receiver: TestReceiver, caseId: string): JsonObject[] {
  return receiver.notifications
    .filter((notification) => (notification.data as JsonObject).id === caseId)
    .sort((a, b) => (a.data as JsonObject).sequence - (b.data as JsonObject).sequence);
}
