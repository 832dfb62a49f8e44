import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { LogEntry, MetricsExporterConfig } from '@temporalio/worker';
import type { Logger } from 'pino';

import { AccountsRepository } from '../infrastructure/accounts/accounts.repository';
import type { AppConfig, EncryptionSettings } from '../infrastructure/config/config';
import { ConsoleUsersRepository } from '../infrastructure/console/console-users.repository';
import { SecretBox } from '../infrastructure/crypto/aes-gcm';
import { Database, openDatabase, openEmbeddedDatabase } from '../infrastructure/storage/database';
import { migrate } from '../infrastructure/storage/migrations';
import { generateTotpSecret, totpCode } from './console/people/totp';

export const DEV_ACCOUNT_NAME = 'Development account';
const DEV_KEY_LABEL = 'development key';
export const DEV_USER_EMAIL = 'dev@localhost';
const DEV_USER_NAME = 'Local developer';
const DEV_USER_PASSWORD_FILE = 'dev-console-password';
const DEV_USER_TOTP_FILE = 'dev-console-totp-secret';

/** Opens the configured database (PostgreSQL, else PGlite in the data folder) and migrates it. */
export async function openStorage(config: AppConfig, logger: Logger): Promise<Database> {
  const { databaseUrl } = config;
  if (!databaseUrl) {
    const db = await openDatabase({ pgliteDir: path.join(config.dataDir, 'pglite') });
    await migrateAndReport(db, logger);
    return db;
  }
  // Migrations may build an index on a large table or wait for another process's migration lock, so
  // they run on their own connection without the timeouts that bound requests.
  const migrationDb = await openDatabase({
    databaseUrl,
    timeouts: { ...config.databaseTimeouts, statementMs: 0, queryMs: 0 },
    logger,
  });
  try {
    await migrateAndReport(migrationDb, logger);
  } finally {
    await migrationDb.close();
  }
  return openDatabase({ databaseUrl, timeouts: config.databaseTimeouts, logger });
}

/** Local mode's embedded database, migrated, with the PGlite instance the launcher serves. */
export async function openEmbeddedStorage(
  config: AppConfig,
  logger: Logger,
): Promise<Awaited<ReturnType<typeof openEmbeddedDatabase>>> {
  const embedded = await openEmbeddedDatabase(path.join(config.dataDir, 'pglite'));
  await migrateAndReport(embedded.db, logger);
  return embedded;
}

async function migrateAndReport(db: Database, logger: Logger): Promise<void> {
  const applied = await migrate(db);
  logger.info({ engine: db.engine, migrations_applied: applied }, 'database ready');
}

/** The configuration of local mode's processes, with the keys kept in the data folder. */
export function localRuntimeConfig(config: AppConfig): AppConfig & { encryption: EncryptionSettings } {
  return {
    ...config,
    encryption: localEncryption(config),
    cases: { ...config.cases, patientRefKey: localPatientRefKey(config) },
  };
}

/**
 * Local mode keeps its payload key in the data folder, so a restart reads the cases it wrote.
 * Written once with owner-only permissions; PAYLOAD_ENCRYPTION_KEYS overrides it.
 */
export function localEncryption(config: AppConfig): EncryptionSettings {
  if (config.encryption) return config.encryption;
  const file = path.join(config.dataDir, 'payload-encryption-key.json');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    const created = { keyId: `local-${Date.now()}`, key: randomBytes(32).toString('base64') };
    writeFileSync(file, JSON.stringify(created), { mode: 0o600 });
  }
  const { keyId, key } = JSON.parse(readFileSync(file, 'utf8')) as { keyId: string; key: string };
  return { keys: new Map([[keyId, Buffer.from(key, 'base64')]]), currentKeyId: keyId };
}

/** Local mode's key for the keyed patient reference, kept beside the payload key. */
export function localPatientRefKey(config: AppConfig): Buffer {
  if (config.cases.patientRefKey) return config.cases.patientRefKey;
  const file = path.join(config.dataDir, 'patient-ref-key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/**
 * The development account and its admin key. The key is DEV_API_KEY when set; otherwise one is
 * generated on first start and kept in the data folder so every start can print it.
 */
export async function ensureDevAccount(
  db: Database,
  config: AppConfig,
): Promise<{ accountId: string; apiKey: string }> {
  const accounts = new AccountsRepository(db);
  const keyFile = path.join(config.dataDir, 'dev-api-key');
  let apiKey = config.devApiKey;
  if (!apiKey && existsSync(keyFile)) apiKey = readFileSync(keyFile, 'utf8').trim();

  const existing = apiKey ? await accounts.findActiveKeyBySecret(apiKey) : undefined;
  if (existing) return { accountId: existing.principal.accountId, apiKey: apiKey! };

  const account =
    (await accounts.listAccounts()).find((candidate) => candidate.name === DEV_ACCOUNT_NAME) ??
    (await accounts.createAccount(DEV_ACCOUNT_NAME));
  const created = await accounts.createApiKey({
    accountId: account.id,
    roles: ['admin'],
    label: DEV_KEY_LABEL,
    secret: apiKey,
  });
  if (!config.devApiKey) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(keyFile, created.secret, { mode: 0o600 });
  }
  return { accountId: account.id, apiKey: created.secret };
}

/**
 * The development account's console user, an admin whose second factor is already set up. Its
 * password and TOTP secret are generated on first start and kept in the data folder beside the dev
 * key, so every start prints the same sign-in and `npm run admin -- dev:totp-code` shows the code.
 */
export async function ensureDevConsoleUser(
  db: Database,
  config: AppConfig & { encryption: EncryptionSettings },
  accountId: string,
): Promise<{ email: string; password: string }> {
  const users = new ConsoleUsersRepository(db);
  const passwordFile = path.join(config.dataDir, DEV_USER_PASSWORD_FILE);
  const totpFile = path.join(config.dataDir, DEV_USER_TOTP_FILE);
  const existing = await users.findByEmail(DEV_USER_EMAIL);
  if (existing && existsSync(passwordFile) && existsSync(totpFile)) {
    return { email: DEV_USER_EMAIL, password: readFileSync(passwordFile, 'utf8').trim() };
  }

  // A data folder that lost its files (the database lives elsewhere) gets new ones for the same user.
  const password = randomBytes(18).toString('base64url');
  const totpSecret = generateTotpSecret();
  const user =
    existing ??
    (await users.create({
      accountId,
      email: DEV_USER_EMAIL,
      displayName: DEV_USER_NAME,
      roles: ['admin'],
      password,
    }));
  if (existing) await users.setPassword(existing.id, password);
  // Step 0: no code has been used yet, so the code shown right after the first start signs in.
  await users.replaceTotp(user.id, new SecretBox(config.encryption).sealText(totpSecret), 0);
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(passwordFile, password, { mode: 0o600 });
  writeFileSync(totpFile, totpSecret, { mode: 0o600 });
  return { email: DEV_USER_EMAIL, password };
}

/** The development account with its admin key and its console user, as the launchers print them. */
export async function ensureDevCredentials(
  db: Database,
  config: AppConfig & { encryption: EncryptionSettings },
) {
  const { accountId, apiKey } = await ensureDevAccount(db, config);
  return { accountId, apiKey, consoleUser: await ensureDevConsoleUser(db, config, accountId) };
}

/** The development user's current TOTP code, from the secret kept in the data folder. */
export function devConsoleUserTotpCode(config: AppConfig, atMs = Date.now()): string | undefined {
  const file = path.join(config.dataDir, DEV_USER_TOTP_FILE);
  if (!existsSync(file)) return undefined;
  return totpCode(readFileSync(file, 'utf8').trim(), atMs);
}

/**
 * A production start revokes the admin keys a development start left in the same database, and
 * disables the development console user: their credentials may be pinned in a demo's configuration
 * or printed in a log, so none may outlive the switch to production. Each is logged by id, so an
 * operator can issue a replacement.
 */
export async function revokeDevelopmentCredentials(db: Database, logger: Logger): Promise<string[]> {
  const accounts = new AccountsRepository(db);
  const devAccounts = (await accounts.listAccounts()).filter((account) => account.name === DEV_ACCOUNT_NAME);
  const revoked: string[] = [];
  for (const account of devAccounts) {
    for (const key of await accounts.listApiKeys(account.id)) {
      if (key.label !== DEV_KEY_LABEL || key.revoked_at) continue;
      if (await accounts.revokeApiKey(key.id, account.id)) revoked.push(key.id);
    }
  }
  if (revoked.length > 0) {
    logger.warn(
      { api_key_ids: revoked, account_ids: devAccounts.map((account) => account.id) },
      'revoked development API keys: production accepts only keys made with the admin CLI',
    );
  }

  const users = new ConsoleUsersRepository(db);
  const devUser = await users.findByEmail(DEV_USER_EMAIL);
  const inDevAccount = devAccounts.some((account) => account.id === devUser?.account_id);
  if (devUser && inDevAccount && (await users.disable(devUser.id))) {
    logger.warn(
      { console_user_id: devUser.id, account_id: devUser.account_id },
      'disabled the development console user: production accepts only users made with the admin CLI',
    );
  }
  return revoked;
}

/**
 * Sends the Temporal SDK's own log lines into our JSON log instead of its plain-text console and,
 * given a metrics exporter (workerMetricsExporter), serves the SDK core's worker metrics with it.
 */
export function installTemporalRuntime(logger: Logger, metrics?: MetricsExporterConfig): void {
  // Required here, not at the top: the admin CLI opens storage through this module, and loading the
  // worker SDK cost each of its runs about 0.15 s of CPU.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DefaultLogger, Runtime } = require('@temporalio/worker') as typeof import('@temporalio/worker');
  Runtime.install({
    logger: new DefaultLogger('WARN', forwardTemporalLog(logger)),
    ...(metrics && { telemetryOptions: { metrics } }),
  });
  if (metrics && 'prometheus' in metrics) {
    logger.info({ address: metrics.prometheus.bindAddress }, 'metrics listening');
  }
}

/** Metadata keys of SDK log entries that name things (ids, types) and never carry case data. */
const SAFE_SDK_LOG_KEYS = [
  'sdkComponent',
  'taskQueue',
  'namespace',
  'workflowType',
  'workflowId',
  'runId',
  'activityType',
  'attempt',
];

/**
 * The SDK attaches the failed workflow's or activity's error to its entries, and error messages can
 * quote patient data, so only the whitelisted metadata and the SDK's own fixed message pass.
 */
export function forwardTemporalLog(logger: Logger): (entry: LogEntry) => void {
  return (entry) => {
    const kept: Record<string, unknown> = { component: 'temporal-sdk' };
    for (const key of SAFE_SDK_LOG_KEYS) if (entry.meta?.[key] !== undefined) kept[key] = entry.meta[key];
    if (entry.meta?.error instanceof Error) kept.err_name = entry.meta.error.name;
    logger[entry.level === 'ERROR' ? 'error' : 'warn'](kept, entry.message);
  };
}
