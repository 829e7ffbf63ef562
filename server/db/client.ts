import type { SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle or the database itself: repositories accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** A pool or one of its connections (node-postgres directly, for the hot paths). */
export type Queryable = Pick<pg.PoolClient, 'query'>;

const dialect = new PgDialect();

/**
 * Runs a drizzle `sql` statement as a named prepared statement: each connection parses and plans it once,
 * not on every call (planning was a quarter of PostgreSQL's time on the payment path). `name` must always
 * come with the same statement text; values are parameters, so they may differ.
 */
export async function executePrepared<T extends Record<string, unknown>>(
  db: Queryable,
  name: string,
  query: SQL,
): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const result = await db.query<T>({ name, text, values: params });
  return result.rows;
}

/** Runs `work` in a transaction on a connection of its own: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(
  pool: Pick<pg.Pool, 'connect'>,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export interface Database {
  pool: pg.Pool;
  /**
   * A few connections of their own for reservation batches (one statement each): during an on-sale,
   * buyers reserving never wait for a connection behind the payments and page loads using `pool`.
   */
  reservationPool: pg.Pool;
  db: Db;
  /** A connection string that reaches the same database (for LISTEN clients, tools and child processes). */
  connection: pg.PoolConfig;
  close(): Promise<void>;
}

// Dates and times come back as the strings PostgreSQL prints ('2026-12-01', '19:30:00'), never as JS Dates
// shifted into the server's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function openDatabase(connection: pg.PoolConfig): Database {
  const pool = new pg.Pool({ max: 20, idleTimeoutMillis: 30_000, ...connection });
  const reservationPool = new pg.Pool({ max: 4, idleTimeoutMillis: 30_000, ...connection });
  // A client losing its connection (database restart or crash) must not crash the process: the pool
  // listens on idle clients ('error'), and every client listens itself while it is checked out (a socket
  // error is otherwise an unhandled 'error' event). The query in flight fails and is answered 503.
  for (const each of [pool, reservationPool]) {
    each.on('error', () => {});
    each.on('connect', (client) => client.on('error', () => {}));
  }
  const db = drizzle(pool, { schema });
  return {
    pool,
    reservationPool,
    db,
    connection,
    close: async () => {
      await Promise.all([pool.end(), reservationPool.end()]);
    },
  };
}

export function connectionFromUrl(url: string, overrides: Partial<pg.PoolConfig> = {}): pg.PoolConfig {
  return { connectionString: url, ...overrides };
}
