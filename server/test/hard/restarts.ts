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
 *   npm start killed while stopping
 *                started with `npm start` (npm, its shell, the app and its database in one group), SIGTERM to the
 *                group, and SIGKILL of the group as soon as npm has exited, then `npm start` again; three times
 *
 * Usage: tsx restarts.ts [path of the server bundle, default dist/server/main.js]. `npm start` runs in the
 * folder above that bundle's dist/ (a private build's copy of the project, or the project itself).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, log, sleep } from './scripts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The production server bundle (a private copy can be passed while others rebuild dist/). */
const MAIN = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/server/main.js'));
/** Where `npm start` starts that bundle: the project it was built in. */
const PROJECT = path.resolve(MAIN, '../../..');

let dataDir = '';
let port = 0;
let output = '';

/** How the app is started: its bundle by node, or `npm start` (npm, then a shell, then node). */
type Launcher = 'node' | 'npm';

interface App {
  child: ChildProcess;
  exited: Promise<number | null>;
  launcher: Launcher;
}

function start(launcher: Launcher = 'node'): App {
  // Its own process group (detached), as a supervisor starts it: the group can be signalled as one.
  const [command, args, cwd] =
    launcher === 'npm'
      ? ['npm', ['start', '--silent'], PROJECT]
      : [process.execPath, ['--enable-source-maps', MAIN], dataDir];
  const child = spawn(command, args, {
    cwd,
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
      // npm reads its configuration from the home folder.
      ...(launcher === 'npm' ? { HOME: process.env.HOME } : {}),
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
  return { child, exited, launcher };
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

/** Whether the database was stopped (a stopped PostgreSQL removes its postmaster.pid). */
async function databaseStopped(ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if ((await postmasterPid()) === undefined) return true;
    await sleep(100);
  }
  return false;
}

async function stopWithin(app: App, ms: number, what: string): Promise<void> {
  const code = await Promise.race([app.exited, sleep(ms).then(() => 'timeout' as const)]);
  if (code === 'timeout') {
    signal(-(app.child.pid as number), 'SIGKILL');
    throw new Error(`${what}: the app did not exit within ${ms} ms`);
  }
}

interface Stop {
  name: string;
  stop(app: App): Promise<void>;
  /** How the app is started before the stop and again after it (default node). */
  launcher?: Launcher;
  /** How many times the stop and the start are made in a row (default 1). */
  tries?: number;
}

/**
 * Each try of the npm row: how long npm took to exit after the SIGTERM of its group, the killed postmaster, and
 * whether its postmaster.pid was still there when the next start began (the case, with a zombie).
 */
const npmStops: Array<{ npmExitedMs: number; pidFileLeft: boolean; states: Promise<string[]> }> = [];

/** A process's successive states over `ms` (Linux /proc letters, Z a zombie; 'gone' once reaped). */
async function processStates(pid: number | undefined, ms: number): Promise<string[]> {
  if (pid === undefined) return ['unknown'];
  const states: string[] = [];
  for (const until = Date.now() + ms; Date.now() < until; await sleep(20)) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const state = stat ? stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) : 'gone';
    if (states.at(-1) !== state) states.push(state);
    if (state === 'gone') break;
  }
  return states;
}

const STOPS: Stop[] = [
  {
    name: 'clean (SIGTERM)',
    async stop(app) {
      signal(app.child.pid, 'SIGTERM');
      await stopWithin(app, 30_000, 'SIGTERM');
    },
  },
  {
    name: 'app killed (SIGKILL), its database left running',
    async stop(app) {
      signal(app.child.pid, 'SIGKILL');
      await app.exited;
    },
  },
  {
    name: 'killed while stopping (SIGTERM, then SIGKILL of the group)',
    async stop(app) {
      signal(-(app.child.pid as number), 'SIGTERM');
      await sleep(50);
      signal(-(app.child.pid as number), 'SIGKILL');
      await app.exited;
    },
  },
  {
    name: 'power cut (SIGKILL of app and database at once)',
    async stop(app) {
      signal(-(app.child.pid as number), 'SIGKILL');
      await app.exited;
    },
  },
  {
    name: 'database cut (SIGKILL of the postmaster), then SIGTERM',
    async stop(app) {
      signal(await postmasterPid(), 'SIGKILL');
      await sleep(500);
      signal(app.child.pid, 'SIGTERM');
      await stopWithin(app, 30_000, 'SIGTERM after the database died');
    },
  },
  {
    // Issue 38's report: what a supervisor with a short stop timeout does to `npm start`. The shell between npm
    // and the app dies of the SIGTERM, so npm exits at once while the app is still stopping its database; the
    // group's SIGKILL then cuts that stop short, and the next start finds a postmaster.pid naming a killed
    // postmaster that nobody has reaped (a zombie).
    name: 'npm start killed while stopping (SIGTERM to the group, SIGKILL once npm exited)',
    launcher: 'npm',
    tries: 3,
    async stop(app) {
      const postmaster = await postmasterPid();
      const sent = Date.now();
      signal(-(app.child.pid as number), 'SIGTERM');
      await stopWithin(app, 30_000, 'npm after SIGTERM');
      const npmExitedMs = Date.now() - sent;
      signal(-(app.child.pid as number), 'SIGKILL');
      // Watched while the next start runs: what that start found in the pid file's process.
      const states = processStates(postmaster, 3_000);
      npmStops.push({ npmExitedMs, pidFileLeft: (await postmasterPid()) === postmaster, states });
    },
  },
];

/** Stops the app as a supervisor does when it is given time: SIGTERM (to npm's whole group), and waits. */
async function stopCleanly(app: App, what: string): Promise<void> {
  if (app.launcher === 'node') {
    signal(app.child.pid, 'SIGTERM');
    await stopWithin(app, 30_000, what);
    return;
  }
  // npm exits before the app has stopped (its shell dies of the SIGTERM): done once the database is stopped.
  signal(-(app.child.pid as number), 'SIGTERM');
  await stopWithin(app, 30_000, what);
  if (!(await databaseStopped(30_000))) throw new Error(`${what}: the database was still running 30 s later`);
}

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
  for (const { name, stop, launcher = 'node', tries = 1 } of STOPS) {
    const readyIn: number[] = [];
    let failure: string | undefined;
    if (app.launcher !== launcher) {
      // Started the row's way before its stop (a clean stop and start: not one of the matrix's).
      await stopCleanly(app, `switching to ${launcher}`);
      output = '';
      app = start(launcher);
      current = app;
      await waitReady(app);
    }
    for (let attempt = 0; attempt < tries && failure === undefined; attempt++) {
      await stop(app);
      output = '';
      app = start(launcher);
      current = app;
      try {
        const ms = await waitReady(app);
        const signIn = await auth('/api/auth/sign-in/email', credentials);
        if (signIn !== 200) throw new Error(`sign-in after the restart answered ${signIn}`);
        if (/\bundefined\b/.test(output)) throw new Error(`the start said 'undefined': ${output.trim()}`);
        readyIn.push(ms);
      } catch (error) {
        failure = `FAIL (try ${attempt + 1} of ${tries}): ${(error as Error).message}`;
        app = start(launcher); // whatever state it left, go on with the next kind of stop
        current = app;
        await waitReady(app).catch(() => {});
      }
    }
    results.push([name, failure ?? `ok: ready in ${readyIn.join(', ')} ms, the user signed in again`]);
    log(`${name}: ${results.at(-1)?.[1]}`);
  }
  await stopCleanly(app, 'final stop').catch(() => {});
  console.log('\nrestart matrix');
  for (const [name, outcome] of results) console.log(`  ${name}: ${outcome}`);
  for (const [i, { npmExitedMs, pidFileLeft, states }] of npmStops.entries()) {
    console.log(
      `  npm try ${i + 1}: npm exited ${npmExitedMs} ms after the SIGTERM; postmaster.pid ${pidFileLeft ? 'was left for the next start' : 'was gone'}; the killed postmaster's states over the next 3 s: ${(await states).join(' → ')}`,
    );
  }
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
