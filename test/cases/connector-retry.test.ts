import type { google } from '@temporalio/proto';

import { waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest } from '../support/case-requests';
import { bearer, startTestApp, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

/** Empty settings fall back to the service's defaults, as in a deployment that sets none. */
const DEFAULT_CONNECTOR_RETRY = {
  CONNECTOR_RETRY_INITIAL_INTERVAL_MS: '',
  CONNECTOR_RETRY_MAX_INTERVAL_MS: '',
  CONNECTOR_RETRY_MAX_ATTEMPTS: '',
};

const seconds = (duration: google.protobuf.IDuration | null | undefined) =>
  Number(duration?.seconds ?? 0) + (duration?.nanos ?? 0) / 1e9;

/**
 * How a payer call is retried is read from the case's history: the policy Temporal was given when the
 * call was scheduled, which is what decides how long a case tries before it shows attention.
 */
describe("a case's connector calls are retried as the configuration says", () => {
  const services: Array<{ testApp: TestApp; worker: TestWorker }> = [];
  afterAll(async () => {
    for (const { testApp, worker } of services) {
      await worker.stop();
      await testApp.close();
    }
  });

  /** The retry policy of a benefit verification's payer check, in a service started with `env`. */
  async function payerCheckRetryPolicy(env: Record<string, string>) {
    const testApp = await startTestApp(env);
    const worker = await testApp.startWorker();
    services.push({ testApp, worker });
    const { keys } = await testApp.createAccount();
    const created = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(keys.provider))
      .send(benefitVerificationRequest());
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await waitForStatus(testApp, keys.provider, '/benefit-verification', id, 'completed');
    const history = await testApp.temporalClient.workflow.getHandle(id).fetchHistory();
    const scheduled = history.events
      ?.map((event) => event.activityTaskScheduledEventAttributes)
      .find((attributes) => attributes?.activityType?.name === 'checkCaseBenefits');
    const policy = scheduled?.retryPolicy;
    return {
      initialIntervalSeconds: seconds(policy?.initialInterval),
      maximumIntervalSeconds: seconds(policy?.maximumInterval),
      backoffCoefficient: policy?.backoffCoefficient,
      maximumAttempts: policy?.maximumAttempts,
    };
  }

  it('tries ten times, from 2 seconds apart doubling up to a minute, by default', async () => {
    expect(await payerCheckRetryPolicy(DEFAULT_CONNECTOR_RETRY)).toEqual({
      initialIntervalSeconds: 2,
      maximumIntervalSeconds: 60,
      backoffCoefficient: 2,
      maximumAttempts: 10,
    });
  });

  it('tries as often and as far apart as CONNECTOR_RETRY_* say', async () => {
    expect(
      await payerCheckRetryPolicy({
        CONNECTOR_RETRY_INITIAL_INTERVAL_MS: '250',
        CONNECTOR_RETRY_MAX_INTERVAL_MS: '4000',
        CONNECTOR_RETRY_MAX_ATTEMPTS: '4',
      }),
    ).toEqual({
      initialIntervalSeconds: 0.25,
      maximumIntervalSeconds: 4,
      backoffCoefficient: 2,
      maximumAttempts: 4,
    });
  });
});
