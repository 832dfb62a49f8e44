import { Client, Connection } from '@temporalio/client';
import { ensureTemporalFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';

import { createActivities } from '../../activities';
import { loadConfig } from '../../infrastructure/config/config';
import { Database, DatabaseUnavailableError, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { testEnvironment } from '../harness/environment';
import { postgresBinDir, PostgresServer } from '../../infrastructure/storage/postgres-server';
import { randomEncryptionKeys } from '../support/test-app';

const binDir = postgresBinDir();
const describeWithPostgres = binDir ? describe : describe.skip;
if (!binDir) test.todo('the database through a PostgreSQL outage (needs PostgreSQL installed)');

const TIMEOUTS = { connectMs: 2_000, statementMs: 500, queryMs: 3_000 };

describeWithPostgres('the database through a PostgreSQL outage', () => {
  let postgres: PostgresServer;
  let db: Database;

  beforeAll(async () => {
    postgres = await PostgresServer.create(binDir!);
    db = await openDatabase({
      databaseUrl: postgres.databaseUrl,
      timeouts: TIMEOUTS,
      logger: pino({ level: 'silent' }),
    });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    postgres?.destroy();
  });

  /** Stops the server for the duration of `during`, then starts it again. */
  const whileStopped = async (during: () => Promise<void>) => {
    postgres.stop();
    try {
      await during();
    } finally {
      postgres.start();
    }
  };

  it('reports a stopped server as unavailable, naming only the error code, and reconnects once it is back', async () => {
    await db.query('SELECT 1');
    await whileStopped(async () => {
      const failure = await db
        .query('SELECT $1::text AS name', ['Jane Q. Patient'])
        .catch((error: Error) => error);
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      expect((failure as Error).message).toMatch(
        /^The database is unreachable or did not answer in time \(\w+\)$/,
      );
    });
    expect(await db.query('SELECT $1::text AS name', ['ok'])).toEqual([{ name: 'ok' }]);
  });

  it('fails a transaction cut off by a restart as unavailable and hands its broken connection to nobody', async () => {
    const failure = await db
      .transaction(async (tx) => {
        await tx.query('SELECT 1');
        postgres.stop();
        postgres.start();
        await tx.query('SELECT 2');
      })
      .catch((error: Error) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect(await db.transaction((tx) => tx.query('SELECT 3 AS n'))).toEqual([{ n: 3 }]);
  });

  it('cancels a statement that outlasts the statement timeout as unavailable', async () => {
    const failure = await db.query('SELECT pg_sleep(5)').catch((error: Error) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as Error).message).toContain('(57014)');
  });

  it('makes an activity that meets the outage fail retryably, so Temporal tries it again', async () => {
    const config = loadConfig('worker', {
      NODE_ENV: 'production',
      TEMPORAL_ADDRESS: testEnvironment().temporalAddress,
      DATABASE_URL: postgres.databaseUrl,
      PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
      CLINICAL_EVALUATION_THREADS: '1',
    });
    const connection = await Connection.connect({ address: config.temporal.address });
    const { activities, close } = createActivities({
      config,
      db,
      temporalClient: new Client({ connection, namespace: testEnvironment().namespace }),
      taskQueue: 'database-outage',
    });
    try {
      await whileStopped(async () => {
        const failure = await new MockActivityEnvironment()
          .run(activities.verifyWebhookTarget, { endpointId: 'wh_outage' })
          .catch((error: Error) => error);
        // What the worker reports to Temporal for an activity that threw this error.
        expect(ensureTemporalFailure(failure)).toMatchObject({
          type: 'DatabaseUnavailableError',
          nonRetryable: false,
        });
      });
    } finally {
      await close();
      await connection.close();
    }
  });
});
