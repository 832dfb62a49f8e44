import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../project-root';
import { Database, QueryRunner } from './database';

const MIGRATIONS_DIR = path.join(projectRoot(), 'migrations');

// An arbitrary constant: PostgreSQL advisory locks are keyed by a number, and this one is ours.
const MIGRATION_LOCK_KEY = 7_320_451;

export interface Migration {
  version: string;
  sql: string;
}

export function readMigrations(directory = MIGRATIONS_DIR): Migration[] {
  return readdirSync(directory)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: file.replace(/\.sql$/, ''),
      sql: readFileSync(path.join(directory, file), 'utf8'),
    }));
}

/**
 * Applies every migration not yet recorded, each in its own transaction. The API and the workers may
 * start together against one PostgreSQL server, so the run holds an advisory lock.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (db.engine === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const applied = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map(
        (row) => row.version,
      ),
    );
    const newlyApplied: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      newlyApplied.push(migration.version);
    }
    return newlyApplied;
  });
}

/** The newest migration applied to the database; undefined when none is. */
export async function latestAppliedMigration(db: QueryRunner): Promise<string | undefined> {
  const [latest] = await db.query<{ version: string }>(
    'SELECT version FROM schema_migrations ORDER BY version DESC LIMIT 1',
  );
  return latest?.version;
}

/** Extended-protocol queries take one statement each; our migrations keep to plain `;`-terminated DDL. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
