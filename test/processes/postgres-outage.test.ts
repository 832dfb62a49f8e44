import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

import { freePort } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from '../harness/environment';
import { postgresBinDir, PostgresServer } from '../../infrastructure/storage/postgres-server';
import { readJson, RunningProcess, runCommand, startProcess } from '../support/processes';
import { eventually, randomEncryptionKeys } from '../support/test-app';

const binDir = postgresBinDir();
const describeWithPostgres = binDir ? describe : describe.skip;
if (!binDir)
  test.todo('a PostgreSQL outage in scale mode (needs PostgreSQL installed under /usr/lib/postgresql)');

/**
 * The liveness bound of one request in an outage: the configured waits below (connect 2 s, query
 * 5 s) plus ample room for a loaded machine. A request still open after it counts as hung.
 */
const REQUEST_BOUND_MS = 10_000;

interface Answer {
  status?: number;
  retryAfter?: string | null;
  code?: string;
  /** No answer within REQUEST_BOUND_MS. */
  hung?: boolean;
  /** The connection itself failed: the API process is gone. */
  refused?: boolean;
}

describeWithPostgres('a PostgreSQL outage in scale mode', () => {
  let postgres: PostgresServer;
  let apiProcess: RunningProcess;
  let workerProcess: RunningProcess;
  let apiPort: number;
  let providerKey: string;

  const listWebhooks = async (): Promise<Answer> => {
    try {
      const response = await fetch(`http://127.0.0.1:${apiPort}/webhooks`, {
        headers: { Authorization: `Bearer ${providerKey}` },
        signal: AbortSignal.timeout(REQUEST_BOUND_MS),
      });
      const body = await readJson(response);
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        code: body.error?.code,
      };
    } catch (error) {
      return (error as Error).name === 'TimeoutError' ? { hung: true } : { refused: true };
    }
  };

  /** Four clients listing webhooks back to back until stopped; resolves with every answer. */
  const startTraffic = () => {
    const answers: Answer[] = [];
    let running = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (running) {
        answers.push(await listWebhooks());
        await delay(25);
      }
    });
    return {
      answers,
      stop: async () => {
        running = false;
        await Promise.all(clients);
        return answers;
      },
    };
  };

  beforeAll(async () => {
    postgres = await PostgresServer.create(binDir!);
    apiPort = await freePort();
    const env = {
      NODE_ENV: 'production',
      TEMPORAL_ADDRESS: testEnvironment().temporalAddress,
      TEMPORAL_NAMESPACE: testEnvironment().namespace,
      TEMPORAL_TASK_QUEUE: `postgres-outage-${randomUUID()}`,
      DATABASE_URL: postgres.databaseUrl,
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
      DATABASE_QUERY_TIMEOUT_MS: '5000',
      PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
      PATIENT_REF_KEY: randomEncryptionKeys().split(':')[1]!,
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      PORT: String(apiPort),
      LOG_LEVEL: 'info',
    };
    const account = JSON.parse(
      runCommand('admin/cli.js', ['accounts:create', '--name', 'Outage clinic'], env).stdout,
    );
    providerKey = JSON.parse(
      runCommand('admin/cli.js', ['keys:create', '--account', account.id, '--role', 'provider'], env).stdout,
    ).secret;
    workerProcess = startProcess('main.worker.js', env);
    apiProcess = startProcess('main.api.js', env);
    await apiProcess.waitForOutput(/API listening/);
    await workerProcess.waitForOutput(/database ready/);
  });

  afterAll(async () => {
    await apiProcess?.stop('SIGTERM');
    await workerProcess?.stop('SIGTERM');
    postgres?.destroy();
  });

  it('answers 503 with Retry-After while the database is down, and serves again once it restarts', async () => {
    expect(await listWebhooks()).toMatchObject({ status: 200 });
    const traffic = startTraffic();
    postgres.stop();
    await eventually(async () => traffic.answers.some((answer) => answer.status === 503));
    const answeredWhileDown = traffic.answers.length;
    postgres.start();
    // The traffic itself must be served again: a probe of its own could win the race to the first
    // 200 and stop the traffic before any of its requests saw the database back.
    await eventually(async () =>
      traffic.answers.slice(answeredWhileDown).some((answer) => answer.status === 200),
    );
    const answers = await traffic.stop();

    expect(answers.filter((answer) => answer.hung || answer.refused)).toEqual([]);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200, 503]));
    for (const answer of answers.filter(({ status }) => status === 503)) {
      expect(answer).toMatchObject({
        code: 'service_unavailable',
        retryAfter: expect.stringMatching(/^\d+$/),
      });
    }
  });

  it('answers 503 within the timeouts when the database stops answering, and serves again once it does', async () => {
    expect(await listWebhooks()).toMatchObject({ status: 200 });
    postgres.freeze();
    let answers: Answer[];
    try {
      // Some requests find a pooled connection (bounded by the query timeout), others open a new one
      // (bounded by the connect timeout).
      answers = await Promise.all(Array.from({ length: 6 }, () => listWebhooks()));
    } finally {
      postgres.thaw();
    }
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        retryAfter: expect.any(String),
      });
    }
    await eventually(async () => (await listWebhooks()).status === 200);
  });

  it('keeps the API and the worker processes running through both outages', () => {
    expect(apiProcess.child.exitCode).toBeNull();
    expect(workerProcess.child.exitCode).toBeNull();
  });
});
