import { Database, openDatabase } from '../../infrastructure/storage/database';
import { openMigratedMemoryDatabase } from './migrated-database';

/** An engine's name, for the suite's title, and how to open a fresh database on it. */
export type DatabaseEngine = [name: string, open: () => Promise<Database>];

/**
 * The engines a repository's tests run on, for `describe.each`: embedded PGlite always, and a real
 * PostgreSQL server whenever TEST_DATABASE_URL names one (CI starts one), so that the same tests
 * prove the SQL portable between the two engines the service runs on. Without a server, a todo named
 * after `subject` says what the run left out, so a local run cannot pass for a full one.
 */
export function databaseEngines(subject: string): DatabaseEngine[] {
  const engines: DatabaseEngine[] = [['PGlite', openMigratedMemoryDatabase]];
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl) {
    engines.push(['PostgreSQL', () => openDatabase({ databaseUrl })]);
  } else {
    test.todo(`${subject} on PostgreSQL (set TEST_DATABASE_URL to run it; CI does)`);
  }
  return engines;
}
