import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

import { Client, Connection, WorkflowFailedError } from '@temporalio/client';

import { Database } from '../../infrastructure/storage/database';
import { connectClient } from '../../infrastructure/temporal/temporal-connection';
import { confirmIntakeSignal, getIntakeQuery } from '../fixtures/workflows';
import { testEnvironment } from '../harness/environment';
import { openMigratedMemoryDatabase } from '../support/migrated-database';
import { eventually, testConfig } from '../support/test-app';
import { FIXTURE_WORKFLOWS, startTestWorker, taskQueueFor } from '../support/workers';

/** Everything the dev server persisted: the SQLite file and its write-ahead log. */
function temporalDatabaseBytes(): Buffer {
  const { temporalDbFile } = testEnvironment();
  return Buffer.concat(
    [temporalDbFile, `${temporalDbFile}-wal`].filter(existsSync).map((file) => readFileSync(file)),
  );
}

function uniquePatient() {
  const marker = randomUUID().replace(/-/g, '').slice(0, 12);
  return { first_name: `Zelphine${marker}`, last_name: `Quillabrook${marker}`, date_of_birth: '1958-02-17' };
}

describe('PHI at rest in Temporal', () => {
  const config = testConfig();
  let client: Client;
  let db: Database;
  const startFixtureWorker = (taskQueue: string) =>
    startTestWorker({ config, db, temporalClient: client, taskQueue, workflowsPath: FIXTURE_WORKFLOWS });

  beforeAll(async () => {
    client = await connectClient(config.temporal, config.encryption!);
    db = await openMigratedMemoryDatabase();
  });
  afterAll(async () => {
    await client.connection.close();
    await db.close();
  });

  it('runs a case workflow end to end on the real server with input, query, signal and result', async () => {
    const taskQueue = taskQueueFor(expect.getState().currentTestName!);
    const worker = await startFixtureWorker(taskQueue);
    try {
      const patient = uniquePatient();
      const handle = await client.workflow.start('intakeFixtureWorkflow', {
        taskQueue,
        workflowId: `intake-${randomUUID()}`,
        args: [{ patient }],
      });
      expect(await handle.query(getIntakeQuery)).toEqual({
        confirmed: false,
        patient_name: `${patient.first_name} ${patient.last_name}`,
      });
      await handle.signal(confirmIntakeSignal, { reviewer_note: 'insurance card legible' });
      expect(await handle.result()).toEqual({
        summary: `${patient.first_name} ${patient.last_name}: insurance card legible`,
      });
    } finally {
      await worker.stop();
    }
  });

  it('keeps a submitted patient name out of the Temporal database entirely', async () => {
    const taskQueue = taskQueueFor(expect.getState().currentTestName!);
    const worker = await startFixtureWorker(taskQueue);
    const patient = uniquePatient();
    try {
      const handle = await client.workflow.start('intakeFixtureWorkflow', {
        taskQueue,
        workflowId: `intake-${randomUUID()}`,
        args: [{ patient }],
        memo: { patient_last_name: patient.last_name },
      });
      await handle.signal(confirmIntakeSignal, { reviewer_note: `called ${patient.first_name} back` });
      await handle.result();
      const failing = await client.workflow.start('failingFixtureWorkflow', {
        taskQueue,
        workflowId: `intake-${randomUUID()}`,
        args: [{ patient }],
        workflowExecutionTimeout: '1 minute',
      });
      const failure = await failing.result().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      // The failure message is encrypted at rest yet readable to a client holding the key.
      expect((failure as WorkflowFailedError).cause?.message).toContain(patient.last_name);
    } finally {
      await worker.stop();
    }
    const stored = temporalDatabaseBytes().toString('latin1');
    expect(stored).not.toContain(patient.first_name);
    expect(stored).not.toContain(patient.last_name);
  });

  it('would find the name if payloads were not encrypted (the check above can fail)', async () => {
    const patient = uniquePatient();
    const connection = await Connection.connect({ address: config.temporal.address });
    try {
      const unencryptedClient = new Client({ connection, namespace: config.temporal.namespace });
      const handle = await unencryptedClient.workflow.start('intakeFixtureWorkflow', {
        taskQueue: taskQueueFor('unencrypted control'),
        workflowId: `control-${randomUUID()}`,
        args: [{ patient }],
      });
      await eventually(async () => temporalDatabaseBytes().toString('latin1').includes(patient.last_name));
      await handle.terminate('control case written');
    } finally {
      await connection.close();
    }
  });
});
