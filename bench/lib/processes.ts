import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

/** Every child the bench starts, so that an interrupted run still stops all of them. */
const children = new Set<ChildProcess>();
/** Data folders whose embedded PostgreSQL must be stopped if its app process is killed. */
const clusters = new Set<string>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** GET on 127.0.0.1 without decoding the body; resolves with status, headers and raw bytes. */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 5000,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    request.on('error', reject);
  });
}

export interface AppProcess {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  port: number;
  dataDir: string;
  /** ms from spawn to the first 200 of /api/health. */
  startupMs: number;
  /** ms from spawn to: the database's postmaster.pid appearing, the port accepting connections. */
  milestones: { postmasterPidMs: number | undefined; listeningMs: number | undefined };
  /** Last lines the app printed (warnings and errors only: LOG_LEVEL=warn). */
  logTail(): string;
}

export interface AppEnv {
  dataDir: string;
  port: number;
  admin: { email: string; password: string };
  logFile: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
}

/** Starts `node dist/server/main.js` and resolves when /api/health first answers 200. */
export async function startApp(root: string, env: AppEnv, timeoutMs: number): Promise<AppProcess> {
  const baseUrl = `http://127.0.0.1:${env.port}`;
  const log = createWriteStream(env.logFile, { flags: 'a' });
  const tail: string[] = [];
  const started = performance.now();
  const child = track(
    spawn(process.execPath, [...(env.nodeArgs ?? []), path.join(root, 'dist/server/main.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        PORT: String(env.port),
        HOST: '127.0.0.1',
        APP_URL: baseUrl,
        DATA_DIR: env.dataDir,
        SEED_DEMO: 'true',
        ADMIN_EMAIL: env.admin.email,
        ADMIN_PASSWORD: env.admin.password,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  clusters.add(env.dataDir);
  const collect = (chunk: Buffer) => {
    log.write(chunk);
    tail.push(...chunk.toString().split('\n').filter(Boolean));
    if (tail.length > 40) tail.splice(0, tail.length - 40);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('exit', () => log.end());

  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  const deadline = started + timeoutMs;
  const milestones: AppProcess['milestones'] = { postmasterPidMs: undefined, listeningMs: undefined };
  const pidFile = path.join(env.dataDir, 'postgres', 'postmaster.pid');
  for (;;) {
    if (milestones.postmasterPidMs === undefined && existsSync(pidFile)) {
      milestones.postmasterPidMs = Math.round(performance.now() - started);
    }
    if (exited) throw new Error(`app ${exited} before it was healthy:\n${tail.join('\n')}`);
    if (performance.now() > deadline) {
      await stopApp({ child, dataDir: env.dataDir }, 5000);
      throw new Error(`app not healthy within ${timeoutMs} ms:\n${tail.join('\n')}`);
    }
    try {
      const response = await rawGet(`${baseUrl}/api/health`, {}, 1000);
      milestones.listeningMs ??= Math.round(performance.now() - started);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(25);
  }
  return {
    child,
    pid: child.pid as number,
    baseUrl,
    port: env.port,
    dataDir: env.dataDir,
    startupMs: performance.now() - started,
    milestones,
    logTail: () => tail.join('\n'),
  };
}

/** SIGTERM, then SIGKILL after graceMs; a database left behind by a killed app is stopped too. */
export async function stopApp(app: { child: ChildProcess; dataDir: string }, graceMs = 20_000): Promise<number> {
  const started = performance.now();
  await stopChild(app.child, graceMs);
  await stopLeftoverPostgres(app.dataDir);
  clusters.delete(app.dataDir);
  return performance.now() - started;
}

export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function postmasterPid(dataDir: string): number | undefined {
  try {
    const text = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
    const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const pid = postmasterPid(dataDir);
  if (pid === undefined || !alive(pid)) return;
  const cmdline = safeRead(`/proc/${pid}/cmdline`) ?? '';
  if (!cmdline.includes('postgres')) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await sleep(50);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

/** Stops everything this run started. Safe to call more than once. */
export async function stopEverything(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 5000).catch(() => {})));
  await Promise.all([...clusters].map((dir) => stopLeftoverPostgres(dir).catch(() => {})));
  clusters.clear();
}

function safeRead(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Resident memory in KB: VmRSS from /proc/<pid>/status. */
export function rssKb(pid: number): number | undefined {
  const status = safeRead(`/proc/${pid}/status`);
  const match = status?.match(/^VmRSS:\s+(\d+)\s+kB/m);
  return match ? Number(match[1]) : undefined;
}

/** Proportional set size in KB (shared pages split between the processes that map them). */
export function pssKb(pid: number): number | undefined {
  const rollup = safeRead(`/proc/${pid}/smaps_rollup`);
  const match = rollup?.match(/^Pss:\s+(\d+)\s+kB/m);
  return match ? Number(match[1]) : undefined;
}

function childPids(parent: number): number[] {
  if (!existsSync('/proc')) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = safeRead(`/proc/${entry}/stat`);
    if (!stat) continue;
    // The command name may contain spaces and parentheses: fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === parent) found.push(Number(entry));
  }
  return found;
}

export interface DbMemory {
  processes: number;
  rssKb: number;
  pssKb: number;
}

/** The postmaster of DATA_DIR/postgres and its children (backends, checkpointer, walwriter, ...). */
export function postgresMemory(dataDir: string): DbMemory | undefined {
  const pid = postmasterPid(dataDir);
  if (pid === undefined || !alive(pid)) return undefined;
  const pids = [pid, ...childPids(pid)];
  let rss = 0;
  let pss = 0;
  for (const p of pids) {
    rss += rssKb(p) ?? 0;
    pss += pssKb(p) ?? 0;
  }
  return { processes: pids.length, rssKb: rss, pssKb: pss };
}

/** Samples the peak memory of the app and its database while `work` runs. */
export async function withMemorySampling<T>(
  appPid: number,
  dataDir: string,
  work: () => Promise<T>,
): Promise<{ result: T; peakAppRssKb: number; peakDbRssKb: number; peakDbPssKb: number }> {
  let peakAppRssKb = 0;
  let peakDbRssKb = 0;
  let peakDbPssKb = 0;
  const sample = () => {
    peakAppRssKb = Math.max(peakAppRssKb, rssKb(appPid) ?? 0);
    const db = postgresMemory(dataDir);
    if (db) {
      peakDbRssKb = Math.max(peakDbRssKb, db.rssKb);
      peakDbPssKb = Math.max(peakDbPssKb, db.pssKb);
    }
  };
  const timer = setInterval(sample, 500);
  try {
    const result = await work();
    sample();
    return { result, peakAppRssKb, peakDbRssKb, peakDbPssKb };
  } finally {
    clearInterval(timer);
  }
}
