import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from '../harness/environment';
import { JsonObject } from '../support/case-journeys';
import { benefitVerificationRequest, priorAuthorizationRequest } from '../support/case-requests';
import { readJson, RunningProcess, runCommand, startProcess } from '../support/processes';
import { eventually } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

const DEV_API_KEY = `hak_backup_test_${randomUUID().replace(/-/g, '')}`;
const WEBHOOK_SECRET = 'whsec_backup_restore_0000001';
const PRIOR_AUTHORIZATION = '/prior-authorization';
const PRIOR_AUTHORIZATION_STATUSES = ['processing', 'awaiting_review', 'awaiting_outcome', 'completed'];

/** Starting a local stack on two busy cores and waiting out a payer poll take minutes, not seconds. */
const STACK_TIMEOUT_MS = 300_000;

interface LocalStack {
  launcher: RunningProcess;
  api(route: string, init?: RequestInit): Promise<JsonObject>;
}

describe('backing up a local data folder and restoring it into a new one', () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-backup-'));
  const originalDir = path.join(workDir, 'original');
  const backupDir = path.join(workDir, 'backup');
  const restoredDir = path.join(workDir, 'restored');
  let receiver: TestReceiver;
  let original: LocalStack | undefined;
  let restored: LocalStack | undefined;
  const cases = { closed: '', awaitingReview: '', awaitingPayer: '' };

  const admin = (...args: string[]) =>
    runCommand('admin/cli.js', args, { DATABASE_URL: '', PAYLOAD_ENCRYPTION_KEYS: '', LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    receiver = await new TestReceiver(WEBHOOK_SECRET).start();
    original = await startLocalStack(originalDir);
    const endpoint = await original.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        name: 'clinic',
        url: receiver.url,
        secret: WEBHOOK_SECRET,
        events: ['prior_authorization.updated', 'benefit_verification.updated'],
      }),
    });
    receiver.endpointIds.add(endpoint.data.id);
    await original.api(`/webhooks/${endpoint.data.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ active: true }),
    });
    await waitForStatus(original, '/webhooks', endpoint.data.id, 'active');

    const bv = await original.api('/benefit-verification', {
      method: 'POST',
      body: JSON.stringify(benefitVerificationRequest()),
    });
    cases.closed = bv.data.id;
    await waitForStatus(original, '/benefit-verification', cases.closed, 'completed');

    for (const name of ['awaitingReview', 'awaitingPayer'] as const) {
      const created = await original.api(PRIOR_AUTHORIZATION, {
        method: 'POST',
        body: JSON.stringify(priorAuthorizationRequest()),
      });
      cases[name] = created.data.id;
      await waitForStatus(original, PRIOR_AUTHORIZATION, cases[name], 'awaiting_review');
    }
    const reviewed = await original.api(`${PRIOR_AUTHORIZATION}/${cases.awaitingPayer}/review`, {
      method: 'POST',
      body: JSON.stringify({ decision: 'approve', reviewer: 'Dr. Before' }),
    });
    // The payer is asked once PAYER_POLL_INTERVAL_MS has passed, long after the backup is taken.
    expect(reviewed.data.status).toBe('awaiting_outcome');
  }, STACK_TIMEOUT_MS);
  afterAll(async () => {
    await original?.launcher.stop('SIGINT');
    await restored?.launcher.stop('SIGINT');
    await receiver.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('refuses to back up while the local service runs, saying to stop it', () => {
    const attempt = admin('backup', '--data-dir', originalDir, '--to', backupDir);
    expect(attempt.status).toBe(2);
    expect(attempt.stderr).toContain('The local service is running');
    expect(attempt.stderr).toContain('stop it');
  });

  it(
    'backs up the stopped folder with its payload key and a manifest of its schema',
    async () => {
      expect(await original!.launcher.stop('SIGINT')).toBe(0);
      original = undefined;

      const backup = admin('backup', '--data-dir', originalDir, '--to', backupDir);
      expect(backup.status).toBe(0);
      const manifest = JSON.parse(backup.stdout);
      const storedManifest = readFileSync(path.join(backupDir, 'backup-manifest.json'), 'utf8');
      expect(JSON.parse(storedManifest)).toEqual(manifest);
      expect(manifest).toMatchObject({
        format: 'healthcare-access-api/local-backup',
        payload_key: 'included',
        schema_version: expect.stringMatching(/^\d{4}_/),
      });
      expect(manifest.files.map((file: JsonObject) => file.path)).toEqual(
        expect.arrayContaining(['payload-encryption-key.json', 'patient-ref-key', 'temporal.db']),
      );
      expect(backup.stderr).toContain('The backup holds the payload key');
    },
    STACK_TIMEOUT_MS,
  );

  it('refuses to restore into a folder that is not empty', () => {
    const attempt = admin('restore', '--from', backupDir, '--data-dir', originalDir);
    expect(attempt.status).toBe(2);
    expect(attempt.stderr).toContain('must name a new or empty folder');
  });

  it('refuses a backup whose schema is newer than this release knows', () => {
    const fromTheFuture = path.join(workDir, 'backup-from-a-newer-release');
    cpSync(backupDir, fromTheFuture, { recursive: true });
    const manifestFile = path.join(fromTheFuture, 'backup-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, schema_version: '9999_from_a_later_release' }));

    const attempt = admin('restore', '--from', fromTheFuture, '--data-dir', path.join(workDir, 'never-made'));
    expect(attempt.status).toBe(2);
    expect(attempt.stderr).toContain('newer than this release knows');
  });

  it(
    'restores into a new folder where, on new ports, the open cases run to their end with their webhooks',
    async () => {
      const restore = admin('restore', '--from', backupDir, '--data-dir', restoredDir);
      expect(restore.status).toBe(0);
      restored = await startLocalStack(restoredDir);

      const closed = await restored.api(`/benefit-verification/${cases.closed}`);
      expect(closed.data).toMatchObject({ id: cases.closed, status: 'completed' });

      const stillWaiting = await restored.api(`${PRIOR_AUTHORIZATION}/${cases.awaitingReview}`);
      expect(stillWaiting.data.status).toBe('awaiting_review');
      const reviewed = await restored.api(`${PRIOR_AUTHORIZATION}/${cases.awaitingReview}/review`, {
        method: 'POST',
        body: JSON.stringify({ decision: 'approve', reviewer: 'Dr. After' }),
      });
      expect(reviewed.data.status).toBe('awaiting_outcome');

      for (const id of [cases.awaitingReview, cases.awaitingPayer]) {
        const finished = await waitForStatus(restored, PRIOR_AUTHORIZATION, id, 'completed');
        expect(finished.status_history.map((change: JsonObject) => change.status)).toEqual(
          PRIOR_AUTHORIZATION_STATUSES,
        );
        const announced = await eventually(async () => {
          const received = receivedFor(id);
          return received.some((event) => event.data.status === 'completed') ? received : undefined;
        }, 60_000);
        expect([...new Set(announced.map((event) => event.data.status))]).toEqual(
          PRIOR_AUTHORIZATION_STATUSES,
        );
        expect([...new Set(announced.map((event) => event.data.sequence))]).toEqual([1, 2, 3, 4]);
        // A notification sent again after the restore carries the event id it had before.
        for (const sequence of [1, 2, 3, 4]) {
          const ids = new Set(announced.filter((event) => event.data.sequence === sequence).map((e) => e.id));
          expect(ids.size).toBe(1);
        }
      }
      expect(receiver.rejections).toEqual([]);
    },
    STACK_TIMEOUT_MS,
  );

  function receivedFor(caseId: string): JsonObject[] {
    return (receiver.notifications as JsonObject[])
      .filter((notification) => notification.data.id === caseId)
      .sort((a, b) => a.data.sequence - b.data.sequence);
  }

  async function startLocalStack(dataDir: string): Promise<LocalStack> {
    const apiPort = await freePort();
    const launcher = startProcess('main.local.js', {
      DATA_DIR: dataDir,
      PORT: String(apiPort),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      TEMPORAL_CLI_PATH: testEnvironment().temporalBinary,
      DEV_API_KEY,
      LOG_LEVEL: 'warn',
      TEMPORAL_ADDRESS: '',
      DATABASE_URL: '',
      PAYLOAD_ENCRYPTION_KEYS: '',
      PAYER_POLL_INTERVAL_MS: '20000',
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '200',
    });
    const stack: LocalStack = {
      launcher,
      api: async (route, init = {}) =>
        readJson(
          await fetch(`http://127.0.0.1:${apiPort}${route}`, {
            ...init,
            headers: { Authorization: `Bearer ${DEV_API_KEY}`, 'Content-Type': 'application/json' },
          }),
        ),
    };
    await launcher.waitForOutput(/Dev API key:/);
    await eventually(async () => {
      const status = await stack.api('/status');
      return status.data?.components?.worker?.status === 'ok' || undefined;
    }, 60_000);
    return stack;
  }

  async function waitForStatus(stack: LocalStack, route: string, id: string, status: string) {
    return eventually(async () => {
      const body = await stack.api(`${route}/${id}`);
      return body.data?.status === status ? (body.data as JsonObject) : undefined;
    }, 90_000);
  }
});
