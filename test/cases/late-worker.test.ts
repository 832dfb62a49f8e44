import { NativeConnection, Worker } from '@temporalio/worker';
import pino from 'pino';
import type { Response } from 'supertest';

import { connectWorkerConnection } from '../../infrastructure/temporal/temporal-connection';
import { createWorker } from '../../src/worker/worker';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { PRODUCTION_WORKFLOWS } from '../support/workers';

const OZEMPIC_SAVINGS_CARD = 'prog_01jnzn5t37ydrsw602nch4aqg1';

describe('a case that a worker picks up only after its creation request arrived', () => {
  let testApp: TestApp;
  let connection: NativeConnection;
  let worker: Worker;
  let running: Promise<void> | undefined;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
    // Built (and its workflows bundled) now, but polling only once the test says so.
    const { config, db, temporalClient } = testApp;
    connection = await connectWorkerConnection(config.temporal);
    worker = await createWorker({
      config,
      connection,
      db,
      temporalClient,
      logger: pino({ level: 'silent' }),
      workflowsPath: PRODUCTION_WORKFLOWS,
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
        .send({
          programId: OZEMPIC_SAVINGS_CARD,
          patient: {
            first_name: 'Elowen',
            last_name: 'Testperson',
            date_of_birth: '1975-03-02',
            address: {
              street: '4 Example Road',
              city: 'Portland',
              state_province: 'OR',
              zip_postal_code: '97201',
              country: 'US',
            },
            email: 'elowen@example.test',
            phone: '+1 503 555 0199',
            insurance_details: {
              data: { payer: 'Blue Horizon Health', membership_number: 'BHH555000111', rx_bin: '610014' },
            },
          },
          prescription: { drug_name: 'Ozempic 1 mg pen', dosage: '1 mg weekly' },
        })
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
