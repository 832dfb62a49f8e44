import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { Database, openDatabase, openEmbeddedDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { testEnvironment } from '../harness/environment';

/**
 * Puts an embedded database, created and migrated, in the data folder, as local mode's first start
 * leaves it. Creating a PGlite database and applying every migration took 14 s of CPU on a busy
 * two-core machine; the first suite of a run does it once in the run's work folder, from the
 * in-memory suites' dump when one is there already, and the others copy its 28 MB in a tenth of a
 * second.
 */
export async function placeMigratedDatabase(dataDir: string): Promise<void> {
  const template = path.join(testEnvironment().workDir, 'migrated-pglite');
  if (!existsSync(template)) {
    const building = mkdtempSync(`${template}-`);
    const dump = migratedDump();
    const db = await openDatabase({
      pgliteDir: building,
      ...(existsSync(dump) && { pgliteFrom: new Blob([readFileSync(dump)]) }),
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
 * A database in memory, created and migrated, as a test app or a repository test opens one. Creating
 * PGlite's catalog costs about 2.5 s of CPU, most of a suite's start; the first suite of a run dumps
 * its migrated database in the run's work folder, and every later one starts from that dump for about
 * 1 s. Callers still migrate, which finds nothing to do.
 */
export async function openMigratedMemoryDatabase(): Promise<Database> {
  const dump = migratedDump();
  if (existsSync(dump)) {
    return openDatabase({ pgliteDir: 'memory://', pgliteFrom: new Blob([readFileSync(dump)]) });
  }
  const { db, pglite } = await openEmbeddedDatabase('memory://');
  try {
    await migrate(db);
    const building = `${dump}-${process.pid}`;
    writeFileSync(building, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    // A suite beside this one may have renamed its own first: both hold the same migrations.
    renameSync(building, dump);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

function migratedDump(): string {
  return path.join(testEnvironment().workDir, 'migrated-pglite.tar');
}
