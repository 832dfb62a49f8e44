import { NativeConnection, Worker } from '@temporalio/worker';
import pino from 'pino';
import type { Response } from 'supertest';

import { connectWorkerConnection } from '../../infrastructure/temporal/temporal-connection';
import { createWorker } from '../../src/worker/worker';
import { patientEnrollmentRequest } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { testEnvironment } from '../harness/environment';

describe('a case that a worker picks up only after its creation request arrived', () => {
  let testApp: TestApp;
  let connection: NativeConnection;
  let worker: Worker;
  let running: Promise<void> | undefined;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
    // Built now, but polling only once the test says so.
    const { config, db, temporalClient } = testApp;
    connection = await connectWorkerConnection(config.temporal);
    worker = await createWorker({
      config,
      connection,
      db,
      temporalClient,
      logger: pino({ level: 'silent' }),
      workflowBundlePath: testEnvironment().workflowBundlePath,
    });
  });
  afterAll(async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await connection.close();
    await testApp.close();
  });

  it('answers an enrollment with its screened status, not processing', async () => {
    const answer = new Promise<Response>((resolve, reject) =>
      testApp
        .http()
        .post('/patient-enrollment')
        .set(bearer(account.keys.provider))
        .send(patientEnrollmentRequest())
        .then(resolve, reject),
    );
    // The start and the API's wait for the first screening both reach the case before any worker does.
    await eventually(async () => {
      const { body } = await testApp.http().get('/patient-enrollment').set(bearer(account.keys.provider));
      return body.data?.data?.length === 1;
    });
    running = worker.run();
    const { status, body } = await answer;
    expect(status).toBe(201);
    expect(body.data.status).toBe('awaiting_outcome');
  });
});
