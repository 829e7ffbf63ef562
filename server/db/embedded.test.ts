import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, startEmbeddedPostgres } from './embedded';

const dataDir = await mkdtemp(path.join(tmpdir(), 'eventry-owner-'));
let owner: ChildProcess | undefined;
afterAll(async () => {
  owner?.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts another process that owns the folder's database, as a running app would. */
async function startOwner(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '../test/embedded-owner.ts'), dataDir],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the owner exited with ${code}`)));
  });
  return child;
}

async function answers(connection: pg.PoolConfig): Promise<number> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one ?? 0;
  } finally {
    await client.end();
  }
}

/** Whether a process of this cluster folder (initdb, postgres) runs now (read synchronously from /proc). */
function postgresRunsFor(clusterDir: string): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
          .split('\0')
          .some((arg) => arg.includes(clusterDir));
      } catch {
        return false; // the process ended meanwhile
      }
    });
}

describe('the embedded PostgreSQL of a data folder', () => {
  it('is not taken from an app that is still running, and is taken over once that app has died', async () => {
    owner = await startOwner();
    await expect(startEmbeddedPostgres({ dataDir, database: 'eventry' })).rejects.toBeInstanceOf(DataDirInUseError);
    // …and the running app keeps its database.
    const password = (await readFile(path.join(dataDir, '.postgres-password'), 'utf8')).trim();
    expect(
      await answers({
        host: path.join(dataDir, 'postgres'),
        port: 5432,
        user: 'postgres',
        password,
        database: 'eventry',
      }),
    ).toBe(1);

    // The owner dies without stopping its database (kill -9): the next start stops the leftover server.
    const died = new Promise((resolve) => owner?.once('exit', resolve));
    owner.kill('SIGKILL');
    await died;
    owner = undefined;
    const db = await startEmbeddedPostgres({ dataDir, database: 'eventry' });
    try {
      expect(await answers(db.connection)).toBe(1);
    } finally {
      await db.stop();
    }
  }, 120_000);

  it("runs the caller's start-up work while the database's processes start it, not before", async () => {
    // A new folder (initdb, then the server) and the same folder again (the server only).
    const freshDir = await mkdtemp(path.join(tmpdir(), 'eventry-fresh-'));
    try {
      for (const folder of [freshDir, freshDir]) {
        const clusterDir = path.join(folder, 'postgres');
        const calls: Array<{ databaseAtWork: boolean; startResolved: boolean }> = [];
        let startResolved = false;
        const db = await startEmbeddedPostgres({
          dataDir: folder,
          database: 'eventry',
          whileStarting: () => calls.push({ databaseAtWork: postgresRunsFor(clusterDir), startResolved }),
        });
        startResolved = true;
        try {
          expect(calls).toEqual([{ databaseAtWork: true, startResolved: false }]);
          expect(await answers(db.connection)).toBe(1);
        } finally {
          await db.stop();
        }
      }
    } finally {
      await rm(freshDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * A process that has exited and that nobody reaps (its parent execs into a long sleep): a zombie's PID. It belongs
 * to the user PostgreSQL runs as ('postgres' under root), as a killed postmaster does: PostgreSQL takes a PID of
 * another user's (kill answers EPERM) for a stale lock.
 */
async function startZombie(): Promise<{ pid: number; parent: ChildProcess }> {
  const asPostgres = process.getuid?.() === 0 ? postgresUser() : {};
  const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 120'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    ...asPostgres,
  });
  const pid = await new Promise<number>((resolve) => {
    parent.stdout?.once('data', (chunk: Buffer) => resolve(Number.parseInt(chunk.toString(), 10)));
  });
  // The child outlives the shell's exec into `sleep`, which never reaps: a child that ended at once was now
  // and then reaped by the shell itself before the exec, and its PID named nothing at all.
  for (let i = 0; i < 500; i++) {
    const comm = readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim();
    if (comm === 'sleep' && zombieState(pid) === 'Z') return { pid, parent };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`process ${pid} did not become a zombie`);
}

/** A process's state letter (Z: zombie), or undefined once it is gone. */
function zombieState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

/** The uid and gid of the 'postgres' user (the embedded database runs as it under root). */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no postgres user');
  return { uid: Number(uid), gid: Number(gid) };
}

describe.runIf(process.platform === 'linux')('a start after the database was killed and never reaped', () => {
  it('removes the lock files its zombie postmaster left, says so, and starts', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eventry-zombie-'));
    let zombie: { pid: number; parent: ChildProcess } | undefined;
    try {
      const first = await startEmbeddedPostgres({ dataDir: dir, database: 'app' });
      const clusterDir = path.join(dir, 'postgres');
      const locks = ['postmaster.pid', '.s.PGSQL.5432.lock'].map((name) => path.join(clusterDir, name));
      const texts = await Promise.all(locks.map((file) => readFile(file, 'utf8')));
      await first.stop();
      // The postmaster removes its lock files as it exits, which may be after stop() returns on a busy machine:
      // files written before that would be removed under the test, and the start would find nothing to clear.
      for (let i = 0; i < 500 && locks.some((file) => existsSync(file)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // What a SIGKILL leaves where nothing reaps the postmaster: its lock files, naming a PID that is a zombie.
      zombie = await startZombie();
      const zombiePid = zombie.pid;
      await Promise.all(locks.map((file, i) => writeFile(file, (texts[i] ?? '').replace(/^\d+/, String(zombiePid)))));
      const lines: string[] = [];
      const again = await startEmbeddedPostgres({ dataDir: dir, database: 'app', log: (line) => lines.push(line) });
      try {
        expect(await answers(again.connection)).toBe(1);
        // Still a zombie after the start, so one during it: the start must have said what it cleared. (When
        // several test files run at once, the zombie is now and then reaped before the start; the lock files
        // then name no process at all, and the start working is what is left to check.)
        if (zombieState(zombiePid) === 'Z') {
          expect(lines.some((line) => line.includes(`pid ${zombiePid} is a zombie`))).toBe(true);
        }
      } finally {
        await again.stop();
      }
    } finally {
      zombie?.parent.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
