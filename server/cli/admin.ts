import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { connectionFromUrl, type Db, openDatabase } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded';
import { users } from '../db/schema';
import { type AppConfig, ConfigError, loadConfig } from '../env';

/**
 * `npm run admin -- grant <email>` promotes an existing account to admin; `revoke <email>` makes it a
 * user again. It reaches the same database as the server: DATABASE_URL, or the embedded PostgreSQL in
 * DATA_DIR — through the running app's Unix socket when the app is up (a cluster cannot be started
 * twice), otherwise by starting it for the duration of the command.
 */

const EMBEDDED_DATABASE = 'eventry';
const SOCKET_PORT = 5432;

export type RoleChange = 'grant' | 'revoke';

/** Sets the role of the account with that email; false when there is no such account. */
export async function changeRole(db: Db, email: string, change: RoleChange): Promise<boolean> {
  const role = change === 'grant' ? 'admin' : 'user';
  const updated = await db
    .update(users)
    .set({ role })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ id: users.id });
  return updated.length > 0;
}

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

async function withDatabase<T>(config: AppConfig, work: (db: Db) => Promise<T>): Promise<T> {
  if (config.databaseUrl) {
    const database = openDatabase(connectionFromUrl(config.databaseUrl));
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  }
  if (!existsSync(path.join(config.dataDir, 'postgres', 'PG_VERSION'))) {
    throw new Error(`No Eventry database in ${config.dataDir}: start Eventry once, or set DATA_DIR or DATABASE_URL.`);
  }
  const running = await runningEmbedded(config.dataDir);
  const embedded = running
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, database: EMBEDDED_DATABASE });
  const database = openDatabase(running ?? (embedded?.connection as pg.PoolConfig));
  try {
    return await work(database.db);
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

const USAGE = 'Usage: npm run admin -- grant <email>   (or: revoke <email>)';

export async function runAdminCli(args: string[], config: AppConfig): Promise<{ code: number; message: string }> {
  const [command, email, ...rest] = args;
  if ((command !== 'grant' && command !== 'revoke') || !email || rest.length > 0) return { code: 2, message: USAGE };
  const changed = await withDatabase(config, (db) => changeRole(db, email, command));
  if (!changed) return { code: 1, message: `No account with the email ${email}. Sign up first, then run this again.` };
  return {
    code: 0,
    message: command === 'grant' ? `${email} is now an admin.` : `${email} is now a regular user.`,
  };
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Invalid configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  try {
    const { code, message } = await runAdminCli(process.argv.slice(2), config);
    (code === 0 ? console.log : console.error)(message);
    process.exit(code);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
