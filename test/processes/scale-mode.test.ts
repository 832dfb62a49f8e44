import { randomUUID } from 'node:crypto';

import { freePort } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from '../harness/environment';
import { readJson, RunningProcess, runCommand, startProcess } from '../support/processes';
import { randomEncryptionKeys, eventually } from '../support/test-app';

const databaseUrl = process.env.TEST_DATABASE_URL;
const describeWithPostgres = databaseUrl ? describe : describe.skip;
if (!databaseUrl) test.todo('scale mode on PostgreSQL (set TEST_DATABASE_URL to run it; CI does)');

describeWithPostgres('scale mode (API and worker as separate processes)', () => {
  // Production refuses DEV_API_KEY: the key comes from the admin CLI, as an operator's would.
  let apiKey: string;
  let apiProcess: RunningProcess;
  let workerProcess: RunningProcess;
  let apiPort: number;

  beforeAll(async () => {
    apiPort = await freePort();
    const env = {
      NODE_ENV: 'production',
      TEMPORAL_ADDRESS: testEnvironment().temporalAddress,
      TEMPORAL_NAMESPACE: testEnvironment().namespace,
      TEMPORAL_TASK_QUEUE: `scale-mode-${randomUUID()}`,
      DATABASE_URL: databaseUrl!,
      PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
      PATIENT_REF_KEY: randomEncryptionKeys().split(':')[1]!,
      PORT: String(apiPort),
      LOG_LEVEL: 'info',
    };
    const account = JSON.parse(
      runCommand('admin/cli.js', ['accounts:create', '--name', 'Scale clinic'], env).stdout,
    );
    apiKey = JSON.parse(
      runCommand('admin/cli.js', ['keys:create', '--account', account.id, '--role', 'admin'], env).stdout,
    ).secret;
    workerProcess = startProcess('main.worker.js', env);
    apiProcess = startProcess('main.api.js', env);
    await apiProcess.waitForOutput(/API listening/);
  });

  afterAll(async () => {
    await apiProcess?.stop('SIGTERM');
    await workerProcess?.stop('SIGTERM');
  });

  it('serves the API from one process while another process polls as the worker', async () => {
    const status = await eventually(async () => {
      const response = await fetch(`http://127.0.0.1:${apiPort}/status`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      const body = await readJson(response);
      return body.data?.components?.worker?.status === 'ok' ? body : undefined;
    }, 60_000);
    expect(status.data.components).toMatchObject({
      database: { status: 'ok' },
      temporal: { status: 'ok' },
      worker: { status: 'ok', pollers: expect.any(Number) },
    });
  });

  it('writes JSON log lines that never contain the API key', async () => {
    await fetch(`http://127.0.0.1:${apiPort}/status`, { headers: { Authorization: `Bearer ${apiKey}` } });
    const requestLine = await eventually(async () =>
      apiProcess
        .output()
        .split('\n')
        .find((line) => line.includes('"request completed"')),
    );
    expect(JSON.parse(requestLine)).toMatchObject({ level: 'info', route: '/status', status: 200 });
    expect(apiProcess.output() + workerProcess.output()).not.toContain(apiKey);
  });

  it('stops both processes gracefully on SIGTERM', async () => {
    expect(await apiProcess.stop('SIGTERM')).toBe(0);
    expect(await workerProcess.stop('SIGTERM')).toBe(0);
  });
});
