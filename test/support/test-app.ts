import { randomBytes } from 'node:crypto';

import { INestApplication } from '@nestjs/common';
import { Client } from '@temporalio/client';
import pino from 'pino';
import request from 'supertest';

import { Role } from '../../domain/accounts/roles';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { AppConfig, loadConfig } from '../../infrastructure/config/config';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { connectClient } from '../../infrastructure/temporal/temporal-connection';
import { createApp } from '../../src/app/create-app';
import { testEnvironment } from '../harness/environment';
import { provider } from './case-requests';
import { openMigratedMemoryDatabase } from './migrated-database';
import { authorizedPrescriber } from './provider-authorizations';
import { PublishedAnswers, recordExamples } from './published-answers';
import { startTestWorker, TestWorker } from './workers';

export function randomEncryptionKeys(keyId = 'test-key'): string {
  return `${keyId}:${randomBytes(32).toString('base64')}`;
}

/** Connector calls tried twice, 100 ms apart, instead of ten times over five minutes. */
export const QUICK_CONNECTOR_RETRIES: Record<string, string> = {
  CONNECTOR_RETRY_INITIAL_INTERVAL_MS: '100',
  CONNECTOR_RETRY_MAX_INTERVAL_MS: '200',
  CONNECTOR_RETRY_MAX_ATTEMPTS: '2',
};

/** A scale-mode configuration pointed at this run's dev server, with a fresh encryption key. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  const { temporalAddress, namespace } = testEnvironment();
  return loadConfig('api', {
    NODE_ENV: 'test',
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: namespace,
    PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
    PATIENT_REF_KEY: randomBytes(32).toString('base64'),
    TEMPORAL_TASK_QUEUE: `test-${randomBytes(6).toString('hex')}`,
    WEBHOOK_ALLOWED_TARGETS: '127.0.0.0/8,::1/128',
    LOG_LEVEL: 'silent',
    // A connector call's retries run out in about a second rather than five minutes; a test that
    // plays an outage sees the case show attention at once (docs/testing.md, "Time is a setting").
    ...QUICK_CONNECTOR_RETRIES,
    // Live mode's NPI registry refuses at once unless a test names one: no test reaches NPPES itself.
    NPI_REGISTRY_URL: 'https://127.0.0.1:9/api',
    ...env,
  });
}

export interface TestAccount {
  accountId: string;
  keys: Record<Role, string>;
}

export interface TestApp {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  db: Database;
  accounts: AccountsRepository;
  temporalClient: Client;
  config: AppConfig;
  /** A fresh account with one key per role. */
  createAccount(name?: string): Promise<TestAccount>;
  /** One live key per role, made the way the admin CLI makes an account's first live keys. */
  /**
   * Live keys of each role for the account. Unless told not to, the test prescriber (`provider` of
   * case-requests.ts) has a signed authorization in live mode, where enforcement is on by default:
   * suites about something else create live BVs and PAs in that prescriber's name.
   */
  createLiveKeys(
    accountId: string,
    options?: { authorizeTestPrescriber?: boolean },
  ): Promise<Record<Role, string>>;
  /** A fresh account whose admin key is live, as changing what live data reaches needs. */
  createAccountWithLiveAdmin(name?: string): Promise<TestAccount>;
  /** A worker with the production workflows on this app's task queue, database and client. */
  startWorker(): Promise<TestWorker>;
  close(): Promise<void>;
}

/** The app's database setting: PGlite, or the PostgreSQL server TEST_DATABASE_URL names (CI sets it). */
export const TEST_DATABASE: Record<string, string> = process.env.TEST_DATABASE_URL
  ? { DATABASE_URL: process.env.TEST_DATABASE_URL }
  : {};

/** The real Nest app on an in-memory PGlite and this run's Temporal server. */
export async function startTestApp(
  env: Record<string, string> = {},
  /** Keeps the keys and database of an app that stopped, as a restarted process would. */
  reuse?: { config: AppConfig; db: Database },
): Promise<TestApp> {
  const config = reuse ? { ...reuse.config, temporal: testConfig(env).temporal } : testConfig(env);
  // DATABASE_URL shares the database with worker processes; otherwise a private in-memory PGlite.
  const db =
    reuse?.db ??
    (config.databaseUrl
      ? await openDatabase({ databaseUrl: config.databaseUrl })
      : await openMigratedMemoryDatabase());
  await migrate(db);
  const temporalClient = await connectClient(config.temporal, config.encryption!);
  const app = await createApp({ config, db, temporalClient, logger: pino({ level: 'silent' }) });
  const accounts = new AccountsRepository(db);
  const answers = new PublishedAnswers((await request(app.getHttpServer()).get('/openapi.json')).body);
  answers.watch(app.getHttpServer());
  const testApp: TestApp = {
    app,
    http: () => request(app.getHttpServer()),
    db,
    accounts,
    temporalClient,
    config,
    async createAccount(name = 'Test clinic') {
      const account = await accounts.createAccount(name);
      const keys = {} as Record<Role, string>;
      for (const role of ['provider', 'reviewer', 'admin'] as const) {
        keys[role] = (
          await accounts.createApiKey({ accountId: account.id, roles: [role], label: role })
        ).secret;
      }
      return { accountId: account.id, keys };
    },
    async createLiveKeys(accountId, { authorizeTestPrescriber = true } = {}) {
      const keys = {} as Record<Role, string>;
      for (const role of ['provider', 'reviewer', 'admin'] as const) {
        const live = { accountId, roles: [role], label: `live ${role}`, mode: 'live' as const };
        keys[role] = (await accounts.createApiKey(live)).secret;
      }
      if (authorizeTestPrescriber) await authorizedPrescriber(db, accountId, true, provider);
      return keys;
    },
    async createAccountWithLiveAdmin(name) {
      const account = await testApp.createAccount(name);
      const { admin } = await testApp.createLiveKeys(account.accountId);
      return { ...account, keys: { ...account.keys, admin } };
    },
    startWorker() {
      return startTestWorker({ config, db, temporalClient });
    },
    async close() {
      await app.close();
      await temporalClient.connection.close();
      await db.close();
      if (process.env.RECORD_ANSWER_EXAMPLES)
        recordExamples(process.env.RECORD_ANSWER_EXAMPLES, answers.examples);
      if (answers.violations.length > 0) {
        throw new Error(`Answers broke their published schemas:\n${answers.violations.join('\n')}`);
      }
    },
  };
  return testApp;
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Polls until `check` returns a value, failing after `timeoutMs`: tests never sleep blindly. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}
