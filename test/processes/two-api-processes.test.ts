import { randomBytes, randomUUID } from 'node:crypto';

import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { freePort } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from '../harness/environment';
import { RunningProcess, startProcess } from '../support/processes';
import { randomEncryptionKeys } from '../support/test-app';

const databaseUrl = process.env.TEST_DATABASE_URL;
const describeWithPostgres = databaseUrl ? describe : describe.skip;
if (!databaseUrl)
  test.todo('rate limits shared by two API processes (set TEST_DATABASE_URL to run it; CI does)');

describeWithPostgres('two API processes on one PostgreSQL database', () => {
  const processes: { process: RunningProcess; port: number }[] = [];
  let db: Database;
  let apiKey: string;

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl });
    await migrate(db);
    const accounts = new AccountsRepository(db);
    const account = await accounts.createAccount('Two-replica clinic');
    apiKey = (await accounts.createApiKey({ accountId: account.id, roles: ['provider'], label: 'replicas' }))
      .secret;

    const env = {
      NODE_ENV: 'production',
      TEMPORAL_ADDRESS: testEnvironment().temporalAddress,
      TEMPORAL_NAMESPACE: testEnvironment().namespace,
      TEMPORAL_TASK_QUEUE: `two-api-processes-${randomUUID()}`,
      DATABASE_URL: databaseUrl!,
      PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
      PATIENT_REF_KEY: randomBytes(32).toString('base64'),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_SECOND: '1',
      RATE_LIMIT_BURST: '3',
      LOG_LEVEL: 'info',
    };
    for (let replica = 0; replica < 2; replica++) {
      const port = await freePort();
      processes.push({ process: startProcess('main.api.js', { ...env, PORT: String(port) }), port });
    }
    for (const { process: api } of processes) await api.waitForOutput(/API listening/);
  });

  afterAll(async () => {
    for (const { process: api } of processes) await api.stop('SIGTERM');
    await db?.close();
  });

  const status = (replica: number) =>
    fetch(`http://127.0.0.1:${processes[replica]!.port}/status`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });

  it('shares one key’s burst: the second process refuses once the first spent it', async () => {
    const first = [await status(0), await status(0), await status(0)];
    expect(first.map((response) => response.status)).toEqual([200, 200, 200]);

    const second = await status(1);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
