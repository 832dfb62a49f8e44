import { createActivities } from '../../activities';
import { bearer, eventually, TestApp } from './test-app';
import type { TestReceiver } from './webhook-receiver';

export type PublishEvent = ReturnType<typeof createActivities>['activities']['publishEvent'];

/** The activity case workflows call to publish an event, run as a worker runs it (regular or local activity alike). */
export function publishEventActivity(testApp: TestApp): PublishEvent {
  return createActivities({
    config: testApp.config,
    db: testApp.db,
    temporalClient: testApp.temporalClient,
    taskQueue: testApp.config.temporal.taskQueue,
  }).activities.publishEvent;
}

export interface EndpointRequest {
  name: string;
  url: string;
  secret: string;
  events: readonly string[];
}

/**
 * An endpoint as a provider makes one: created, toggled on, and active once verified. The receiver,
 * where given, serves the endpoint from before its verification reaches it.
 */
export async function createActiveEndpoint(
  testApp: TestApp,
  key: string,
  endpoint: EndpointRequest,
  receiver?: TestReceiver,
): Promise<string> {
  const created = await testApp.http().post('/webhooks').set(bearer(key)).send(endpoint);
  const id = created.body.data.id as string;
  receiver?.endpointIds.add(id);
  await testApp.http().patch(`/webhooks/${id}`).set(bearer(key)).send({ active: true });
  await eventually(
    async () => (await testApp.http().get(`/webhooks/${id}`).set(bearer(key))).body.data.status === 'active',
  );
  return id;
}
