import { spawn } from 'node:child_process';
import * as path from 'node:path';

import { Database, openEmbeddedDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { PgliteServer } from '../../infrastructure/storage/pglite-server';
import { acquireDataFolder, servedDatabaseDir } from '../../src/local/data-folder';
import { DIST } from './processes';

export interface ServedDataFolder {
  /** The embedded database itself, for the test to read between commands. */
  db: Database;
  close(): Promise<void>;
}

/**
 * Holds a data folder and serves its embedded database as the running local service does
 * (src/main.local.ts), so an admin command connects to it rather than opening PGlite itself, which
 * takes it a second or two each time.
 */
export async function serveDataFolder(dataDir: string): Promise<ServedDataFolder> {
  const release = acquireDataFolder(dataDir, 'local');
  const { db, pglite } = await openEmbeddedDatabase(path.join(dataDir, 'pglite'));
  await migrate(db);
  const server = await PgliteServer.listen(pglite, servedDatabaseDir(dataDir));
  return {
    db,
    async close() {
      await server.close();
      await db.close();
      release();
    },
  };
}

/**
 * Runs a compiled command to completion without blocking this process, which may be the one serving
 * the command's database.
 */
export function runCommandBeside(
  entry: string,
  args: string[],
  env: Record<string, string>,
  options: { input?: string; timeoutMs?: number } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(DIST, entry), ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  child.stdin.end(options.input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
