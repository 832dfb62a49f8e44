import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort } from '../../infrastructure/temporal/dev-server';

/** Debian's PostgreSQL binaries, newest version first; undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/**
 * A throwaway PostgreSQL server of the test's own (as scripts/test-postgres.sh starts one), which the
 * test may stop, restart and freeze without disturbing the database other tests share.
 */
export class PostgresServer {
  private constructor(
    private readonly binDir: string,
    private readonly folder: string,
    readonly port: number,
  ) {}

  static async create(binDir: string): Promise<PostgresServer> {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'haa-pg-outage-'));
    // PostgreSQL refuses to run as root; it runs as its own system user then, which must own the folder.
    if (process.getuid?.() === 0) chownSync(folder, postgresUid(), postgresGid());
    const server = new PostgresServer(binDir, folder, await freePort());
    server.run('initdb', ['-D', server.dataDir, '-U', 'app', '--auth=trust']);
    server.start();
    return server;
  }

  get databaseUrl(): string {
    return `postgres://app@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.folder, 'server.log'),
      '-w',
      '-o',
      `-p ${this.port} -k ${this.folder} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }

  /** A fast shutdown: the server ends every session, as in a restart or a failover. */
  stop(): void {
    this.run('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
  }

  /**
   * Stops the server and its sessions from running (SIGSTOP), so connections open but nothing answers:
   * a hung host rather than a refused port.
   */
  freeze(): void {
    for (const pid of this.serverPids()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.serverPids().reverse()) process.kill(pid, 'SIGCONT');
  }

  destroy(): void {
    try {
      this.thaw();
      this.stop();
    } catch {
      // Already stopped: nothing is left to end.
    }
    rmSync(this.folder, { recursive: true, force: true });
  }

  private get dataDir(): string {
    return path.join(this.folder, 'data');
  }

  /** The postmaster and the processes it started (sessions, background workers). */
  private serverPids(): number[] {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          // Field 4 of /proc/<pid>/stat is the parent pid; the command name before it may hold spaces.
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  private run(binary: string, args: string[]): void {
    const command = path.join(this.binDir, binary);
    if (process.getuid?.() === 0) {
      execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'ignore' });
    } else {
      execFileSync(command, args, { stdio: 'ignore' });
    }
  }
}

function postgresUid(): number {
  return Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
}

function postgresGid(): number {
  return Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
}
