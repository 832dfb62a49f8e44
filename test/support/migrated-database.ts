import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { Database, openDatabase, openEmbeddedDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { testEnvironment } from '../harness/environment';

/**
 * Puts an embedded database, created and migrated, in the data folder, as local mode's first start
 * leaves it. Creating a PGlite database and applying every migration took 14 s of CPU on a busy
 * two-core machine; the first suite of a run does it once in the run's work folder, from the
 * in-memory suites' dump, and the others copy its 28 MB in a tenth of a second.
 */
export async function placeMigratedDatabase(dataDir: string): Promise<void> {
  const template = path.join(testEnvironment().workDir, 'migrated-pglite');
  if (!existsSync(template)) {
    const building = mkdtempSync(`${template}-`);
    const db = await openDatabase({
      pgliteDir: building,
      pgliteFrom: new Blob([readFileSync(migratedDump())]),
    });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    try {
      renameSync(building, template);
    } catch {
      // A suite beside this one placed its template first: both hold the same migrations.
      rmSync(building, { recursive: true, force: true });
    }
  }
  cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
}

/**
 * A database in memory, created and migrated, as a test app or a repository test opens one: from the
 * dump global setup made, for about 1 s where creating PGlite's catalog costs about 2.5 s of CPU.
 * Callers still migrate, which finds nothing to do.
 */
export async function openMigratedMemoryDatabase(): Promise<Database> {
  return openDatabase({ pgliteDir: 'memory://', pgliteFrom: new Blob([readFileSync(migratedDump())]) });
}

/**
 * Creates and migrates a database in memory and writes its dump where the suites read it. Global
 * setup does it once per run beside bundling the workflows, where each jest worker's first suite did
 * it at once on a machine already busy starting them.
 */
export async function writeMigratedDump(workDir: string): Promise<void> {
  const { db, pglite } = await openEmbeddedDatabase('memory://');
  try {
    await migrate(db);
    writeFileSync(dumpIn(workDir), Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await db.close();
  }
}

const dumpIn = (workDir: string): string => path.join(workDir, 'migrated-pglite.tar');

function migratedDump(): string {
  return dumpIn(testEnvironment().workDir);
}
