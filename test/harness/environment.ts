import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** What global setup hands to every test file: the one dev server and workflow bundle of this run. */
export interface TestEnvironmentInfo {
  temporalAddress: string;
  temporalDbFile: string;
  temporalBinary: string;
  workDir: string;
  /** The production workflows, bundled once for every worker of the run. */
  workflowBundlePath: string;
  /** The PostgreSQL server CI starts (TEST_DATABASE_URL), before each jest worker gets its own database. */
  sharedDatabaseUrl?: string;
  /** Names this run's databases on that server, so two runs against one server never share one. */
  runId: string;
  /** How many jest workers the run has, each with its namespace and database. */
  workers: number;
}

/** As global setup wrote it, plus what belongs to the jest worker reading it. */
export interface TestWorkerEnvironment extends TestEnvironmentInfo {
  /** This jest worker's namespace: suites side by side never see each other's workflows. */
  namespace: string;
}

export const ENVIRONMENT_FILE = path.join(os.tmpdir(), `healthcare-access-api-tests-${process.ppid}.json`);

/** Jest numbers its workers from 1; a run in band is worker 1. */
export const jestWorkerId = (): number => Number(process.env.JEST_WORKER_ID ?? '1');

export const namespaceOfWorker = (worker: number): string => `test-worker-${worker}`;

export const databaseOfWorker = (runId: string, worker: number): string =>
  `haa_test_${runId}_worker_${worker}`;

/** The server's URL with its database swapped for the one `database` names. */
export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function testEnvironment(): TestWorkerEnvironment {
  const file = process.env.HAA_TEST_ENVIRONMENT_FILE ?? ENVIRONMENT_FILE;
  const info = JSON.parse(readFileSync(file, 'utf8')) as TestEnvironmentInfo;
  return { ...info, namespace: namespaceOfWorker(jestWorkerId()) };
}
