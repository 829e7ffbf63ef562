/**
 * The restart matrix (npm run test:hard): the production build on its embedded PostgreSQL is stopped in each
 * way a machine or a supervisor stops it, and started again at once on the same DATA_DIR. Each start must
 * become ready (GET /api/ready 200) without a hand, with the data of before (a user signs in again), and no
 * start may fail or say `undefined`.
 *
 *   clean        SIGTERM, and the process exits by itself
 *   app killed   SIGKILL of the app alone: its database keeps running, orphaned
 *   killed while stopping
 *                SIGTERM to the process group, then SIGKILL of the group 50 ms later (a supervisor whose stop
 *                timeout is short); here nothing reaps the killed postmaster, which stays a zombie
 *   power cut    SIGKILL of the whole group at once, app and database
 *   database cut SIGKILL of the postmaster alone, then SIGTERM of the app, which must still stop by itself
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, log, sleep } from './scripts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'dist/server/main.js');

let dataDir = '';
let port = 0;
let output = '';

interface App {
  child: ChildProcess;
  exited: Promise<number | null>;
}

function start(): App {
  // Its own process group (detached), as a supervisor starts it: the group can be signalled as one.
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    cwd: dataDir,
    detached: true,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const file = createWriteStream(path.join(dataDir, 'app.log'), { flags: 'a' });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      file.write(chunk);
    });
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited };
}

/** Ready, or why not: the app's exit (a failed start) ends the wait at once. */
async function waitReady(app: App, timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  let exitCode: number | null | undefined;
  void app.exited.then((code) => {
    exitCode = code;
  });
  while (Date.now() - started < timeoutMs) {
    if (exitCode !== undefined)
      throw new Error(`the start failed (exit ${exitCode}): ${output.trim().split('\n').slice(-3).join(' | ')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
      if (res.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`not ready within ${timeoutMs} ms`);
}

async function postmasterPid(): Promise<number | undefined> {
  try {
    const text = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
    const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

const credentials = { email: `restart-${Date.now()}@example.com`, password: 'Secret123' };

async function auth(pathname: string, body: Record<string, string>): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify(body),
  });
  return res.status;
}

async function stopWithin(app: App, ms: number, what: string): Promise<void> {
  const code = await Promise.race([app.exited, sleep(ms).then(() => 'timeout' as const)]);
  if (code === 'timeout') {
    signal(-(app.child.pid as number), 'SIGKILL');
    throw new Error(`${what}: the app did not exit within ${ms} ms`);
  }
}

const STOPS: Array<[string, (app: App) => Promise<void>]> = [
  [
    'clean (SIGTERM)',
    async (app) => {
      signal(app.child.pid, 'SIGTERM');
      await stopWithin(app, 30_000, 'SIGTERM');
    },
  ],
  [
    'app killed (SIGKILL), its database left running',
    async (app) => {
      signal(app.child.pid, 'SIGKILL');
      await app.exited;
    },
  ],
  [
    'killed while stopping (SIGTERM, then SIGKILL of the group)',
    async (app) => {
      signal(-(app.child.pid as number), 'SIGTERM');
      await sleep(50);
      signal(-(app.child.pid as number), 'SIGKILL');
      await app.exited;
    },
  ],
  [
    'power cut (SIGKILL of app and database at once)',
    async (app) => {
      signal(-(app.child.pid as number), 'SIGKILL');
      await app.exited;
    },
  ],
  [
    'database cut (SIGKILL of the postmaster), then SIGTERM',
    async (app) => {
      signal(await postmasterPid(), 'SIGKILL');
      await sleep(500);
      signal(app.child.pid, 'SIGTERM');
      await stopWithin(app, 30_000, 'SIGTERM after the database died');
    },
  ],
];

let current: App | undefined;

async function main(): Promise<void> {
  dataDir = await mkdtemp(path.join(tmpdir(), 'eventry-restarts-'));
  port = await freePort();
  const results: Array<[string, string]> = [];
  let app = start();
  current = app;
  log(`first start: ready in ${await waitReady(app)} ms`);
  const signUp = await auth('/api/auth/sign-up/email', { ...credentials, firstName: 'Restart', lastName: 'Tester' });
  if (signUp !== 200) {
    console.log('sign-up answered', signUp);
    throw new Error(`sign-up failed: ${output}`);
  }
  for (const [name, stop] of STOPS) {
    await stop(app);
    output = '';
    app = start();
    current = app;
    try {
      const ms = await waitReady(app);
      const signIn = await auth('/api/auth/sign-in/email', credentials);
      if (signIn !== 200) throw new Error(`sign-in after the restart answered ${signIn}`);
      if (/\bundefined\b/.test(output)) throw new Error(`the start said 'undefined': ${output.trim()}`);
      results.push([name, `ok: ready in ${ms} ms, the user signed in again`]);
    } catch (error) {
      results.push([name, `FAIL: ${(error as Error).message}`]);
      app = start(); // whatever state it left, go on with the next kind of stop
      current = app;
      await waitReady(app).catch(() => {});
    }
    log(`${name}: ${results.at(-1)?.[1]}`);
  }
  signal(app.child.pid, 'SIGTERM');
  await stopWithin(app, 30_000, 'final stop').catch(() => {});
  console.log('\nrestart matrix');
  for (const [name, outcome] of results) console.log(`  ${name}: ${outcome}`);
  const failed = results.some(([, outcome]) => !outcome.startsWith('ok'));
  if (!failed) await rm(dataDir, { recursive: true, force: true });
  else log(`kept ${dataDir} for inspection`);
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  // Leave nothing running behind: the app's whole group, its database included.
  if (current?.child.pid) signal(-current.child.pid, 'SIGKILL');
  process.exit(1);
});
