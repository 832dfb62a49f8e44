import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { socketDatabaseUrl, SOCKET_FILE } from '../../infrastructure/storage/pglite-server';

/** Who holds the data folder: the local service, or an admin command working on it directly. */
export type DataFolderHolder = 'local' | 'admin';

const LOCK_FILE = 'local.pid';

/** Where the local service serves its embedded database: an owner-only folder inside DATA_DIR. */
export function servedDatabaseDir(dataDir: string): string {
  return path.join(dataDir, 'db-socket');
}

export class DataFolderBusyError extends Error {
  constructor(
    readonly holder: DataFolderHolder,
    readonly pid: number,
    dataDir: string,
  ) {
    super(
      holder === 'local'
        ? `The local service is already running (pid ${pid}) on ${dataDir}; stop it first.`
        : `An admin command (pid ${pid}) is working on ${dataDir}; try again when it has finished.`,
    );
  }
}

/**
 * PGlite and the Temporal dev server's SQLite file admit one process at a time; a second one would
 * corrupt them. The lock is created exclusively, so two processes starting together cannot both win.
 */
export function acquireDataFolder(dataDir: string, holder: DataFolderHolder): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, LOCK_FILE);
  const current = dataFolderHolder(dataDir);
  if (current) throw new DataFolderBusyError(current.holder, current.pid, dataDir);
  // Whatever lock is left belongs to a process that has died.
  rmSync(lockFile, { force: true });
  try {
    writeFileSync(lockFile, `${process.pid}\n${holder}\n`, { flag: 'wx' });
  } catch {
    const winner = dataFolderHolder(dataDir);
    throw new DataFolderBusyError(winner?.holder ?? 'local', winner?.pid ?? 0, dataDir);
  }
  return () => rmSync(lockFile, { force: true });
}

/** The live process holding the data folder, if any (a lock left by a crash does not count). */
export function dataFolderHolder(dataDir: string): { pid: number; holder: DataFolderHolder } | undefined {
  const lockFile = path.join(dataDir, LOCK_FILE);
  if (!existsSync(lockFile)) return undefined;
  const [pidLine, holderLine] = readFileSync(lockFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  if (!pid || !isAlive(pid)) return undefined;
  return { pid, holder: holderLine === 'admin' ? 'admin' : 'local' };
}

/**
 * The connection string of the database the running local service serves, waiting for the socket
 * while the service is still starting; undefined when no local service runs on this folder.
 */
export async function servedDatabaseUrl(dataDir: string, waitMs = 30_000): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const holder = dataFolderHolder(dataDir);
    if (!holder) return undefined;
    if (holder.holder === 'admin') throw new DataFolderBusyError('admin', holder.pid, dataDir);
    const socketDir = servedDatabaseDir(dataDir);
    if (existsSync(path.join(socketDir, SOCKET_FILE))) return socketDatabaseUrl(socketDir);
    if (Date.now() > deadline) {
      throw new Error(`The local service (pid ${holder.pid}) has not started serving its database yet.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
