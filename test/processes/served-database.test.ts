import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { Client, Pool } from 'pg';

import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { PgliteServer, SOCKET_FILE } from '../../infrastructure/storage/pglite-server';

/** How long a query may stay unanswered before the test calls it blocked: generous, never a speed claim. */
const BLOCKED_AFTER_MS = 500;

function answeredWithin<T>(query: Promise<T>, ms: number): Promise<T | 'blocked'> {
  return Promise.race([query, new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), ms))]);
}

describe('the embedded database served on a Unix socket', () => {
  const socketDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'haa-served-')), 'db-socket');
  let pglite: PGlite;
  let server: PgliteServer;
  let pool: Pool;

  beforeAll(async () => {
    pglite = await PGlite.create('memory://');
    server = await PgliteServer.listen(pglite, socketDir);
    pool = new Pool({ connectionString: server.databaseUrl, max: 8 });
    await pool.query('CREATE TABLE notes (id int PRIMARY KEY, body text)');
  });
  afterEach(() => pool.query('DELETE FROM notes'));
  afterAll(async () => {
    await pool.end();
    await server.close();
    await pglite.close();
    rmSync(path.dirname(socketDir), { recursive: true, force: true });
  });

  it('is reachable only by its owner: the socket folder is 0700 and the socket 0600', () => {
    expect(statSync(socketDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(socketDir, SOCKET_FILE)).mode & 0o777).toBe(0o600);
  });

  it('runs the service repositories through node-postgres, as the worker and the admin CLI do', async () => {
    const db: Database = await openDatabase({ databaseUrl: server.databaseUrl });
    try {
      await migrate(db);
      const accounts = new AccountsRepository(db);
      const account = await accounts.createAccount('Served clinic');
      const { secret } = await accounts.createApiKey({
        accountId: account.id,
        roles: ['provider'],
        label: 'k',
      });
      expect(await accounts.findActiveKeyBySecret(secret)).toMatchObject({
        principal: { accountId: account.id },
      });
    } finally {
      await db.close();
    }
  });

  it("keeps a connection's open transaction to itself until it commits", async () => {
    const writer = await pool.connect();
    const reader = await pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('INSERT INTO notes VALUES (1, $1)', ['uncommitted']);
      const countWhileOpen = reader.query<{ count: number }>('SELECT count(*)::int AS count FROM notes');
      expect(await answeredWithin(countWhileOpen, BLOCKED_AFTER_MS)).toBe('blocked');
      await writer.query('COMMIT');
      expect((await countWhileOpen).rows[0]!.count).toBe(1);
    } finally {
      writer.release();
      reader.release();
    }
  });

  it("never binds one client's parameters to another client's statement, even when messages arrive in pieces", async () => {
    // A multi-megabyte parameter reaches the server in many socket reads, while small queries interleave.
    const large = 'x'.repeat(2_000_000);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        index % 2
          ? pool.query<{ n: number }>('SELECT $1::int AS n', [index]).then(({ rows }) => rows[0]!.n)
          : pool
              .query<{ n: number; size: number }>('SELECT $2::int AS n, length($1::text) AS size', [
                large,
                index,
              ])
              .then(({ rows }) => (rows[0]!.size === large.length ? rows[0]!.n : -1)),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 60 }, (_, index) => index));
  });

  it('rolls back the transaction of a client that disconnects, and lets the others go on', async () => {
    const leaving = new Client({ connectionString: server.databaseUrl });
    leaving.on('error', () => undefined);
    await leaving.connect();
    await leaving.query('BEGIN');
    await leaving.query('INSERT INTO notes VALUES (2, $1)', ['abandoned']);
    leaving.connection.stream.destroy();

    const { rows } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM notes');
    expect(rows[0]!.count).toBe(0);
  });

  it('hangs up on a client that sends garbage, and keeps serving the others', async () => {
    const garbage = net.connect(path.join(socketDir, SOCKET_FILE));
    const hungUp = new Promise((resolve) => garbage.once('close', resolve));
    garbage.on('error', () => undefined);
    garbage.write(Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]));
    await hungUp;
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('answers a failed statement with its error and keeps serving', async () => {
    await expect(pool.query('SELECT * FROM no_such_table')).rejects.toThrow('no_such_table');
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
