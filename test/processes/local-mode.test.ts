import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client, Connection } from '@temporalio/client';

import { loadConfig } from '../../infrastructure/config/config';
import { ConsoleUsersRepository } from '../../infrastructure/console/console-users.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { openDatabase } from '../../infrastructure/storage/database';
import { freePort } from '../../infrastructure/temporal/dev-server';
import { dataConverter } from '../../infrastructure/temporal/temporal-connection';
import { localEncryption } from '../../src/bootstrap';
import { acceptedStep } from '../../src/console/people/totp';
import { servedDatabaseUrl } from '../../src/local/data-folder';
import { cookiesFrom, csrfTokenOf } from '../support/console-session';
import { isProcessAlive, localModeEnv, readJson, runCommand, startProcess } from '../support/processes';
import { eventually } from '../support/test-app';

const DEV_API_KEY = `hak_local_mode_test_${randomUUID().replace(/-/g, '')}`;

function portAcceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('local mode (the start command)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-local-'));
  let env: Record<string, string>;
  let ports: { api: number; temporal: number; ui: number };

  beforeAll(async () => {
    const api = await freePort();
    const temporal = await freePort([api]);
    ports = { api, temporal, ui: await freePort([api, temporal]) };
    env = localModeEnv({ dataDir, ports, devApiKey: DEV_API_KEY });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const api = (route: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${ports.api}${route}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${DEV_API_KEY}`,
        'Content-Type': 'application/json',
        ...init.headers,
      },
    });

  it('starts Temporal, the worker and the API, prints the URLs and key, keeps data across restarts and stops cleanly', async () => {
    const first = startProcess('main.local.js', env);
    const banner = await first.waitForOutput(/Temporal Web:\s+(\S+)[\s\S]*Dev API key:\s+(\S+)/);
    expect(first.output()).toContain(`API:           http://localhost:${ports.api}`);
    expect(banner[1]).toBe(`http://localhost:${ports.ui}`);
    expect(banner[2]).toBe(DEV_API_KEY);

    // The worker registers its pollers a moment after the API answers.
    const status = await eventually(async () => {
      const body = await readJson(await api('/status'));
      return body.data?.components?.worker?.status === 'ok' ? body : undefined;
    });
    expect(status.data.components).toMatchObject({ database: { status: 'ok' }, temporal: { status: 'ok' } });

    const uiSettings = await readJson(await fetch(`http://127.0.0.1:${ports.ui}/api/v1/settings`));
    expect(uiSettings.Codec.Endpoint).toBe(`http://localhost:${ports.api}/codec`);

    const createdKey = await readJson(
      await api('/api-keys', {
        method: 'POST',
        body: JSON.stringify({ label: 'kept', roles: ['provider'] }),
      }),
    );
    const caseId = `persisted-${randomUUID()}`;
    await withLocalTemporal(ports.temporal, (client) =>
      client.workflow.start('anyCaseWorkflow', {
        taskQueue: 'nobody-polls-this',
        workflowId: caseId,
        args: [{ note: 'x' }],
      }),
    );

    expect(await first.stop('SIGINT')).toBe(0);
    expect(await portAcceptsConnections(ports.temporal)).toBe(false);
    expect(await portAcceptsConnections(ports.ui)).toBe(false);
    expect(await portAcceptsConnections(ports.api)).toBe(false);

    const second = startProcess('main.local.js', env);
    try {
      await second.waitForOutput(/Dev API key:/);
      const withCreatedKey = await api('/status', {
        headers: { Authorization: `Bearer ${createdKey.data.secret}` },
      });
      expect(withCreatedKey.status).toBe(200);
      const described = await withLocalTemporal(ports.temporal, (client) =>
        client.workflow.getHandle(caseId).describe(),
      );
      expect(described.status.name).toBe('RUNNING');
    } finally {
      expect(await second.stop('SIGINT')).toBe(0);
    }
  });

  it('runs the API and the worker as separate processes, so the API answers while a killed worker is restarted', async () => {
    const local = startProcess('main.local.js', env);
    try {
      const pids = await local.waitForOutput(/Processes:\s+launcher (\d+), api (\d+), worker (\d+)/);
      const [launcherPid, apiPid, workerPid] = pids.slice(1).map(Number) as [number, number, number];
      expect(launcherPid).toBe(local.child.pid);
      expect(new Set([launcherPid, apiPid, workerPid]).size).toBe(3);

      process.kill(workerPid, 'SIGKILL');
      expect((await api('/status')).status).toBe(200);

      const restarted = await local.waitForOutput(
        /"child":"worker","pid":(\d+),"msg":"the worker process restarted"/,
      );
      const restartedPid = Number(restarted[1]);
      expect(restartedPid).not.toBe(workerPid);
      expect(isProcessAlive(restartedPid)).toBe(true);
      expect(isProcessAlive(apiPid)).toBe(true);

      expect(await local.stop('SIGINT')).toBe(0);
      expect(isProcessAlive(restartedPid)).toBe(false);
      expect(isProcessAlive(apiPid)).toBe(false);
    } finally {
      await local.stop('SIGINT');
    }
  });

  it('lets the admin CLI create an account and a key while it runs, and the running API accepts that key', async () => {
    const local = startProcess('main.local.js', env);
    try {
      await local.waitForOutput(/Dev API key:/);
      const admin = (...args: string[]) =>
        runCommand('admin/cli.js', args, { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' });

      const createdAccount = admin('accounts:create', '--name', 'Clinic added while running');
      expect(createdAccount.status).toBe(0);
      const account = JSON.parse(createdAccount.stdout);
      const createdKey = admin('keys:create', '--account', account.id, '--role', 'provider');
      expect(createdKey.status).toBe(0);
      const { secret } = JSON.parse(createdKey.stdout);

      const withNewKey = await api('/status', { headers: { Authorization: `Bearer ${secret}` } });
      expect(withNewKey.status).toBe(200);
    } finally {
      expect(await local.stop('SIGINT')).toBe(0);
    }
  });

  it("prints the development user's console sign-in, whose password and printed code sign in", async () => {
    const local = startProcess('main.local.js', env);
    try {
      const printed = await local.waitForOutput(
        /Console:\s+(\S+)\s+\(sign in: (\S+) \/ (\S+); code: npm run admin -- dev:totp-code\)/,
      );
      const [consoleUrl, email, password] = printed.slice(1) as [string, string, string];
      expect(consoleUrl).toBe(`http://localhost:${ports.api}/console`);
      expect(email).toBe('dev@localhost');

      const form = await fetch(`http://127.0.0.1:${ports.api}/console/sign-in`);
      const cookie = cookiesFrom(form.headers.getSetCookie());
      const signedIn = await fetch(`http://127.0.0.1:${ports.api}/console/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: csrfTokenOf(await form.text()),
          email,
          password,
          next: '/console',
        }),
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('location')).toMatch(/^\/console\/sign-in\/second-factor/);

      const code = runCommand('admin/cli.js', ['dev:totp-code'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      expect(code.status).toBe(0);
      expect(code.stdout.trim()).toMatch(/^\d{6}$/);
      const db = await openDatabase({ databaseUrl: (await servedDatabaseUrl(dataDir))! });
      try {
        const user = await new ConsoleUsersRepository(db).findByEmail(email);
        const encryption = localEncryption(loadConfig('local', { DATA_DIR: dataDir }));
        const secret = new SecretBox(encryption).openText(user!.totp_secret_sealed!);
        expect(acceptedStep(secret, code.stdout.trim(), Date.now(), Number(user!.totp_last_step))).toEqual(
          expect.any(Number),
        );
      } finally {
        await db.close();
      }
    } finally {
      expect(await local.stop('SIGINT')).toBe(0);
    }
  });

  it('stops everything with exit code 1 and says why when the API process cannot start', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(ports.api, '0.0.0.0', resolve));
    try {
      const local = startProcess('main.local.js', env);
      expect(await local.waitForExit()).toBe(1);
      expect(local.output()).toContain('The api process exited (1) before it was ready.');
      expect(await portAcceptsConnections(ports.temporal)).toBe(false);
      expect(await portAcceptsConnections(ports.ui)).toBe(false);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  async function withLocalTemporal<T>(port: number, work: (client: Client) => Promise<T>): Promise<T> {
    const encryption = localEncryption(loadConfig('local', { DATA_DIR: dataDir }));
    const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
    try {
      return await work(new Client({ connection, dataConverter: dataConverter(encryption) }));
    } finally {
      await connection.close();
    }
  }
});
