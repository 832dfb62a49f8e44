import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import type { AppConfig } from '../../infrastructure/config/config';
import { openDatabase } from '../../infrastructure/storage/database';
import { latestAppliedMigration, readMigrations } from '../../infrastructure/storage/migrations';
import { acquireDataFolder, DataFolderBusyError } from '../local/data-folder';
import { CommandRefusal, exitTwoOnRefusal, requiredFlag } from './operator-commands';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TEMPORAL_CLI_VERSION } = require(path.join(projectRoot(), 'scripts', 'ensure-temporal.js')) as {
  TEMPORAL_CLI_VERSION: string;
};

export const BACKUP_USAGE = `  backup --data-dir DIR --to BACKUP_DIR            copy local mode's data folder (database, Temporal's
                                                   SQLite file, payload and patient-reference keys)
                                                   into a new folder with a manifest; the local
                                                   service must be stopped for the copy to be whole
  restore --from BACKUP_DIR --data-dir NEW_DIR      check a backup and restore it into an empty folder;
                                                   start local mode on NEW_DIR (any ports) afterwards`;

export const BACKUP_OPTIONS = {
  'data-dir': { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
} as const;

export interface BackupFlags {
  'data-dir'?: string;
  to?: string;
  from?: string;
}

const MANIFEST_FILE = 'backup-manifest.json';
const MANIFEST_FORMAT = 'healthcare-access-api/local-backup';
const MANIFEST_FORMAT_VERSION = 1;

/**
 * What a data folder holds that a restore needs. The lock file, the database socket folder and
 * the Temporal server's log belong to one run and are left out.
 */
const DATABASE_DIR = 'pglite';
const TEMPORAL_FILES = ['temporal.db', 'temporal.db-wal', 'temporal.db-shm'];
/** Without the payload key nothing sealed in the backup can be read again. */
const PAYLOAD_KEY_FILE = 'payload-encryption-key.json';
const KEY_FILES = [PAYLOAD_KEY_FILE, 'patient-ref-key'];
const DEV_CREDENTIAL_FILES = ['dev-api-key', 'dev-console-password', 'dev-console-totp-secret'];
const BACKED_UP_ENTRIES = [DATABASE_DIR, ...TEMPORAL_FILES, ...KEY_FILES, ...DEV_CREDENTIAL_FILES];

interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  format_version: number;
  created_at: string;
  app_version: string;
  temporal_cli_version: string;
  /** The last migration the database had applied: a restore refuses a schema newer than its code. */
  schema_version: string;
  /** `included`: the key file is in the backup. `external`: PAYLOAD_ENCRYPTION_KEYS held it, kept elsewhere. */
  payload_key: 'included' | 'external';
  files: ManifestFile[];
}

/** Runs backup or restore; a refusal (service running, folder not empty, newer schema) exits 2 saying why. */
export async function runBackupCommand(
  command: 'backup' | 'restore',
  flags: BackupFlags,
  context: { config: AppConfig; print: (value: unknown) => void },
): Promise<number> {
  return exitTwoOnRefusal(() => run(command, flags, context));
}

async function run(
  command: 'backup' | 'restore',
  flags: BackupFlags,
  context: { config: AppConfig; print: (value: unknown) => void },
): Promise<number> {
  const dataDir = path.resolve(requiredFlag(flags['data-dir'], '--data-dir'));
  if (command === 'backup') {
    const manifest = await backUp(dataDir, path.resolve(requiredFlag(flags.to, '--to')), context.config);
    context.print(manifest);
    process.stderr.write(
      manifest.payload_key === 'included'
        ? 'The backup holds the payload key: anyone with it reads every case. Keep it as you keep the key.\n'
        : 'PAYLOAD_ENCRYPTION_KEYS holds the payload keys, so the backup does not: keep them with it, or it cannot be read.\n',
    );
    return 0;
  }
  const manifest = await restore(path.resolve(requiredFlag(flags.from, '--from')), dataDir);
  context.print(manifest);
  process.stderr.write(`Restored into ${dataDir}: start local mode there (DATA_DIR=${dataDir} npm start).\n`);
  return 0;
}

/**
 * PGlite and the Temporal dev server's SQLite file are each written by one process and cannot be
 * copied whole while it runs, so the backup holds the data folder as the service does: nothing
 * else can start on it until the copy is done.
 */
async function backUp(dataDir: string, target: string, config: AppConfig): Promise<BackupManifest> {
  if (!existsSync(path.join(dataDir, DATABASE_DIR))) {
    throw new CommandRefusal(`${dataDir} holds no local-mode data folder (no ${DATABASE_DIR}/)`);
  }
  requireEmptyFolder(target, '--to');
  return copyWhileHoldingDataFolder(dataDir, 'back it up', target, async () => {
    mkdirSync(target, { recursive: true, mode: 0o700 });
    copyEntries(dataDir, target);
    if (!existsSync(path.join(target, 'temporal.db'))) {
      throw new CommandRefusal(`${dataDir} holds no temporal.db: its cases ran on another Temporal server`);
    }
    // Read from the copy: it proves the copied database opens, and leaves the original untouched.
    const schemaVersion = await appliedSchemaVersion(path.join(target, DATABASE_DIR));
    const manifest: BackupManifest = {
      format: MANIFEST_FORMAT,
      format_version: MANIFEST_FORMAT_VERSION,
      created_at: new Date().toISOString(),
      app_version: appVersion(),
      temporal_cli_version: TEMPORAL_CLI_VERSION,
      schema_version: schemaVersion,
      payload_key:
        existsSync(path.join(target, PAYLOAD_KEY_FILE)) && !config.encryption ? 'included' : 'external',
      files: filesOf(target),
    };
    writeFileSync(path.join(target, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    return manifest;
  });
}

/** Checks the whole backup before writing anything, then copies it into a folder no service uses. */
async function restore(source: string, dataDir: string): Promise<BackupManifest> {
  const manifest = readManifest(source);
  const known = readMigrations().map((migration) => migration.version);
  if (!known.includes(manifest.schema_version)) {
    throw new CommandRefusal(
      `The backup's database schema (${manifest.schema_version}) is newer than this release knows ` +
        `(${known.at(-1)}): restore it with the release that made it (${manifest.app_version}) or a later one`,
    );
  }
  for (const file of manifest.files) {
    const copy = path.join(source, file.path);
    if (!existsSync(copy) || sha256(copy) !== file.sha256) {
      throw new CommandRefusal(`The backup is damaged: ${file.path} is missing or changed`);
    }
  }
  requireEmptyFolder(dataDir, '--data-dir');
  return copyWhileHoldingDataFolder(dataDir, 'restore into it', dataDir, () => {
    copyEntries(source, dataDir);
    chmodSync(dataDir, 0o700);
    for (const file of [...KEY_FILES, ...DEV_CREDENTIAL_FILES]) {
      if (existsSync(path.join(dataDir, file))) chmodSync(path.join(dataDir, file), 0o600);
    }
    if (manifest.payload_key === 'external') {
      process.stderr.write(
        'This backup holds no payload key: start with PAYLOAD_ENCRYPTION_KEYS as it was.\n',
      );
    }
    return manifest;
  });
}

/**
 * Copies into `destination` while no service can start on the data folder; a copy that fails leaves
 * `destination` empty again for the next try.
 */
async function copyWhileHoldingDataFolder<T>(
  dataDir: string,
  purpose: string,
  destination: string,
  copy: () => T | Promise<T>,
): Promise<T> {
  const release = holdDataFolder(dataDir, purpose);
  try {
    return await copy();
  } catch (error) {
    removeEntries(destination);
    throw error;
  } finally {
    release();
  }
}

/** Whole folders, empty ones included: PostgreSQL's data folder needs its empty directories. */
function copyEntries(from: string, to: string): void {
  for (const entry of BACKED_UP_ENTRIES) {
    if (existsSync(path.join(from, entry))) {
      cpSync(path.join(from, entry), path.join(to, entry), { recursive: true });
    }
  }
}

/** What a failed backup or restore had copied, so the folder is empty again for the next try. */
function removeEntries(folder: string): void {
  for (const entry of [...BACKED_UP_ENTRIES, MANIFEST_FILE]) {
    rmSync(path.join(folder, entry), { recursive: true, force: true });
  }
}

function holdDataFolder(dataDir: string, purpose: string): () => void {
  try {
    return acquireDataFolder(dataDir, 'admin');
  } catch (error) {
    if (error instanceof DataFolderBusyError && error.holder === 'local') {
      throw new CommandRefusal(
        `The local service is running (pid ${error.pid}) on ${dataDir}: stop it (Ctrl-C) to ${purpose}, ` +
          'then start it again; its database and Temporal file cannot be copied whole while it writes them',
      );
    }
    throw error;
  }
}

function requireEmptyFolder(folder: string, flag: string): void {
  if (existsSync(folder) && (!statSync(folder).isDirectory() || readdirSync(folder).length > 0)) {
    throw new CommandRefusal(`${flag} must name a new or empty folder: ${folder} is not empty`);
  }
}

function readManifest(source: string): BackupManifest {
  const file = path.join(source, MANIFEST_FILE);
  if (!existsSync(file)) throw new CommandRefusal(`${source} holds no ${MANIFEST_FILE}: not a backup`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== MANIFEST_FORMAT || manifest.format_version > MANIFEST_FORMAT_VERSION) {
    throw new CommandRefusal(`${file} is not a backup this release can read`);
  }
  return manifest;
}

async function appliedSchemaVersion(pgliteDir: string): Promise<string> {
  const db = await openDatabase({ pgliteDir });
  try {
    const latest = await latestAppliedMigration(db);
    if (!latest) throw new CommandRefusal('The database has no migrations applied: nothing to back up');
    return latest;
  } finally {
    await db.close();
  }
}

/** Every file of the backup, with its digest, so a restore notices a damaged or partial copy. */
function filesOf(root: string, folder = ''): ManifestFile[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) return filesOf(root, relative);
      const full = path.join(root, relative);
      return [{ path: relative, bytes: statSync(full).size, sha256: sha256(full) }];
    });
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function appVersion(): string {
  return (JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string })
    .version;
}
