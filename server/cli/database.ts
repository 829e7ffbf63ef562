import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { connectionFromUrl } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded';
import type { AppConfig } from '../env';

/**
 * How the command-line tools reach the server's database: DATABASE_URL, or the embedded PostgreSQL in
 * DATA_DIR — through the running app's Unix socket when the app is up (a cluster cannot be started twice),
 * otherwise by starting it for the duration of the command.
 */

const EMBEDDED_DATABASE = 'eventry';
const SOCKET_PORT = 5432;

/** Connection settings for a running embedded server, or undefined when it is not running. */
async function runningEmbedded(dataDir: string): Promise<pg.PoolConfig | undefined> {
  const clusterDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, '.postgres-password');
  if (!existsSync(path.join(clusterDir, 'postmaster.pid')) || !existsSync(passwordFile)) return undefined;
  const connection: pg.PoolConfig = {
    host: clusterDir,
    port: SOCKET_PORT,
    user: 'postgres',
    password: (await readFile(passwordFile, 'utf8')).trim(),
    database: EMBEDDED_DATABASE,
  };
  const probe = new pg.Client(connection);
  try {
    await probe.connect();
    return connection;
  } catch {
    return undefined; // a stale pid file: the server is not running
  } finally {
    await probe.end().catch(() => {});
  }
}

/**
 * Runs `work` with connection settings of the server's database. `create`: an embedded database that does not
 * exist yet is made (a restore into an empty DATA_DIR); otherwise its absence is an error.
 */
export async function withServerDatabase<T>(
  config: AppConfig,
  work: (connection: pg.PoolConfig) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  if (config.databaseUrl) return work(connectionFromUrl(config.databaseUrl));
  if (!options.create && !existsSync(path.join(config.dataDir, 'postgres', 'PG_VERSION'))) {
    throw new Error(`No Eventry database in ${config.dataDir}: start Eventry once, or set DATA_DIR or DATABASE_URL.`);
  }
  const running = await runningEmbedded(config.dataDir);
  const embedded = running
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, database: EMBEDDED_DATABASE });
  try {
    return await work(running ?? (embedded?.connection as pg.PoolConfig));
  } finally {
    await embedded?.stop();
  }
}
