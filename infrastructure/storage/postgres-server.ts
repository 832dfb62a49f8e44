import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client } from 'pg';

import { freePort } from '../temporal/dev-server';

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
 * A throwaway PostgreSQL server from Debian's packages, as scripts/test-postgres.sh starts one: for
 * `npm run start:cluster` when no DATABASE_URL is given, and for tests that stop, restart and freeze
 * a server of their own without disturbing the database other tests share. Its superuser is `app`,
 * trusted on 127.0.0.1 only.
 */
export class PostgresServer {
  private constructor(
    private readonly binDir: string,
    private readonly folder: string,
    readonly port: number,
    private readonly durable: boolean,
  ) {}

  /**
   * @param options.folder keeps the server's files there across starts (a fresh temporary folder
   *   otherwise); an existing cluster in it is reused.
   * @param options.durable keeps fsync on; tests turn it off for speed, since their data is thrown away
   *   even when the machine survives.
   */
  static async create(
    binDir: string,
    options: { folder?: string; durable?: boolean } = {},
  ): Promise<PostgresServer> {
    const folder = options.folder ?? mkdtempSync(path.join(os.tmpdir(), 'haa-postgres-'));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // PostgreSQL refuses to run as root; it runs as its own system user then, which must own the folder.
    if (process.getuid?.() === 0) chownSync(folder, postgresUid(), postgresGid());
    const server = new PostgresServer(binDir, folder, await freePort(), options.durable ?? false);
    if (!existsSync(path.join(server.dataDir, 'PG_VERSION'))) {
      server.run('initdb', ['-D', server.dataDir, '-U', 'app', '--auth=trust']);
    }
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
      // Room for the scale shape: four Temporal services with their pools beside the APIs and workers.
      `-p ${this.port} -k ${this.folder} -c listen_addresses=127.0.0.1 -c max_connections=300` +
        (this.durable ? '' : ' -c fsync=off'),
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
      execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    } else {
      execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    }
  }
}

function postgresUid(): number {
  return Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
}

function postgresGid(): number {
  return Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
}

const APPLICATION_DATABASE = 'healthcare_access';

/**
 * The application keeps its tables in a database of its own beside Temporal's two. A URL that
 * already names a database other than the maintenance one is used as it is.
 */
export async function ensureApplicationDatabase(serverUrl: string): Promise<string> {
  const url = new URL(serverUrl);
  if (url.pathname !== '/' && url.pathname !== '/postgres') return serverUrl;
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [APPLICATION_DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${APPLICATION_DATABASE}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${APPLICATION_DATABASE}`;
  return url.toString();
}
