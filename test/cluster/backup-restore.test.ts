import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { postgresBinDir, PostgresServer } from '../../infrastructure/storage/postgres-server';
import { freePort } from '../../infrastructure/temporal/dev-server';
import {
  CASES_NAMESPACE,
  postgresEndpoint,
  ProductionTemporal,
  startProductionTemporal,
  TEMPORAL_DATABASE,
  TEMPORAL_VISIBILITY_DATABASE,
  TemporalBinaries,
} from '../../infrastructure/temporal/production-server';
import {
  accountApi,
  AccountApi,
  CasesAtBackup,
  expectCasesToFinishAfterRestore,
  openCasesForBackup,
  WEBHOOK_SECRET,
} from '../support/backup-journeys';
import { temporalClusterBinaries } from '../support/cluster';
import { RunningProcess, runCommand, startProcess } from '../support/processes';
import { eventually, randomEncryptionKeys } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

/**
 * docs/operations.md's production procedure, as its restore drill runs it: the application's
 * database and Temporal's two, dumped with the writers stopped and restored on a new server.
 */

const postgresBin = postgresBinDir();
const describeWithPostgres = postgresBin ? describe : describe.skip;
if (!postgresBin)
  test.todo('backup and restore of PostgreSQL with Temporal (install PostgreSQL to run it; CI does)');
const APP_DATABASE = 'healthcare_access';
const DATABASES = [APP_DATABASE, TEMPORAL_DATABASE, TEMPORAL_VISIBILITY_DATABASE];
const BINARY_BUILD_MS = 30 * 60_000;
jest.setTimeout(300_000);

/**
 * Long past the seconds from the last review before the backup to the writers stopped, so one case is
 * still waiting on the payer when the databases are dumped; the restored service waits it out once
 * more for the case reviewed after the restore.
 */
const PAYER_POLL_INTERVAL_MS = 10_000;
/**
 * The restored worker takes the cases' next tasks a second after they went to the source worker's
 * sticky queue, which no worker polls any more, rather than Temporal's 10 s.
 */
const STICKY_QUEUE_TIMEOUT_MS = 1_000;

/** What the secret store holds: the same for the service and for its restored copy. */
const secrets = {
  PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
  PATIENT_REF_KEY: randomBytes(32).toString('base64'),
};

interface Service {
  api: AccountApi;
  /** Stops the API, the worker and the Temporal server: every writer of the three databases. */
  stop(): Promise<void>;
}

describeWithPostgres(
  'backing up PostgreSQL with Temporal’s databases and restoring them on a new server',
  () => {
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'haa-pg-backup-'));
    const taskQueue = `backup-${randomUUID()}`;
    let binaries: TemporalBinaries;
    let receiver: TestReceiver;
    let sourcePostgres: PostgresServer | undefined;
    let restoredPostgres: PostgresServer | undefined;
    let source: Service | undefined;
    let restored: Service | undefined;
    let adminKey: string;
    let cases: CasesAtBackup;

    beforeAll(async () => {
      binaries = await temporalClusterBinaries();
      receiver = await new TestReceiver(WEBHOOK_SECRET).start();
      sourcePostgres = await PostgresServer.create(postgresBin!);
      psql(sourcePostgres.databaseUrl, `CREATE DATABASE ${APP_DATABASE}`);
      const env = serviceEnv(sourcePostgres);
      const account = JSON.parse(
        runCommand('admin/cli.js', ['accounts:create', '--name', 'Restored clinic'], env).stdout,
      );
      adminKey = JSON.parse(
        runCommand('admin/cli.js', ['keys:create', '--account', account.id, '--role', 'admin'], env).stdout,
      ).secret;
      source = await startService(sourcePostgres, 'source');
      cases = await openCasesForBackup(source.api, receiver);
    }, BINARY_BUILD_MS);
    afterAll(async () => {
      await source?.stop();
      await restored?.stop();
      await receiver?.stop();
      sourcePostgres?.destroy();
      restoredPostgres?.destroy();
      rmSync(workDir, { recursive: true, force: true });
    });

    it('restores the dumps of the three databases, taken with the writers stopped, where the open cases run to their end', async () => {
      // A payer poll already made would leave the dumps no waiting case to carry on.
      const waiting = await source!.api(`/prior-authorization/${cases.awaitingPayer}`);
      expect(waiting.data.status).toBe('awaiting_outcome');
      await source!.stop();
      source = undefined;
      for (const database of DATABASES) {
        execFileSync(path.join(postgresBin!, 'pg_dump'), [
          '--format=custom',
          '--no-owner',
          `--file=${path.join(workDir, `${database}.dump`)}`,
          databaseUrlOf(sourcePostgres!, database),
        ]);
      }
      // Stopped for good: the restored copy alone continues these cases.
      sourcePostgres!.destroy();
      sourcePostgres = undefined;

      restoredPostgres = await PostgresServer.create(postgresBin!);
      for (const database of DATABASES) {
        psql(restoredPostgres.databaseUrl, `CREATE DATABASE ${database}`);
        execFileSync(path.join(postgresBin!, 'pg_restore'), [
          '--no-owner',
          `--dbname=${databaseUrlOf(restoredPostgres, database)}`,
          path.join(workDir, `${database}.dump`),
        ]);
      }
      const forget = runCommand('admin/cli.js', ['temporal:forget-hosts'], serviceEnv(restoredPostgres));
      expect(JSON.parse(forget.stdout).hosts_forgotten).toBeGreaterThan(0);
      const startedAt = performance.now();
      restored = await startService(restoredPostgres, 'restored');
      process.stdout.write(
        `restored cluster serving ${((performance.now() - startedAt) / 1000).toFixed(1)} s after the restore (drill time to serve)\n`,
      );
      await expectCasesToFinishAfterRestore(restored.api, receiver, cases);
    });

    it("starts the restored Temporal server as a cluster of its own, never trying to join the backed-up cluster's hosts", () => {
      const serverLog = readFileSync(path.join(workDir, 'restored', 'temporal-server.log'), 'utf8');
      expect(serverLog).toContain('Loading config');
      expect(serverLog).not.toContain('unable to bootstrap ringpop');
    });

    it('refuses to forget the hosts of a cluster that is running', () => {
      const forget = runCommand('admin/cli.js', ['temporal:forget-hosts'], serviceEnv(restoredPostgres!));
      expect(forget.status).toBe(2);
      expect(forget.stderr).toContain('A Temporal server still heartbeats');
    });

    function serviceEnv(postgres: PostgresServer, temporalAddress = ''): Record<string, string> {
      return {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        TEMPORAL_ADDRESS: temporalAddress,
        TEMPORAL_NAMESPACE: CASES_NAMESPACE,
        TEMPORAL_TASK_QUEUE: taskQueue,
        DATABASE_URL: databaseUrlOf(postgres, APP_DATABASE),
        WEBHOOK_ALLOWED_TARGETS: '127.0.0.0/8',
        WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '200',
        PAYER_POLL_INTERVAL_MS: String(PAYER_POLL_INTERVAL_MS),
        WORKER_STICKY_QUEUE_TIMEOUT_MS: String(STICKY_QUEUE_TIMEOUT_MS),
        LOG_LEVEL: 'info',
        ...secrets,
      };
    }

    /** Temporal first, then the worker, then the API, as a deploy starts them. */
    async function startService(postgres: PostgresServer, label: string): Promise<Service> {
      const temporal: ProductionTemporal = await startProductionTemporal({
        binaries,
        postgres: postgresEndpoint(postgres.databaseUrl),
        workDir: path.join(workDir, label),
      });
      const port = await freePort();
      const env = { ...serviceEnv(postgres, temporal.address), PORT: String(port) };
      const processes: RunningProcess[] = [startProcess('main.worker.js', env)];
      const stop = async () => {
        for (const running of processes.reverse()) await running.stop('SIGTERM');
        await temporal.stop();
      };
      try {
        await processes[0]!.waitForOutput(/starting worker/);
        processes.push(startProcess('main.api.js', env));
        await processes[1]!.waitForOutput(/API listening/);
        const api = accountApi(`http://127.0.0.1:${port}`, adminKey);
        await eventually(async () => {
          const status = await api('/status');
          return status.data?.components?.worker?.status === 'ok' || undefined;
        }, 60_000);
        return { api, stop };
      } catch (error) {
        await stop();
        throw error;
      }
    }
  },
);

function databaseUrlOf(postgres: PostgresServer, database: string): string {
  return postgres.databaseUrl.replace(/\/postgres$/, `/${database}`);
}

function psql(databaseUrl: string, statement: string): void {
  execFileSync(path.join(postgresBin!, 'psql'), [
    '--no-psqlrc',
    '--quiet',
    '--command',
    statement,
    databaseUrl,
  ]);
}
