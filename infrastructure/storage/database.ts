import { PGlite } from '@electric-sql/pglite';
import { Pool, PoolClient, types } from 'pg';
import type { Logger } from 'pino';

import { DATABASE_UNAVAILABLE } from '../../domain/failures';
import { DEFAULT_DATABASE_TIMEOUTS, DatabaseTimeouts } from '../config/config';

export interface QueryRunner {
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/**
 * The one SQL surface of the service. Local mode runs it on embedded PGlite, scale mode on a
 * PostgreSQL server; repositories write plain PostgreSQL and never learn which one they talk to.
 */
export interface Database extends QueryRunner {
  readonly engine: 'pglite' | 'postgres';
  transaction<T>(work: (tx: QueryRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// timestamptz as ISO strings in both engines, so rows look the same whichever engine served them.
types.setTypeParser(types.builtins.TIMESTAMPTZ, (value) => new Date(value).toISOString());

/**
 * The database could not be reached or did not answer in time. Callers never handle it: the HTTP
 * edge answers 503 with Retry-After, and Temporal retries an activity that throws it (its type is in
 * no activity's non-retryable list).
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    // Only the code is quoted (ECONNREFUSED, 57P01…): a driver's message can quote a statement's values.
    const code = (cause as { code?: unknown })?.code;
    super(
      `The database is unreachable or did not answer in time${typeof code === 'string' ? ` (${code})` : ''}`,
      { cause },
    );
    this.name = DATABASE_UNAVAILABLE;
  }
}

/** Node socket failures: the server is down, restarting or unreachable. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT', // a Unix socket path that is gone while its server restarts
]);

/**
 * SQLSTATEs of a server that cannot serve now: 57P01-57P03 shutdown, crash or start-up, 53300 too
 * many connections, 57014 a statement cancelled by statement_timeout. Class 08 (connection
 * exceptions) is matched by prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** The node-postgres and pg-pool messages of a lost connection or an expired wait; they carry no data. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^Query read timeout$/,
  /^timeout exceeded when trying to connect$/,
  /not queryable/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)))
    return true;
  if (typeof code === 'string' && /^08[0-9A-Z]{3}$/.test(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/** Resolves once the database answers a statement; rejects as any query would. */
export async function pingDatabase(db: QueryRunner): Promise<void> {
  await db.query('SELECT 1');
}

function classified(error: unknown): unknown {
  return isDatabaseUnavailable(error) && !(error instanceof DatabaseUnavailableError)
    ? new DatabaseUnavailableError(error)
    : error;
}

class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;

  constructor(private readonly pool: Pool) {}

  async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    try {
      const result = await this.pool.query(sql, params);
      return result.rows as Row[];
    } catch (error) {
      throw classified(error);
    }
  }

  async transaction<T>(work: (tx: QueryRunner) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw classified(error);
    }
    // A checked-out client has no pool listener: without this, a server that goes away between two
    // statements of the transaction would emit an unhandled 'error' and end the process. The next
    // statement fails anyway, so the event itself needs no handling.
    let lostConnection: Error | undefined;
    const onConnectionError = (error: Error) => (lostConnection = error);
    client.on('error', onConnectionError);
    try {
      await client.query('BEGIN');
      const result = await work({
        query: async <Row>(sql: string, params: unknown[] = []) =>
          (await client.query(sql, params)).rows as Row[],
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (lostConnection ??= rollbackError));
      throw classified(error);
    } finally {
      client.removeListener('error', onConnectionError);
      // A client whose connection broke is destroyed rather than handed to the next caller.
      client.release(lostConnection);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

class PgliteDatabase implements Database {
  readonly engine = 'pglite' as const;

  constructor(private readonly db: PGlite) {}

  async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const result = await this.db.query<Row>(sql, params);
    return result.rows.map(normalizeDates);
  }

  async transaction<T>(work: (tx: QueryRunner) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      work({
        query: async <Row>(sql: string, params: unknown[] = []) =>
          (await tx.query<Row>(sql, params)).rows.map(normalizeDates),
      }),
    );
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

function normalizeDates<Row>(row: Row): Row {
  const normalized: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const [column, value] of Object.entries(normalized)) {
    if (value instanceof Date) normalized[column] = value.toISOString();
  }
  return normalized as Row;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  pgliteDir?: string;
  /** PostgreSQL only; DEFAULT_DATABASE_TIMEOUTS when absent. */
  timeouts?: DatabaseTimeouts;
  /** Where the pool reports a pooled connection that broke while idle (PostgreSQL only). */
  logger?: Logger;
  /**
   * PGlite only: a dump of a data directory (`dumpDataDir`) to start from instead of an empty one,
   * which spares creating a database's catalog (seconds of CPU) where many databases start alike.
   */
  pgliteFrom?: Blob;
}

/**
 * Opens PostgreSQL when `databaseUrl` is set, else PGlite persisted in `pgliteDir`
 * (in memory when `pgliteDir` is 'memory://', for tests).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
    const pool = new Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: timeouts.connectMs,
      statement_timeout: timeouts.statementMs,
      query_timeout: timeouts.queryMs,
      // Notices a peer that vanished without closing the socket (a failed-over host).
      keepAlive: true,
    });
    // An idle connection that breaks (a database restart) is dropped by the pool, which opens a new
    // one on the next query. Without a listener the 'error' event would end the process.
    pool.on('error', (error: Error & { code?: string }) =>
      options.logger?.warn({ err_name: error.name, code: error.code }, 'idle database connection lost'),
    );
    const db = new PostgresDatabase(pool);
    try {
      await db.query('SELECT 1');
    } catch (error) {
      await pool.end();
      throw error;
    }
    return db;
  }
  if (!options.pgliteDir) throw new Error('openDatabase needs a databaseUrl or a pgliteDir');
  return (await openEmbeddedDatabase(options.pgliteDir, options.pgliteFrom)).db;
}

/**
 * Opens PGlite persisted in `pgliteDir` and hands out the PGlite instance too, for the local
 * launcher that serves it to its other processes (see PgliteServer).
 */
export async function openEmbeddedDatabase(
  pgliteDir: string,
  from?: Blob,
): Promise<{ db: Database; pglite: PGlite }> {
  const pglite = await PGlite.create(pgliteDir, from ? { loadDataDir: from } : {});
  return { db: new PgliteDatabase(pglite), pglite };
}
