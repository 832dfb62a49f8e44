import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort } from '../../infrastructure/temporal/dev-server';
import {
  accountApi,
  AccountApi,
  CasesAtBackup,
  expectCasesToFinishAfterRestore,
  openCasesForBackup,
  WEBHOOK_SECRET,
} from '../support/backup-journeys';
import { JsonObject } from '../support/case-journeys';
import { localModeEnv, RunningProcess, runCommand, startProcess } from '../support/processes';
import { eventually } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

const DEV_API_KEY = `hak_backup_test_${randomUUID().replace(/-/g, '')}`;
/** Starting a local stack on two busy cores and waiting out a payer poll take minutes, not seconds. */
const STACK_TIMEOUT_MS = 300_000;
/**
 * Long past the few seconds from the last review before the backup to the original stack stopped,
 * so one case is still waiting on the payer when it is backed up; the restored stack waits it out
 * once more for the case reviewed after the restore.
 */
const PAYER_POLL_INTERVAL_MS = 10_000;
/**
 * The restored stack's worker takes the cases' next tasks a second after they went to the original
 * worker's sticky queue, which no worker polls any more, rather than Temporal's 10 s.
 */
const STICKY_QUEUE_TIMEOUT_MS = 1_000;

interface LocalStack {
  launcher: RunningProcess;
  api: AccountApi;
}

describe('backing up a local data folder and restoring it into a new one', () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-backup-'));
  const originalDir = path.join(workDir, 'original');
  const backupDir = path.join(workDir, 'backup');
  const restoredDir = path.join(workDir, 'restored');
  let receiver: TestReceiver;
  let original: LocalStack | undefined;
  let restored: LocalStack | undefined;
  let cases: CasesAtBackup;

  const admin = (...args: string[]) =>
    runCommand('admin/cli.js', args, { DATABASE_URL: '', PAYLOAD_ENCRYPTION_KEYS: '', LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    receiver = await new TestReceiver(WEBHOOK_SECRET).start();
    original = await startLocalStack(originalDir);
    cases = await openCasesForBackup(original.api, receiver);
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
      // A payer poll already made would leave the restore no waiting case to carry on.
      const waiting = await original!.api(`/prior-authorization/${cases.awaitingPayer}`);
      expect(waiting.data.status).toBe('awaiting_outcome');
      // Stopped for good: the restored copy alone continues these cases.
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

  it('refuses a damaged backup, naming the file that changed, and leaves the target folder empty', () => {
    const damaged = path.join(workDir, 'damaged-backup');
    cpSync(backupDir, damaged, { recursive: true });
    writeFileSync(path.join(damaged, 'patient-ref-key'), 'not the key that was backed up');
    const target = path.join(workDir, 'restored-from-damaged');

    const attempt = admin('restore', '--from', damaged, '--data-dir', target);
    expect(attempt.status).toBe(2);
    expect(attempt.stderr).toContain('The backup is damaged: patient-ref-key is missing or changed');
    expect(existsSync(target)).toBe(false);
  });

  it(
    'restores into a new folder where, on new ports, the open cases run to their end with their webhooks',
    async () => {
      const restore = admin('restore', '--from', backupDir, '--data-dir', restoredDir);
      expect(restore.status).toBe(0);
      restored = await startLocalStack(restoredDir);
      await expectCasesToFinishAfterRestore(restored.api, receiver, cases);
    },
    STACK_TIMEOUT_MS,
  );

  async function startLocalStack(dataDir: string): Promise<LocalStack> {
    const apiPort = await freePort();
    const ports = { api: apiPort, temporal: await freePort(), ui: await freePort() };
    const launcher = startProcess('main.local.js', {
      ...localModeEnv({ dataDir, ports, devApiKey: DEV_API_KEY }),
      PAYER_POLL_INTERVAL_MS: String(PAYER_POLL_INTERVAL_MS),
      WORKER_STICKY_QUEUE_TIMEOUT_MS: String(STICKY_QUEUE_TIMEOUT_MS),
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '200',
    });
    const api = accountApi(`http://127.0.0.1:${apiPort}`, DEV_API_KEY);
    await launcher.waitForOutput(/Dev API key:/);
    await eventually(async () => {
      const status = await api('/status');
      return status.data?.components?.worker?.status === 'ok' || undefined;
    }, 60_000);
    return { launcher, api };
  }
});
