import { PGlite } from '@electric-sql/pglite';
import { Pool, types } from 'pg';

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

class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;

  constructor(private readonly pool: Pool) {}

  async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    const result = await this.pool.query(sql, params);
    return result.rows as Row[];
  }

  async transaction<T>(work: (tx: QueryRunner) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        query: async <Row>(sql: string, params: unknown[] = []) =>
          (await client.query(sql, params)).rows as Row[],
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
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

/**
 * Opens PostgreSQL when `databaseUrl` is set, else PGlite persisted in `pgliteDir`
 * (in memory when `pgliteDir` is 'memory://', for tests).
 */
export async function openDatabase(options: { databaseUrl?: string; pgliteDir?: string }): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
    await pool.query('SELECT 1');
    return new PostgresDatabase(pool);
  }
  if (!options.pgliteDir) throw new Error('openDatabase needs a databaseUrl or a pgliteDir');
  return (await openEmbeddedDatabase(options.pgliteDir)).db;
}

/**
 * Opens PGlite persisted in `pgliteDir` and hands out the PGlite instance too, for the local
 * launcher that serves it to its other processes (see PgliteServer).
 */
export async function openEmbeddedDatabase(pgliteDir: string): Promise<{ db: Database; pglite: PGlite }> {
  const pglite = await PGlite.create(pgliteDir);
  return { db: new PgliteDatabase(pglite), pglite };
}
