import { randomInt } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import type { PGlite } from '@electric-sql/pglite';

/** The file name PostgreSQL clients (node-postgres, libpq, psql) look for in a socket directory. */
export const SOCKET_FILE = '.s.PGSQL.5432';

/** sun_path holds 108 bytes on Linux and 104 on macOS, each including the closing NUL. */
const MAX_SOCKET_PATH_BYTES = 103;

/** Like PostgreSQL's idle_in_transaction_session_timeout: a stalled transaction cannot hold everyone up. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

/** PostgreSQL's own limit on a startup packet. */
const MAX_STARTUP_BYTES = 10_000;
const PROTOCOL_3_0 = 196_608;
const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const FLUSH = 0x48; // 'H'
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I': the session is outside any transaction block

/** The node-postgres connection string of a socket directory served by {@link PgliteServer}. */
export function socketDatabaseUrl(socketDir: string): string {
  return `postgresql://postgres@/postgres?host=${encodeURIComponent(socketDir)}`;
}

export function socketPathFits(socketDir: string): boolean {
  return Buffer.byteLength(path.join(socketDir, SOCKET_FILE)) <= MAX_SOCKET_PATH_BYTES;
}

interface Unit {
  session: Session;
  messages: Buffer;
}

class Session {
  buffer: Buffer = Buffer.alloc(0);
  started = false;
  closed = false;
  idleTimer?: NodeJS.Timeout;

  constructor(readonly socket: net.Socket) {}

  write(bytes: Uint8Array): void {
    if (!this.closed && bytes.length > 0) this.socket.write(bytes);
  }
}

/**
 * Serves one PGlite instance over the PostgreSQL wire protocol on a Unix socket, so that several
 * processes use the embedded database through `pg` while this process stays its only writer.
 *
 * PGlite is a single PostgreSQL session, so the server takes turns between client connections. A
 * turn is a whole exchange up to Sync or a simple Query: interleaving at message level would let
 * one client's Bind land on another client's unnamed statement. A connection inside a transaction
 * block keeps the turn until it commits or rolls back, so transactions stay isolated per
 * connection; a connection that drops mid-transaction is rolled back. Session state (SET, named
 * prepared statements) is shared by all connections, which the service's SQL never relies on.
 */
export class PgliteServer {
  private readonly server: net.Server;
  private readonly sessions = new Set<Session>();
  private readonly queue: Unit[] = [];
  private holder?: Session;
  private draining = false;

  private constructor(
    private readonly pglite: PGlite,
    private readonly socketDir: string,
    private readonly startupReply: Buffer,
  ) {
    this.server = net.createServer((socket) => this.accept(socket));
  }

  /**
   * Listens on `<socketDir>/.s.PGSQL.5432`. The directory is owner-only (0700) and the socket 0600:
   * the database has no passwords, so file permissions are its access control.
   */
  static async listen(pglite: PGlite, socketDir: string): Promise<PgliteServer> {
    if (!socketPathFits(socketDir)) {
      throw new Error(
        `The data folder's path is too long for a Unix socket (${socketDir}); choose a shorter DATA_DIR.`,
      );
    }
    mkdirSync(socketDir, { recursive: true, mode: 0o700 });
    chmodSync(socketDir, 0o700);
    const socketPath = path.join(socketDir, SOCKET_FILE);
    // Only the process holding the data folder's lock gets here, so a socket file left is stale.
    rmSync(socketPath, { force: true });

    const server = new PgliteServer(pglite, socketDir, await startupReply(pglite));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.server.listen(socketPath, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    chmodSync(socketPath, 0o600);
    return server;
  }

  get databaseUrl(): string {
    return socketDatabaseUrl(this.socketDir);
  }

  /** Stops accepting, drops every connection (rolling back an open transaction) and removes the socket. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const session of this.sessions) session.socket.destroy();
    await closed;
    while (this.draining) await new Promise((resolve) => setImmediate(resolve));
  }

  private accept(socket: net.Socket): void {
    const session = new Session(socket);
    this.sessions.add(session);
    socket.on('data', (chunk: Buffer) => {
      session.buffer = session.buffer.length ? Buffer.concat([session.buffer, chunk]) : chunk;
      try {
        this.readMessages(session);
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.drop(session));
  }

  private readMessages(session: Session): void {
    let unitStart = 0;
    let offset = 0;
    for (;;) {
      const available = session.buffer.length - offset;
      if (!session.started) {
        if (available < 8) break;
        const length = session.buffer.readInt32BE(offset);
        if (length < 8 || length > MAX_STARTUP_BYTES) throw new Error('malformed startup message');
        if (available < length) break;
        const code = session.buffer.readInt32BE(offset + 4);
        offset += length;
        unitStart = offset;
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          session.write(Buffer.from('N'));
        } else if (code === PROTOCOL_3_0) {
          session.started = true;
          session.write(this.startupReply);
        } else if (code === CANCEL_REQUEST) {
          session.socket.end();
          return;
        } else {
          throw new Error('unsupported startup message');
        }
        continue;
      }
      if (available < 5) break;
      const type = session.buffer[offset]!;
      const length = 1 + session.buffer.readInt32BE(offset + 1);
      if (length < 5) throw new Error('malformed message');
      if (available < length) break;
      if (type === TERMINATE) {
        session.socket.end();
        return;
      }
      offset += length;
      if (type === SYNC || type === QUERY || type === FLUSH) {
        this.submit({ session, messages: Buffer.from(session.buffer.subarray(unitStart, offset)) });
        unitStart = offset;
      }
    }
    session.buffer = session.buffer.subarray(unitStart);
  }

  private submit(unit: Unit): void {
    clearTimeout(unit.session.idleTimer);
    this.queue.push(unit);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        const next = this.holder
          ? this.queue.findIndex((unit) => unit.session === this.holder)
          : this.queue.length > 0
            ? 0
            : -1;
        if (next < 0) break;
        const [unit] = this.queue.splice(next, 1);
        await this.run(unit!);
      }
    } finally {
      this.draining = false;
    }
  }

  private async run({ session, messages }: Unit): Promise<void> {
    clearTimeout(session.idleTimer);
    let reply: Uint8Array;
    try {
      reply = await this.pglite.runExclusive(() => this.pglite.execProtocolRaw(messages));
    } catch {
      if (this.holder === session) this.holder = undefined;
      session.socket.destroy();
      return;
    }
    if (!keepsTurn(reply)) {
      if (this.holder === session) this.holder = undefined;
    } else if (session.closed) {
      // The client left while this exchange ran: drop() saw no turn to give back, so do it here.
      this.holder = session;
      this.queue.unshift(rollbackUnit(session));
    } else {
      this.holder = session;
      session.idleTimer = setTimeout(() => session.socket.destroy(), IDLE_IN_TRANSACTION_TIMEOUT_MS);
    }
    session.write(reply);
  }

  private drop(session: Session): void {
    session.closed = true;
    clearTimeout(session.idleTimer);
    this.sessions.delete(session);
    for (let index = this.queue.length - 1; index >= 0; index--) {
      if (this.queue[index]!.session === session) this.queue.splice(index, 1);
    }
    if (this.holder === session) {
      this.queue.unshift(rollbackUnit(session));
      void this.drain();
    }
  }
}

/** Whether the reply leaves its connection inside a transaction or mid-exchange (after a Flush). */
function keepsTurn(reply: Uint8Array): boolean {
  const end = reply.length;
  const endsWithReadyForQuery =
    end >= 6 && reply[end - 6] === READY_FOR_QUERY && Buffer.from(reply).readInt32BE(end - 5) === 5;
  return !endsWithReadyForQuery || reply[end - 1] !== IDLE;
}

/** Ends a half-sent extended-protocol exchange, then the transaction it may have left open. */
function rollbackUnit(session: Session): Unit {
  return { session, messages: Buffer.concat([syncMessage(), queryMessage('ROLLBACK')]) };
}

function syncMessage(): Buffer {
  return Buffer.from([SYNC, 0, 0, 0, 4]);
}

function queryMessage(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header[0] = QUERY;
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

function backendMessage(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'ascii');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

/** PGlite has no real startup exchange of its own: answer as a trusting server with its settings. */
async function startupReply(pglite: PGlite): Promise<Buffer> {
  const names = [
    'server_version',
    'server_encoding',
    'client_encoding',
    'DateStyle',
    'TimeZone',
    'integer_datetimes',
    'standard_conforming_strings',
  ];
  const { rows } = await pglite.query<{ name: string; setting: string }>(
    'SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name',
    [names],
  );
  const authenticationOk = backendMessage('R', Buffer.from([0, 0, 0, 0]));
  const parameters = rows.map(({ name, setting }) =>
    backendMessage('S', Buffer.from(`${name}\0${setting}\0`)),
  );
  const keyData = Buffer.alloc(8);
  keyData.writeInt32BE(process.pid, 0);
  keyData.writeInt32BE(randomInt(2 ** 31 - 1), 4);
  return Buffer.concat([
    authenticationOk,
    ...parameters,
    backendMessage('K', keyData),
    backendMessage('Z', Buffer.from('I')),
  ]);
}
